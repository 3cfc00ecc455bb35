"""A small league with a match in each state of the year, and every route of the site filled in with
its rows (issue 24). The read-only test GETs each path as each visitor and checks that nothing is
written; the query-string fuzz GETs them with garbage and checks that nothing is a server error.

Routes come from the URL resolver, so a new page is visited as soon as it is added; a route whose
parameters this module cannot fill fails the tests until `PARAMETERS` knows it."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field

from django.urls import URLPattern, URLResolver, get_resolver, reverse

# Django's own pages: the admin answers a query string it does not know with its own ?e=1 redirect,
# and i18n/ is the language switch (a POST). The project's pages are the ones a visitor meets.
SKIPPED_PREFIXES = ("admin/", "i18n/")


@dataclass(frozen=True)
class Route:
    name: str
    parameters: tuple[str, ...]
    pattern: str


@dataclass
class Visit:
    """A path to GET, and the coaches whose view of it differs from anyone's (the match's, the team's)."""

    route: str
    path: str
    coaches: list = field(default_factory=list)


def _walk(patterns: list, prefix: str = "") -> Iterator[Route]:
    for entry in patterns:
        if isinstance(entry, URLResolver):
            yield from _walk(entry.url_patterns, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern) and entry.name:
            pattern = prefix + str(entry.pattern)
            if not pattern.startswith(SKIPPED_PREFIXES):
                yield Route(entry.name, tuple(entry.pattern.converters), pattern)


def routes() -> list[Route]:
    """Every named route of the project but Django's own, in the resolver's order."""
    seen: dict[str, Route] = {}
    for route in _walk(get_resolver().url_patterns):
        seen.setdefault(route.name, route)
    return list(seen.values())


@dataclass
class StatesLeague:
    """What the builder made: the users by role and the rows each route is visited with."""

    board: object
    coaches: list
    season: object
    divisions: list
    teams: list
    players: list
    matches: dict[str, object]  # by state: "untouched", "prematch_begun", "live", "reported", …
    rulesets: list
    races: list[str]
    photos: list = field(default_factory=list)  # the reported match's photo of the referee sheet
    webhooks: list = field(default_factory=list)  # the board's chat, made last: the build posts nothing

    def visits(self, route: Route) -> list[Visit]:
        """The paths of `route` with this league's rows (a match route: one path per match state)."""
        kwargs_list = PARAMETERS[_family(route)](self, route)
        return [Visit(route.name, reverse(route.name, kwargs=kwargs), coaches) for kwargs, coaches in kwargs_list]


def _family(route: Route) -> str:
    """Which rows fill the route: its parameters and, for a bare `pk`, the path it sits under."""
    if not route.parameters:
        return "none"
    head = route.pattern.removeprefix("api/").split("/", 1)[0]
    return f"{head}:{','.join(route.parameters)}"


def _match_coaches(match) -> list:
    return [t.coach for t in (match.home, match.away) if t is not None]


def _matches(league: StatesLeague, route: Route) -> list[tuple[dict, list]]:
    out = []
    for match in league.matches.values():
        kwargs: dict = {"pk": match.pk}
        if "step" in route.parameters:
            kwargs["step"] = "squad" if "prematch" in route.name else "winnings"
        if "team_pk" in route.parameters:
            for team in (match.home, match.away):
                if team is not None:
                    out.append(({**kwargs, "team_pk": team.pk}, [team.coach]))
            continue
        out.append((kwargs, _match_coaches(match)))
    return out


def _photos(league: StatesLeague, route: Route) -> list[tuple[dict, list]]:
    return [({"pk": p.match_id, "photo_pk": p.pk}, _match_coaches(p.match)) for p in league.photos]


def _teams(league: StatesLeague, route: Route) -> list[tuple[dict, list]]:
    what = {"what": "reroll"} if "what" in route.parameters else {}
    return [({"pk": t.pk, **what}, [t.coach]) for t in league.teams[:2]]


