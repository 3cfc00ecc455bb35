"""The dead who rise after a match (R25): the Necromancer's Zombie and Nurgle's Rotter."""

from __future__ import annotations

from django.utils.translation import gettext as _

from league import rules
from league.rules import injuries as injury_rules
from matches.models import (
    Match,
    PlayerMatch,
    PostMatch,
)
from matches.postmatch.base import PostMatchError
from teams.models import Player, Position, Team
from teams.rosters import next_number


def opponents_dead(match: Match, team: Team) -> list[Player]:
    """Opponents killed in this match who stayed dead after their own injuries step."""
    opponent_id = match.away_id if team.pk == match.home_id else match.home_id
    return [
        line.player
        for line in PlayerMatch.objects.filter(
            match=match, team_id=opponent_id, injury=PlayerMatch.Injury.DEAD, player__status=Player.Status.DEAD
        )
        .select_related("player__position", "injured_by__position")
        .prefetch_related("player__position__skills")
    ]


def _new_player(team: Team, position_name: str, name: str, r: rules.Ruleset) -> Player | None:
    """A free player for the roster if the position's limit and the roster allow it (R25)."""

    position = Position.objects.filter(race=team.race, name=position_name).first()
    if position is None:
        return None
    on_roster = team.players.on_roster()
    if on_roster.count() >= r.settings.max_players or on_roster.filter(position=position).count() >= position.max_count:
        return None
    return Player.objects.create(team=team, position=position, name=name, number=next_number(team))


def raise_the_dead(match: Match, team: Team, r: rules.Ruleset, raise_zombie: int | None) -> list[str]:
    """The Necromancer raises one dead opponent (not Stunty, not a Big Guy) as a Zombie; a Beast of
    Nurgle's unhealed kill gives the Nurgle team a Rotter; each only within limits and roster room (R25)."""
    lines: list[str] = []
    opponent = match.away if team.pk == match.home_id else match.home
    necromancer = injury_rules.raises_zombies(team.race.head_coach)
    rot = injury_rules.rots(team.race.name)
    if not (necromancer or rot):
        return lines
    killed = PlayerMatch.objects.filter(match=match, team=opponent, injury=PlayerMatch.Injury.DEAD)
    if rot:
        killed = killed.filter(injured_by__position__name=injury_rules.BEAST_OF_NURGLE)
    needs_opponent = (necromancer and raise_zombie) or (rot and killed.exists())
    if (
        needs_opponent
        and not PostMatch.objects.filter(match=match, team=opponent, done__gte=PostMatch.Step.INJURIES).exists()
    ):
        raise PostMatchError(
            [_("Wait for %(team)s's injuries step: only the dead who stay dead can rise.") % {"team": opponent.name}]
        )
    dead = opponents_dead(match, team)
    if necromancer and raise_zombie:
        victim = next((p for p in dead if p.pk == raise_zombie), None)
        if victim is None:
            raise PostMatchError([_("Only an opponent who died in this match can be raised.")])
        traits = {s.name for s in victim.position.skills.all()}
        if not injury_rules.can_be_raised(traits, big_guy=victim.position.big_guy):
            raise PostMatchError([_("Stunty players and Big Guys cannot be raised (R25).")])
        zombie = _new_player(team, injury_rules.ZOMBIES, _("%(name)s (Zombie)") % {"name": victim.name}, r)
        lines.append(
            _("The Necromancer raises %(player)s as a Zombie.") % {"player": victim}
            if zombie
            else _("No roster room for a new Zombie.")
        )
    if rot:
        for victim in dead:
            killer = (
                PlayerMatch.objects.filter(match=match, player=victim)
                .values_list("injured_by__position__name", flat=True)
                .first()
            )
            if injury_rules.becomes_rotter(team.race.name, killer):
                rotter = _new_player(team, injury_rules.ROTTERS, _("%(name)s (Rotter)") % {"name": victim.name}, r)
                lines.append(
                    _("Nurgle's Rot: %(player)s comes back as a Rotter.") % {"player": victim}
                    if rotter
                    else _("Nurgle's Rot: no roster room for a new Rotter.")
                )
    return lines
