from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from league import services as league_services
from league.accounts import is_board
from league.forms import MoveFixtureForm, ResultForm
from league.models import Season
from league.refusals import Refusal, act_and_redirect
from league.selectors import current_season, season_board
from matches import postmatch as postmatch_service
from matches import prematch as prematch_service
from matches import services
from matches.dice import parse_entered
from matches.models import (
    ApothecaryUse,
    DevelopmentRoll,
    HandicapDraw,
    Match,
    PlayerMatch,
    PostMatch,
    PreMatch,
    SquadEntry,
)
from matches.report import (
    ApothecaryInput,
    LineInput,
    ReportError,
    ReportInput,
    confirm_report,
    dispute_report,
    file_report,
    reopen_report,
    void_match,
)
from teams.models import Player, Team


@require_GET
def match_list(request: HttpRequest) -> HttpResponse:
    """Fixtures and results by round."""
    pk = request.GET.get("season")
    season = (
        get_object_or_404(Season.objects.select_related("ruleset", "cup"), pk=pk)
        if pk and pk.isdigit()
        else current_season()
    )
    board = season_board(season, latest=0, upcoming=0, rounds=True)
    return render(request, "matches/match_list.html", {"board": board, "seasons": Season.objects.all()})


@require_GET
def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(
        Match.objects.select_related("season", "division", "cup", "home__race", "away__race", "tiebreak_winner"),
        pk=pk,
    )
    board = is_board(request.user)
    context = {
        "match": match,
        "is_board": board,
        "can_report": can_report(request.user, match),
        "postmatch_teams": [
            t for t in (match.home, match.away) if t is not None and (board or t.coach_id == request.user.pk)
        ],
        "lines": match.lines.select_related("player", "injured_by"),
        "apothecary_uses": match.apothecary_uses.select_related("player"),
        "dice": match.dice.select_related("team", "player", "rolled_by"),
        "result_form": ResultForm(match=match) if board and match.status == Match.Status.SCHEDULED else None,
        "move_form": MoveFixtureForm(initial={"round": match.round, "date": match.date})
        if board and match.status == Match.Status.SCHEDULED and match.division_id
        else None,
        "history": match.history.select_related("history_user").order_by("-history_date")[:20],
    }
    return render(request, "matches/match_detail.html", context)


def _get_match_for_board(request: HttpRequest, pk: int) -> Match:
    if not is_board(request.user):
        raise PermissionDenied
    return get_object_or_404(Match.objects.select_related("home", "away", "cup"), pk=pk)


@require_POST
def match_result(request: HttpRequest, pk: int) -> HttpResponse:
    match = _get_match_for_board(request, pk)
    form = ResultForm(request.POST, match=match)
    if form.is_valid():
        d = form.cleaned_data
        try:
            services.record_result(
                match,
                home_score=d["home_score"],
                away_score=d["away_score"],
                home_casualties=d["home_casualties"],
                away_casualties=d["away_casualties"],
                tiebreak_winner_id=form.tiebreak_winner_id(),
                by=request.user,
            )
        except services.MatchError as exc:
            for message in exc.messages:
                messages.error(request, message)
        else:
            messages.success(request, _("Result recorded."))
    else:
        for errors in form.errors.values():
            for e in errors:
                messages.error(request, e)
    return redirect(match)


@require_POST
def match_move(request: HttpRequest, pk: int) -> HttpResponse:
    match = _get_match_for_board(request, pk)
    form = MoveFixtureForm(request.POST)
    if form.is_valid():
        try:
            league_services.move_fixture(match, **form.cleaned_data)
        except league_services.SeasonError as exc:
            for message in exc.messages:
                messages.error(request, message)
        else:
            messages.success(request, _("Fixture moved."))
    return redirect(match)


# --- the report ---------------------------------------------------------------------------------

COUNTER_LABELS = [
    ("completions", gettext_lazy("COMP")),
    ("touchdowns", gettext_lazy("TD")),
    ("interceptions", gettext_lazy("INT")),
    ("casualties", gettext_lazy("CAS block")),
    ("foul_casualties", gettext_lazy("CAS foul")),
    ("crowd_casualties", gettext_lazy("CAS crowd")),
]
APOTHECARY_ROWS = 3