def _players(league: StatesLeague, route: Route) -> list[tuple[dict, list]]:
    how = {"how": "retire"} if "how" in route.parameters else {}
    return [({"pk": p.pk, **how}, [p.team.coach]) for p in league.players]


def _seasons(league: StatesLeague, route: Route) -> list[tuple[dict, list]]:
    if "division_pk" in route.parameters:
        return [({"pk": league.season.pk, "division_pk": d.pk}, []) for d in league.divisions]
    if "game_pk" in route.parameters:  # a tiebreak game's take-back: a POST; a GET is refused whatever the pk
        return [({"pk": league.season.pk, "game_pk": 1}, [])]
    return [({"pk": league.season.pk}, [])]


def _calendars(league: StatesLeague, route: Route) -> list[tuple[dict, list]]:
    """A coach's private feed, at the address his secret makes (issue 27)."""
    from matches.calendars import private_token

    return [({"token": private_token(coach)}, [coach]) for coach in league.coaches[:2]]


def _notices(league: StatesLeague, route: Route) -> list[tuple[dict, list]]:
    """The notifications the league's writes made (the report filed, the forfeit), each as its recipient."""
    from league.models import Notification

    return [({"pk": n.pk}, [n.recipient]) for n in Notification.objects.select_related("recipient").order_by("pk")[:3]]


def _unsubscribe(league: StatesLeague, route: Route) -> list[tuple[dict, list]]:
    from league.notices import tokens

    coach = league.coaches[0]
    return [({"token": tokens.make(coach.pk, "report_filed")}, [coach]), ({"token": "forged"}, [])]


def _password_links(league: StatesLeague, route: Route) -> list[tuple[dict, list]]:
    """A coach's link from the "Glemt passord?" e-mail, and one made up."""
    from django.contrib.auth.tokens import default_token_generator
    from django.utils.http import urlsafe_base64_encode

    coach = league.coaches[0]
    link = {"uidb64": urlsafe_base64_encode(str(coach.pk).encode()), "token": default_token_generator.make_token(coach)}
    return [(link, [coach]), ({"uidb64": "x", "token": "y"}, [])]


PARAMETERS = {
    "accounts:uidb64,token": _password_links,
    "coaches:pk": lambda league, route: [({"pk": league.coaches[0].pk}, []), ({"pk": league.board.pk}, [])],
    "coaches:pk,other": lambda league, route: [
        ({"pk": league.coaches[0].pk, "other": league.coaches[1].pk}, []),
        ({"pk": league.coaches[0].pk, "other": league.board.pk}, []),
    ],
    "calendar:token": _calendars,
    "none": lambda league, route: [({}, league.coaches[:1])],
    "matches:pk": _matches,
    "matches:pk,step": _matches,
    "matches:pk,team_pk": _matches,
    "matches:pk,team_pk,step": _matches,
    "matches:pk,photo_pk": _photos,
    "teams:pk": _teams,
    "teams:pk,what": _teams,
    "players:pk": _players,
    "players:pk,how": _players,
    "seasons:pk": _seasons,
    "seasons:pk,division_pk": _seasons,
    "seasons:pk,game_pk": _seasons,
    "rules:pk": lambda league, route: [({"pk": r.pk}, []) for r in league.rulesets],
    "races:slug": lambda league, route: [({"slug": slug}, []) for slug in league.races],
    "my:pk": _notices,
    "board:pk": lambda league, route: [({"pk": w.pk}, []) for w in league.webhooks],
    "notices:token": _unsubscribe,
}


