"""A living demo league built through the same services a coach and the board use.

13 teams of varied races with their coaches (7 in the 1st division, 6 in the 2nd), a running season
with fixtures, a drawn cup, and the first rounds played. Every die is rolled through the recorded-dice
service from a source seeded with `--seed`, so the same seed builds the same league.
"""

from __future__ import annotations

import random
from datetime import date, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from league.accounts import BOARD, COACH, grant_board_permissions, role_group
from league.lib.writes import league_writes
from league.management.demo_names import player_names
from league.models import Ruleset
from league.seasons.services.cup import draw_cup
from league.seasons.services.fixtures import generate_fixtures
from league.seasons.services.setup import DivisionPlan, create_season, default_divisions, start_season
from matches import dice
from matches.models import Match, PlayerMatch, SquadEntry
from matches.playthrough import walk_postmatch, walk_prematch
from matches.report.confirmation import confirm_report
from matches.report.filing import LineInput, ReportInput, file_report
from teams import services as team_services
from teams.models import Position, Race, Team

DEMO_PASSWORD = "torshov"

TEAMS = [
    # (team, race, coach) — the first seven play in the 1st division
    ("Torshov Trolls", "Orc", "kari"),
    ("Sagene Saints", "Human", "ola"),
    ("Grünerløkka Grudgebearers", "Dwarf", "ingrid"),
    ("Bislett Blightrats", "Skaven", "per"),
    ("Frogner Fey", "Wood Elf", "sigrid"),
    ("Tøyen Tyrants", "Chaos", "magnus"),
    ("Vålerenga Wights", "Undead", "nora"),
    ("Lodalen Lizards", "Lizardmen", "henrik"),
    ("Kampen Cooks", "Halfling", "astrid"),
    ("Sofienberg Skalds", "Norse", "lars"),
    ("Majorstuen Murderers", "Dark Elf", "silje"),
    ("Alexander Kiellands Mummies", "Khemri", "jonas"),
    ("Ila Infected", "Nurgle", "marte"),
]
FIRST_DIVISION = 7


def demo_roster(race: Race, ruleset: Ruleset) -> tuple[dict[int, int], int, int, bool]:
    """A sensible starting roster for any race: specialists first, linemen to fill, within budget."""
    s = ruleset.rules.settings
    positions = sorted(Position.objects.filter(race=race), key=lambda p: p.price)
    apothecary = race.apothecary_allowed
    rerolls, fan_factor = 2, 4
    budget = (
        s.starting_treasury
        - rerolls * race.reroll_price
        - fan_factor * s.fan_factor_price
        - (s.apothecary_price if apothecary else 0)
    )
    hires = {p.pk: 0 for p in positions}
    count = 0
    for p in positions:  # fill 11 from the cheapest up
        take = min(p.max_count, 11 - count)
        hires[p.pk] += take
        count += take
    cost = sum(p.price * hires[p.pk] for p in positions)
    cheapest = positions[0]
    for p in reversed(positions[1:]):  # upgrade linemen to specialists while the gold lasts
        while (
            hires[p.pk] < min(p.max_count, 2) and hires[cheapest.pk] > 4 and cost - cheapest.price + p.price <= budget
        ):
            hires[cheapest.pk] -= 1
            hires[p.pk] += 1
            cost += p.price - cheapest.price
    while hires[cheapest.pk] < cheapest.max_count and cost + cheapest.price <= budget - 60_000 and count < 13:
        hires[cheapest.pk] += 1
        cost += cheapest.price
        count += 1
    return {k: v for k, v in hires.items() if v}, rerolls, fan_factor, apothecary


