"""Who takes part in a match and who hears of it, and the words' parameters: the services below
call `notify` with these, inside their own transaction."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model

from league.accounts import is_board
from matches.models import Match


def coaches(match: Match, *, but: Any = None) -> list[Any]:
    """The coaches of the match's two teams (one query), but the one who acted."""
    users = get_user_model().objects.filter(teams__pk__in=[t for t in (match.home_id, match.away_id) if t]).distinct()
    if getattr(but, "pk", None) is not None:
        users = users.exclude(pk=but.pk)
    return list(users.order_by("pk"))


def acts_as_coach(match: Match, by: Any) -> bool:
    """Whether `by` coaches one of the match's teams (else he acts as the board, or is a script)."""
    pk = getattr(by, "pk", None)
    return pk is not None and pk in {getattr(match.home, "coach_id", None), getattr(match.away, "coach_id", None)}


def takes_part(user: Any, match: Match) -> bool:
    """The match's two coaches and the board: they act on it (its steps, report and live log) and see its
    referee sheet's photos; everyone else only looks."""
    return getattr(user, "is_authenticated", False) and (is_board(user) or acts_as_coach(match, user))


def acts_for(user: Any, match: Match) -> set[int]:
    """The match's teams whose steps this person takes: his own, both for the board."""
    if not getattr(user, "is_authenticated", False):
        return set()
    board = is_board(user)
    return {t.pk for t in (match.home, match.away) if t is not None and (board or t.coach_id == user.pk)}


def words(match: Match, **extra: str | int) -> dict[str, str | int]:
    """The match as the sentences name it: its teams, its score, and what the caller adds."""
    params: dict[str, str | int] = {"match": str(match)}
    if match.home_score is not None and match.away_score is not None:
        params["score"] = f"{match.home_score}–{match.away_score}"
    if match.date:
        params["date"] = match.date.isoformat()
    return {**params, **extra}


def action_key(kind: str, *objects: Any) -> str:
    """What names an action the league waits for (a to-do of matches.selectors and league.seasons.waiting):
    its kind and the rows it is about. A notice asking for the action stores it."""
    return ":".join([kind, *(str(getattr(o, "pk", o)) for o in objects)])