def _get_match_for_coach(request: HttpRequest, pk: int) -> Match:
    """The one access check for report writes: a coach of either team, or the board; else 403."""
    match = get_object_or_404(
        Match.objects.select_related("season__ruleset", "home__coach", "away__coach", "cup", "division"), pk=pk
    )
    if not can_report(request.user, match):
        raise PermissionDenied
    return match


def can_report(user, match: Match) -> bool:
    if not user.is_authenticated:
        return False
    return is_board(user) or user.pk in {getattr(match.home, "coach_id", None), getattr(match.away, "coach_id", None)}


def _report_players(match: Match) -> dict[int, list[Player]]:
    """The squads if picked before the match, else the rosters."""
    picked = SquadEntry.objects.filter(match=match, status=SquadEntry.Status.PLAYING).select_related("player__position")
    by_team: dict[int, list[Player]] = {match.home_id: [], match.away_id: []}
    if picked.exists():
        for entry in picked:
            by_team[entry.team_id].append(entry.player)
    else:
        for player in (
            Player.objects.on_roster().filter(team__in=[match.home_id, match.away_id]).select_related("position")
        ):
            by_team[player.team_id].append(player)
    for players in by_team.values():
        players.sort(key=lambda p: p.number)
    return by_team


def _int(data, name: str, default: int = 0) -> int:
    raw = (data.get(name) or "").strip()
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError:
        raise ReportError([_("%(value)r is not a whole number.") % {"value": raw}]) from None


def parse_report(match: Match, data, players: dict[int, list[Player]]) -> ReportInput:
    r = match.season.ruleset.rules
    if not (data.get("home_score") or "").strip() or not (data.get("away_score") or "").strip():
        raise ReportError([_("Enter the score.")])
    report = ReportInput(
        home_score=_int(data, "home_score"),
        away_score=_int(data, "away_score"),
        tiebreak_winner_id=_int(data, "tiebreak_winner", default=0) or None,
        comment=(data.get("comment") or "").strip(),
    )
    for team_players in players.values():
        for p in team_players:
            prefix = f"p{p.pk}_"
            report.lines.append(
                LineInput(
                    player_id=p.pk,
                    **{c: _int(data, prefix + c) for c, _label in COUNTER_LABELS},
                    injury=data.get(prefix + "injury", ""),
                    injured_by_id=_int(data, prefix + "injured_by") or None,
                    sent_off=bool(data.get(prefix + "sent_off")),
                )
            )
    for team_id in players:
        for i in range(APOTHECARY_ROWS):
            prefix = f"apo{team_id}_{i}_"
            player_id = _int(data, prefix + "player")
            if not player_id:
                continue
            action = data.get(prefix + "action", "")
            try:
                ap = r.apothecary_cost(action)
            except ValueError:
                raise ReportError([_("Choose what the apothecary did.")]) from None
            report.apothecary.append(
                ApothecaryInput(
                    player_id=player_id, action=action, ap=ap, roll=_int(data, prefix + "roll", default=0) or None
                )
            )
    return report


