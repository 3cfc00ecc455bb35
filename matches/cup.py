"""The cup's bracket moves with its matches: a decided cup match puts its winner into the next round."""

from __future__ import annotations

from league import rules
from matches.models import Match


def advance_cup(match: Match) -> Match | None:
    """Put the winner of a decided cup match into its slot of the next round (inside a transaction)."""
    if match.cup_id is None or match.winner_id is None:
        return None
    cup = match.cup
    rounds = rules.cup_rounds(len(cup.draw))
    if match.round >= rounds:
        return None
    slot = match.cup_slot // 2
    next_match, _created = (
        Match.objects.select_for_update()
        .exclude(status=Match.Status.VOID)  # a voided tie's row stays beside its replay
        .get_or_create(cup=cup, round=match.round + 1, cup_slot=slot, defaults={"season_id": match.season_id})
    )
    side = "home" if match.cup_slot % 2 == 0 else "away"
    setattr(next_match, f"{side}_id", match.winner_id)
    next_match.save(update_fields=[f"{side}_id"])
    return next_match


def next_cup_match(match: Match) -> Match | None:
    """The next round's match this one's winner goes to (None outside the cup or before the draw made it)."""
    if not match.cup_id:
        return None
    following = Match.objects.filter(cup=match.cup_id, round=match.round + 1, cup_slot=match.cup_slot // 2)
    return following.exclude(status=Match.Status.VOID).first()


def undo_cup_advance(match: Match) -> None:
    """Take this match's winner back out of the next round (a reopened or voided cup match)."""
    following = next_cup_match(match)
    if following is not None:
        side = "home_id" if match.cup_slot % 2 == 0 else "away_id"
        setattr(following, side, None)
        following.save(update_fields=[side])