class Command(BaseCommand):
    help = "Build a demo league: 13 teams, a running season with fixtures, a cup, and played rounds."

    def add_arguments(self, parser):
        parser.add_argument("--if-empty", action="store_true", help="Do nothing if any team exists.")
        parser.add_argument("--rounds", type=int, default=4, help="League rounds to play (default 4).")
        parser.add_argument("--seed", type=int, default=2006)

    def handle(self, *args, if_empty: bool, rounds: int, seed: int, **options):
        if if_empty and Team.objects.exists():
            self.stdout.write("Teams exist: demo league not loaded.")
            return
        rng = random.Random(seed)
        with league_writes(), dice.seeded(rng):
            self.build(rounds=rounds, rng=rng)

    def build(self, *, rounds: int, rng: random.Random) -> None:
        User = get_user_model()
        grant_board_permissions()
        coaches = role_group(COACH)
        board, _ = User.objects.get_or_create(username="styret", defaults={"is_staff": True, "first_name": "Styret"})
        board.groups.add(role_group(BOARD))
        self._password(board)
        ruleset = Ruleset.default()
        teams = []
        for name, race_name, username in TEAMS:
            coach, _ = User.objects.get_or_create(username=username, defaults={"first_name": username.title()})
            coach.groups.add(coaches)
            self._password(coach)
            race = Race.objects.get(name=race_name)
            hires, rerolls, fan_factor, apothecary = demo_roster(race, ruleset)
            names = iter(player_names(name, sum(hires.values())))
            named = {position: [next(names) for _ in range(count)] for position, count in hires.items()}
            team = team_services.create_team(
                coach=coach,
                name=name,
                race=race,
                hires=hires,
                rerolls=rerolls,
                fan_factor=fan_factor,
                apothecary=apothecary,
                names=named,
                ruleset=ruleset,
            )
            teams.append(team)
        year = date.today().year
        levels = default_divisions(ruleset)
        season = create_season(
            name=f"Sesong {year}",
            ruleset=ruleset,
            divisions=[
                DivisionPlan(
                    level, dname, die, teams[:FIRST_DIVISION] if level == 1 else teams[FIRST_DIVISION:]
                )
                for level, dname, die in levels
            ],
        )
        start = date.today() - timedelta(days=14 * rounds)
        for division in season.divisions.all():
            generate_fixtures(division, start=start, days_between=14)
        start_season(season)
        order = [t.pk for t in teams]
        rng.shuffle(order)  # the draw from the seed too, so the league repeats
        draw_cup(season, teams=teams, name=f"Torshov-cupen {year}", prize=50_000, order=order, by=board)
        played = 0
        for match in Match.objects.filter(season=season, division__isnull=False, round__lte=rounds).order_by("round"):
            self._play(match, rng, board)
            played += 1
        for match in Match.objects.filter(season=season, cup__isnull=False, round=1, status=Match.Status.SCHEDULED):
            self._play(match, rng, board)
            played += 1
        self.stdout.write(
            self.style.SUCCESS(f"Demo league: {len(teams)} teams, {season.name} running, {played} matches played.")
        )
        if settings.DEBUG:
            self.stdout.write(f"Log in as 'styret' (the board) or a coach (e.g. 'kari'), password '{DEMO_PASSWORD}'.")

    def _password(self, user) -> None:
        # Demo accounts get a known password only on a development machine.
        if settings.DEBUG:
            user.set_password(DEMO_PASSWORD)
        else:
            user.set_unusable_password()
        user.save()

    def _play(self, match: Match, rng: random.Random, board) -> None:
        """A match as the coaches play it: the pre-match sequence, the report filed by the home coach
        and confirmed by the away coach, then both post-match sequences."""
        walk_prematch(match)
        scores = {match.home_id: rng.choice([0, 1, 1, 2, 2, 3]), match.away_id: rng.choice([0, 0, 1, 1, 2, 3])}
        squads = {
            t.pk: [
                e.player for e in match.squad.filter(team=t, status=SquadEntry.Status.PLAYING).select_related("player")
            ]
            for t in (match.home, match.away)
        }
        lines: dict[int, LineInput] = {}

        def line(player) -> LineInput:
            return lines.setdefault(player.pk, LineInput(player.pk))

        for team_id, players in squads.items():
            opponents = squads[match.away_id if team_id == match.home_id else match.home_id]
            for _ in range(scores[team_id]):
                line(rng.choice(players)).touchdowns += 1
                if rng.random() < 0.6:
                    line(rng.choice(players)).completions += 1
            for _ in range(rng.randint(0, 3)):
                hitter, victim = rng.choice(players), rng.choice(opponents)
                if victim.pk in lines and lines[victim.pk].injury:
                    continue
                line(hitter).casualties += 1
                hurt = line(victim)
                hurt.injury = rng.choice([*[PlayerMatch.Injury.BADLY_HURT] * 3, PlayerMatch.Injury.SERIOUS])
                hurt.injured_by_id = hitter.pk
            if rng.random() < 0.2:
                line(rng.choice(players)).interceptions += 1
        tiebreak = None
        if match.cup_id and scores[match.home_id] == scores[match.away_id]:
            tiebreak = rng.choice([match.home_id, match.away_id])
        report = ReportInput(
            home_score=scores[match.home_id],
            away_score=scores[match.away_id],
            tiebreak_winner_id=tiebreak,
            lines=list(lines.values()),
        )
        file_report(match, report, by=match.home.coach)
        confirm_report(match, by=match.away.coach)
        walk_postmatch(match)