@require_http_methods(["GET", "POST"])
def match_report(request: HttpRequest, pk: int) -> HttpResponse:
    """File the report after the match: the score and every player's deeds and injuries."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    match = _get_match_for_coach(request, pk)
    players = _report_players(match)
    errors: list[str] = []
    if request.method == "POST":
        try:
            report = parse_report(match, request.POST, players)
            file_report(match, report, by=request.user, as_board=is_board(request.user))
        except ReportError as exc:
            errors = exc.messages
        else:
            messages.success(request, _("The report is filed: the other coach confirms it."))
            return redirect(match)
    context = {
        "match": match,
        "errors": errors,
        "counters": COUNTER_LABELS,
        "injuries": PlayerMatch.Injury.choices,
        "actions": ApothecaryUse.Action.choices,
        "sides": [_report_side(match, team, players, request.POST or None) for team in (match.home, match.away)],
        "values": _score_values(match, request.POST or None),
    }
    return render(request, "matches/report_form.html", context, status=400 if errors else 200)


def _score_values(match: Match, data) -> dict:
    if data is not None:
        return {k: data.get(k, "") for k in ("home_score", "away_score", "tiebreak_winner", "comment")}
    return {
        "home_score": "" if match.home_score is None else match.home_score,
        "away_score": "" if match.away_score is None else match.away_score,
        "tiebreak_winner": match.tiebreak_winner_id or "",
        "comment": match.comment,
    }


def _report_side(match: Match, team, players: dict[int, list[Player]], data) -> dict:
    """One team's half of the form, filled from the posted data or the filed report."""
    lines = {line.player_id: line for line in match.lines.all()}
    opponents = players[match.away_id if team.pk == match.home_id else match.home_id]
    rows = []
    for p in players[team.pk]:
        prefix, line = f"p{p.pk}_", lines.get(p.pk)
        if data is not None:
            counts = [(prefix + c, label, data.get(prefix + c, "")) for c, label in COUNTER_LABELS]
            injury, injured_by, sent_off = (
                data.get(prefix + "injury", ""),
                data.get(prefix + "injured_by", ""),
                bool(data.get(prefix + "sent_off")),
            )
        else:
            counts = [(prefix + c, label, getattr(line, c) if line else "") for c, label in COUNTER_LABELS]
            injury = line.injury if line else ""
            injured_by = line.injured_by_id if line and line.injured_by_id else ""
            sent_off = bool(line and line.sent_off)
        rows.append(
            {
                "player": p,
                "prefix": prefix,
                "counts": counts,
                "injury": injury,
                "injured_by": str(injured_by),
                "sent_off": sent_off,
            }
        )
    uses = [u for u in match.apothecary_uses.all() if u.team_id == team.pk]
    apothecary = []
    for i in range(APOTHECARY_ROWS if team.apothecary else 0):
        prefix = f"apo{team.pk}_{i}_"
        use = uses[i] if i < len(uses) else None
        if data is not None:
            apothecary.append(
                {
                    "prefix": prefix,
                    "player": data.get(prefix + "player", ""),
                    "action": data.get(prefix + "action", ""),
                    "roll": data.get(prefix + "roll", ""),
                }
            )
        else:
            apothecary.append(
                {
                    "prefix": prefix,
                    "player": str(use.player_id) if use else "",
                    "action": use.action if use else "",
                    "roll": use.roll if use and use.roll else "",
                }
            )
    return {"team": team, "rows": rows, "opponents": opponents, "apothecary": apothecary}


def _report_action(request: HttpRequest, pk: int, action) -> HttpResponse:
    match = _get_match_for_coach(request, pk)
    return act_and_redirect(request, lambda: action(match), match)


@require_POST
def match_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    def confirm(match: Match) -> str:
        if not is_board(request.user) and match.filed_by_id == request.user.pk:
            raise ReportError([_("The other coach confirms the report.")])
        confirm_report(match, by=request.user)
        return _("The report is confirmed and counts.")

    return _report_action(request, pk, confirm)


@require_POST
def match_dispute(request: HttpRequest, pk: int) -> HttpResponse:
    def dispute(match: Match) -> str:
        if match.filed_by_id == request.user.pk and not is_board(request.user):
            raise ReportError([_("The other coach disputes the report.")])
        dispute_report(match, by=request.user, comment=request.POST.get("comment", ""))
        return _("The report is disputed.")

    return _report_action(request, pk, dispute)


BOARD_REPORT_ACTIONS = {
    "reopen": (reopen_report, gettext_lazy("The report is reopened.")),
    "void": (void_match, gettext_lazy("The match is void.")),
}


