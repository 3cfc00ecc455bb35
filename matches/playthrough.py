"""A match played through the services, as two coaches walk it with the server's dice: the pre-match
sequence, and each coach's post-match sequence. One helper for the demo league (seed_demo), the
benchmark and the tests; the report in between is the caller's (file_report, confirm_report)."""

from __future__ import annotations

from league import rules
from matches.models import Match, PlayerMatch, PostMatch, SquadEntry
from matches.postmatch.base import steps_not_applicable
from matches.postmatch.development import choices_for, develop, development_rolls
from matches.postmatch.injury_facts import injured_lines
from matches.postmatch.injury_step import injuries
from matches.postmatch.mvp import mvp
from matches.postmatch.steps import complete, fan_factor, purchases_done, stadium, winnings
from matches.prematch.base import chef_teams, get_prematch, niggling_checked
from matches.prematch.chef import buy_chef_dice, choose_inspired_development, inspire, inspired_rolls
from matches.prematch.opening import pick_squad, roll_gate, roll_weather, set_tickets
from matches.prematch.ratings import check_niggling, roll_handicap
from teams.models import Race


def demo_choices(rolls, r: rules.Ruleset) -> dict[int, str]:
    """A skill for each roll, never one the player took with an earlier roll of the same match (two
    level-ups at once); a stat or mutation only when no skill is left, as they can clash with the ±2 limit."""
    taken: dict[int, list[str]] = {}
    chosen = {}
    for roll in rolls:
        options = choices_for(roll, r, taken=taken.get(roll.player_id, []))
        skills = [c for c in options if not c.startswith((rules.STAT_CHOICE, rules.MUTATION_CHOICE))]
        chosen[roll.pk] = (skills or options)[0]
        taken.setdefault(roll.player_id, []).append(chosen[roll.pk])
    return chosen


def walk_prematch(match: Match) -> None:
    """The pre-match sequence with server dice, as two coaches would walk it."""
    for team in (match.home, match.away):
        pick_squad(match, team, [p.pk for p in team.players.available()[:16]], by=team.coach)
    roll_weather(match, entered=None, by=match.home.coach)
    set_tickets(match, ticket="ordinary", neutral=False, by=match.home.coach)
    roll_gate(match, home_dice=None, away_dice=None, by=match.home.coach)
    for team in (match.home, match.away):
        if not niggling_checked(match, get_prematch(match), team):
            check_niggling(match, team, by=team.coach)
    roll_handicap(match, by=match.home.coach)
    for draw in match.handicaps.filter(key="inspiration", player__isnull=True):
        squad = match.squad.filter(team=draw.team, status=SquadEntry.Status.PLAYING).first()
        inspire(match, draw.team, squad.player_id, by=draw.team.coach)
        rolls = inspired_rolls(match, draw.team)  # R23: a level-up is chosen before the match
        if rolls:
            choices = demo_choices(rolls, match.season.ruleset.rules)
            choose_inspired_development(match, draw.team, choices=choices, by=draw.team.coach)
    for team in chef_teams(match):
        buy_chef_dice(match, team, count=0, by=team.coach)


def walk_postmatch(match: Match) -> None:
    """Each coach's post-match sequence with server dice: the Bandage Crew tries every dead
    player it may, each level-up takes the first choice the rules allow. The steps that do not apply
    (a forfeit, R42) are passed."""
    match.refresh_from_db()
    r = match.season.ruleset.rules
    teams = (match.home, match.away)
    skipped = {team.pk: steps_not_applicable(match, team.pk) for team in teams}
    for team in teams:
        if PostMatch.Step.WINNINGS not in skipped[team.pk]:
            winnings(match, team, roll=None, by=team.coach)
    for team in teams:
        if PostMatch.Step.INJURIES not in skipped[team.pk]:
            dead = [
                line.player_id
                for line in injured_lines(match, team)
                if line.injury == PlayerMatch.Injury.DEAD
            ]
            limit = 3 if team.race.healer == Race.Healer.BANDAGE_CREW else 1
            injuries(match, team, healer_targets=dead[:limit], by=team.coach)
    for team in teams:
        steps = [
            (PostMatch.Step.STADIUM, lambda t: stadium(match, t, by=t.coach)),
            (PostMatch.Step.MVP, lambda t: mvp(match, t, by=t.coach)),
            (PostMatch.Step.DEVELOPMENT, lambda t: _develop(match, t, r)),
            (PostMatch.Step.FAN_FACTOR, lambda t: fan_factor(match, t, by=t.coach)),
            (PostMatch.Step.PURCHASES, lambda t: purchases_done(match, t, by=t.coach)),
            (PostMatch.Step.TEAM_RATING, lambda t: complete(match, t, by=t.coach)),
        ]
        for step, take in steps:
            if step not in skipped[team.pk]:
                take(team)


def _develop(match: Match, team, r: rules.Ruleset) -> None:
    rolls = development_rolls(match, team, by=team.coach)
    develop(match, team, choices=demo_choices(rolls, r), by=team.coach)