def build_states_league(make_teams, board) -> StatesLeague:
    """Two divisions of four, fixtures, the season started, and round 1 in every state a match passes
    through: a pre-match begun, a live log started, a report awaiting confirmation, a confirmed match
    whose post-match sequences are one begun and one not; round 2 untouched; a cup of three teams
    with a bye and a forfeit. A draft ruleset for the rules editor's pages."""
    from league.models import Ruleset, Webhook
    from league.seasons.services.cup import draw_cup
    from league.seasons.services.fixtures import generate_fixtures
    from league.seasons.services.setup import DivisionPlan, create_season, start_season
    from matches.live.entries import record
    from matches.live.state import EventInput
    from matches.models import Match, PostMatch, ReportPhoto
    from matches.playthrough import walk_prematch
    from matches.postmatch.steps import winnings
    from matches.prematch.opening import pick_squad
    from matches.report.confirmation import confirm_report
    from matches.report.filing import ReportInput, file_report
    from matches.results import record_forfeit
    from teams.models import Race

    teams = make_teams(8, prefix="State")
    ruleset = Ruleset.default()
    season = create_season(
        name="States",
        ruleset=ruleset,
        divisions=[
            DivisionPlan(1, "1st division", 6, teams[:4]),
            DivisionPlan(2, "2nd division", 5, teams[4:]),
        ],
    )
    divisions = list(season.divisions.order_by("level"))
    for division in divisions:
        generate_fixtures(division)
    start_season(season)
    first = {d.level: list(Match.objects.filter(division=d, round=1).order_by("pk")) for d in divisions}
    played, reported = first[1][:2]
    live_match, begun = first[2][:2]

    for match in (played, reported, live_match):
        walk_prematch(match)
    for match in (played, reported):
        file_report(match, ReportInput(home_score=1, away_score=0), by=match.home.coach)
    confirm_report(played, by=played.away.coach)
    winnings(played, played.home, roll=None, by=played.home.coach)
    # the away team's sequence not begun: as a league from before confirmation made the rows has it
    PostMatch.objects.filter(match=played, team=played.away).delete()
    record(live_match.pk, EventInput(kind="start", client_id=uuid.uuid4()), by=live_match.home.coach)
    pick_squad(begun, begun.home, [p.pk for p in begun.home.players.all()], by=begun.home.coach)

    cup_teams = [teams[1], teams[2], teams[5]]
    cup = draw_cup(
        season, teams=cup_teams, name="States Cup", prize=0, order=[t.pk for t in cup_teams], by=board
    )
    bye = cup.matches.get(round=1, away__isnull=True)
    forfeited = cup.matches.get(round=1, away__isnull=False)
    record_forfeit(forfeited, forfeited.away, by=board)

    untouched = Match.objects.filter(division=divisions[0], round=2).order_by("pk").first()
    matches = {
        "untouched": untouched,
        "prematch_begun": begun,
        "live": live_match,
        "reported": reported,
        "played": played,
        "bye": bye,
        "forfeited": forfeited,
        "cup_next": cup.matches.filter(round=2).first(),
    }
    matches = {k: Match.objects.select_related("home__coach", "away__coach").get(pk=m.pk) for k, m in matches.items()}
    draft = Ruleset.objects.create(name="Draft", data=ruleset.data, based_on=ruleset)
    # a photo's row, its files not stored (the builder leaves no file behind): its view answers 404
    photo = ReportPhoto.objects.create(
        match=reported,
        slot=1,
        image="report-photos/states.jpg",
        thumbnail="report-photos/states-small.jpg",
        width=2000,
        height=1500,
        uploaded_by=reported.home.coach,
    )
    return StatesLeague(
        board=board,
        coaches=[t.coach for t in teams],
        season=season,
        divisions=divisions,
        teams=[played.home, played.away],
        players=[played.home.players.order_by("number").first(), played.away.players.order_by("number").first()],
        matches=matches,
        photos=[ReportPhoto.objects.select_related("match__home", "match__away").get(pk=photo.pk)],
        rulesets=[ruleset, draft],
        races=list(Race.objects.order_by("name").values_list("slug", flat=True)[:2]),
        webhooks=[Webhook.objects.create(name="Discord", url="http://127.0.0.1:9/hook")],
    )