@require_POST
def match_board_action(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    """The board reopens a confirmed report or voids a match."""
    match = _get_match_for_board(request, pk)
    if action not in BOARD_REPORT_ACTIONS:
        raise PermissionDenied
    service, done = BOARD_REPORT_ACTIONS[action]

    def run() -> str:
        service(match, by=request.user)
        return str(done)

    return act_and_redirect(request, run, match)


# --- the pre-match sequence --------------------------------------------------------------------


def _prematch_context(request: HttpRequest, match: Match) -> dict:
    prematch = prematch_service.get_prematch(match)
    squads = {
        team.pk: {e.player_id: e for e in SquadEntry.objects.filter(match=match, team=team)}
        for team in (match.home, match.away)
    }
    user = request.user
    board = is_board(user)
    teams = []
    for team in (match.home, match.away):
        roster = list(Player.objects.on_roster().filter(team=team).select_related("position").order_by("number"))
        teams.append(
            {
                "team": team,
                "roster": roster,
                "squad": squads[team.pk],
                "mine": board or team.coach_id == user.pk,
                "niggling": prematch_service.niggling_players(match, team) if prematch.done >= 5 else [],
                "niggling_done": f"niggling:{team.pk}" in prematch.explanations,
                "chef": team.race.head_coach == "master_chef",
                "chef_done": f"chef:{team.pk}" in prematch.explanations,
                "die": prematch_service.division_die(match, team),
            }
        )
    return {
        "match": match,
        "prematch": prematch,
        "teams": teams,
        "Step": prematch_service.Step,
        "neutral_allowed": prematch_service.neutral_allowed(match),
        "is_home_coach": board or match.home.coach_id == user.pk,
        "handicaps": HandicapDraw.objects.filter(match=match).select_related("team", "player"),
        "dice": match.dice.select_related("team", "player"),
        "explanations": prematch.explanations,
        "max_squad": prematch.ruleset.rules.settings.max_squad,
    }


@require_GET
def match_prematch(request: HttpRequest, pk: int) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    match = _get_match_for_coach(request, pk)
    return render(request, "matches/prematch.html", _prematch_context(request, match))


def _dice_field(request: HttpRequest, name: str, *, sides: int, count: int, d66: bool = False) -> list[int] | None:
    """Entered dice from the form, or None for the server to roll them."""
    text = (request.POST.get(name) or "").strip()
    if not text or request.POST.get("server") == "1":
        return None
    return parse_entered(text, sides=sides, count=count, d66=d66)


@require_POST
def match_prematch_step(request: HttpRequest, pk: int, step: str) -> HttpResponse:
    """One step of the pre-match sequence; the steps fragment comes back for htmx, else a redirect."""
    match = _get_match_for_coach(request, pk)
    user = request.user
    board = is_board(user)

    def own_team():
        team = match.home if str(match.home_id) == request.POST.get("team") else match.away
        if str(team.pk) != request.POST.get("team") or not (board or team.coach_id == user.pk):
            raise PermissionDenied
        return team

    errors: list[str] = []
    try:
        if step == "squad":
            team = own_team()
            ids = [int(x) for x in request.POST.getlist("players") if x.isdigit()]
            prematch_service.pick_squad(match, team, ids, by=user)
        elif step == "weather":
            prematch_service.roll_weather(match, entered=_dice_field(request, "weather", sides=6, count=2), by=user)
        elif step == "tickets":
            if not (board or match.home.coach_id == user.pk):
                raise PermissionDenied  # the home coach sets the ticket price
            prematch_service.set_tickets(
                match, ticket=request.POST.get("ticket", "ordinary"), neutral=bool(request.POST.get("neutral")), by=user
            )
        elif step == "gate":
            home_die = prematch_service.division_die(match, match.home)
            away_die = prematch_service.division_die(match, match.away)
            prematch_service.roll_gate(
                match,
                home_dice=_dice_field(request, "home_gate", sides=home_die, count=match.home.fan_factor),
                away_dice=_dice_field(request, "away_gate", sides=away_die, count=match.away.fan_factor),
                vandalism_die=_dice_field(request, "vandalism", sides=6, count=1),
                by=user,
            )
        elif step == "niggling":
            team = own_team()
            entered = {}
            for player in prematch_service.niggling_players(match, team):
                values = _dice_field(request, f"ni_{player.pk}", sides=6, count=player.niggling)
                if values is not None:
                    entered[player.pk] = values
            apothecary = [int(x) for x in request.POST.getlist("apothecary") if x.isdigit()]
            prematch_service.check_niggling(match, team, apothecary_for=apothecary, entered=entered, by=user)
        elif step == "handicap":
            text = (request.POST.get("handicap") or "").strip()
            entered = None
            if text and request.POST.get("server") != "1":
                entered = []
                for part in text.replace(",", " ").split():
                    tens, units = parse_entered(part, sides=6, count=2, d66=True)
                    entered.append(10 * tens + units)
            prematch_service.roll_handicap(match, entered=entered, by=user)
        elif step == "chef":
            team = own_team()
            prematch_service.buy_chef_dice(match, team, count=int(request.POST.get("count") or 0), by=user)
        elif step == "inspire":
            team = own_team()
            prematch_service.inspire(match, team, int(request.POST.get("player") or 0), by=user)
        else:
            raise PermissionDenied
    except Refusal as exc:
        errors = exc.messages
    except ValueError:
        errors = [_("Write whole numbers.")]
    if request.htmx:
        context = _prematch_context(request, match)
        context["errors"] = errors
        return render(request, "matches/prematch.html#steps", context, status=400 if errors else 200)
    for message in errors:
        messages.error(request, message)
    return redirect("match_prematch", pk=match.pk)


@require_GET
def referee_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    """The printable referee sheet (Dommerskjema) for the table."""
    match = get_object_or_404(
        Match.objects.select_related("season", "home__race", "away__race", "cup", "division"), pk=pk
    )
    prematch = PreMatch.objects.filter(match=match).first()
    squads = []
    for team in (match.home, match.away):
        entries = (
            SquadEntry.objects.filter(match=match, team=team)
            .select_related("player__position")
            .prefetch_related("player__position__skills", "player__gained_skills__skill")
        )
        squads.append({"team": team, "entries": entries})
    context = {
        "match": match,
        "prematch": prematch,
        "squads": squads,
        "handicaps": HandicapDraw.objects.filter(match=match),
    }
    return render(request, "matches/referee_sheet.html", context)


# --- the post-match sequence -------------------------------------------------------------------


def _get_team_in_match(request: HttpRequest, pk: int, team_pk: int) -> tuple[Match, Team]:
    """The team's coach or the board walk a team's post-match sequence; everyone else 403."""
    match = get_object_or_404(Match.objects.select_related("season__ruleset", "home__race", "away__race"), pk=pk)
    if team_pk not in (match.home_id, match.away_id):
        raise PermissionDenied
    team = match.home if team_pk == match.home_id else match.away
    if not request.user.is_authenticated or not (is_board(request.user) or team.coach_id == request.user.pk):
        raise PermissionDenied
    return match, team


def _postmatch_context(match: Match, team: Team, postmatch: PostMatch | None = None) -> dict:
    """What the page shows; the injuries and development rolls are read only when their step is next."""
    postmatch = postmatch or postmatch_service.get_postmatch(match, team)
    r = match.season.ruleset.rules if postmatch.ruleset_id == match.season.ruleset_id else postmatch.ruleset.rules
    rolls = []
    if postmatch.done == PostMatch.Step.MVP:
        rolls = list(
            DevelopmentRoll.objects.filter(match=match, player__team=team)
            .select_related("player__position", "dice")
            .prefetch_related("player__position__skills")
        )
    specs = postmatch_service.skill_specs() if rolls else []
    pending = postmatch_service.pending_development(match, team) if postmatch.done == PostMatch.Step.MVP else []
    injured = postmatch_service.injured_lines(match, team) if postmatch.done == PostMatch.Step.WINNINGS else []
    return {
        "match": match,
        "team": team,
        "postmatch": postmatch,
        "Step": PostMatch.Step,
        "explanations": postmatch.explanations,
        "rolls": [(roll, postmatch_service.choices_for(roll, r, skills=specs)) for roll in rolls],
        "pending": pending,
        "injured": injured,
        "dead": [line for line in injured if line.injury == "dead"],
        "healer": team.race.get_healer_display(),
        "necromancer": team.race.head_coach == "necromancer",
        "raisable": postmatch_service.opponents_dead(match, team)
        if postmatch.done == PostMatch.Step.WINNINGS and team.race.head_coach == "necromancer"
        else [],
        "opponent": match.away if team.pk == match.home_id else match.home,
    }


@require_GET
def match_postmatch(request: HttpRequest, pk: int, team_pk: int) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    match, team = _get_team_in_match(request, pk, team_pk)
    if match.status != Match.Status.CONFIRMED:
        messages.error(request, _("The post-match sequence starts once the report is confirmed."))
        return redirect(match)
    return render(request, "matches/postmatch.html", _postmatch_context(match, team))


@require_POST
def match_postmatch_step(request: HttpRequest, pk: int, team_pk: int, step: str) -> HttpResponse:
    match, team = _get_team_in_match(request, pk, team_pk)
    user = request.user

    def one(name: str, sides: int | Callable[[], int] = 6, count: int = 1, d66: bool = False) -> list[int] | None:
        """Entered dice for one field; the die's size is read only when dice were typed."""
        if not (request.POST.get(name) or "").strip():
            return None  # the server rolls: no need to know the die yet
        return _dice_field(request, name, sides=sides() if callable(sides) else sides, count=count, d66=d66)

    errors: list[str] = []
    done = None
    try:
        if step == "winnings":
            # the service checks typed dice against the division's die
            done = postmatch_service.winnings(match, team, roll=one("roll", sides=10), kiosk=one("kiosk"), by=user)
        elif step == "injuries":
            entered = {}
            for line in postmatch_service.injured_lines(match, team):
                pid = line.player_id
                for key, kwargs in (
                    (f"serious_injury:{pid}", {"d66": True, "count": 2}),
                    (f"regeneration:{pid}", {}),
                    (f"revival:{pid}", {"d66": True, "count": 2}),
                ):
                    values = one(key.replace(":", "_"), **kwargs)
                    if values is not None:
                        entered[key] = values
            for attempt in range(1, 4):
                values = one(f"healer_{attempt}")
                if values is not None:
                    entered[f"healer:{team.pk}:{attempt}"] = values
            order = sorted(
                (
                    (int(request.POST[k]), int(k.removeprefix("attempt_")))
                    for k in request.POST
                    if k.startswith("attempt_") and request.POST[k].strip().isdigit()
                ),
            )
            done = postmatch_service.injuries(
                match,
                team,
                healer_targets=[pid for _n, pid in order],
                entered=entered,
                raise_zombie=_int(request.POST, "raise_zombie") or None,
                by=user,
            )
        elif step == "stadium":
            done = postmatch_service.stadium(match, team, by=user)
        elif step == "mvp":
            done = postmatch_service.mvp(match, team, roll=one("roll", sides=16), by=user)
        elif step == "roll-development":
            entered = {}
            for player, index in postmatch_service.pending_development(match, team):
                values = one(f"dev_{player.pk}_{index}", count=2)
                if values is not None:
                    entered[f"development:{player.pk}:{index}"] = values
            postmatch_service.roll_development(match, team, by=user, entered=entered)
        elif step == "development":
            choices = {int(k.removeprefix("choice_")): v for k, v in request.POST.items() if k.startswith("choice_")}
            done = postmatch_service.develop(match, team, choices=choices, by=user)
        elif step == "fan-factor":
            done = postmatch_service.fan_factor(match, team, roll=one("roll"), by=user)
        elif step == "purchases":
            done = postmatch_service.purchases_done(match, team, by=user)
        elif step == "complete":
            done = postmatch_service.complete(match, team, by=user)
        else:
            raise PermissionDenied
    except Refusal as exc:
        errors = exc.messages
    except ValueError:
        errors = [_("Write whole numbers.")]
    if request.htmx:
        context = _postmatch_context(match, team, done if isinstance(done, PostMatch) else None)
        context["errors"] = errors
        return render(request, "matches/postmatch.html#steps", context, status=400 if errors else 200)
    for message in errors:
        messages.error(request, message)
    return redirect("match_postmatch", pk=match.pk, team_pk=team.pk)
