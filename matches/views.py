from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.middleware import HtmxDetails

from league import services as league_services
from league.accounts import is_board
from league.forms import ForfeitForm, MoveFixtureForm, ResultForm
from league.models import Season
from league.refusals import Refusal
from league.responses import act_and_redirect, flash_refusal, refusal_on_form
from league.selectors import current_season, season_board
from matches import live, results
from matches import postmatch as postmatch_service
from matches import prematch as prematch_service
from matches.forms import (
    ApothecaryForm,
    ChefForm,
    DevelopmentForm,
    DisputeForm,
    EmptyStepForm,
    FanFactorForm,
    GateForm,
    HandicapForm,
    InjuriesForm,
    InjuryDiceForm,
    InspiredDevelopmentForm,
    InspireForm,
    LineForm,
    MvpForm,
    NigglingForm,
    RollDevelopmentForm,
    ScoreForm,
    SquadForm,
    StepForm,
    TicketsForm,
    WeatherForm,
    WinningsForm,
)
from matches.models import DevelopmentRoll, HandicapDraw, Match, PostMatch, PreMatch, SquadEntry
from matches.prematch import Step
from matches.report import (
    COUNTERS,
    ApothecaryInput,
    LineInput,
    ReportError,
    ReportInput,
    confirm_report,
    dispute_report,
    file_report,
    reopen_report,
    report_history,
    void_match,
)
from matches.selectors import filter_rounds
from teams.models import Player, Race, Team


class HtmxHttpRequest(HttpRequest):
    """A request through django-htmx's middleware (django-htmx's example types it so)."""

    htmx: HtmxDetails


@require_GET
def match_list(request: HttpRequest) -> HttpResponse:
    """Fixtures and results by round."""
    pk = request.GET.get("season", "")
    season = (
        get_object_or_404(Season.objects.select_related("ruleset", "cup"), pk=int(pk))
        if pk.isascii() and pk.isdecimal() and len(pk) < 10  # "²" is a digit to Python, not a number
        else current_season()
    )
    board = season_board(season, latest=0, upcoming=0, rounds=True)
    team, division = (int(v) if v.isdigit() else None for v in (request.GET.get(k, "") for k in ("team", "division")))
    board.rounds = filter_rounds(board.rounds, team=team, division=division)
    filters = {"team": team, "division": division}
    return render(request, "matches/match_list.html", {"board": board, "seasons": Season.objects.all(), **filters})


@require_GET
def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(
        Match.objects.select_related("season", "division", "cup", "home__race", "away__race", "tiebreak_winner"),
        pk=pk,
    )
    return render(request, "matches/match_detail.html", _match_detail_context(request, match))


def _match_detail_context(request: HttpRequest, match: Match, dispute_form: DisputeForm | None = None) -> dict:
    board = is_board(request.user)
    return {
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
        "forfeit_form": ForfeitForm(match=match)
        if board and match.status == Match.Status.SCHEDULED and match.home_id and match.away_id
        else None,
        "move_form": MoveFixtureForm(initial={"round": match.round, "date": match.date})
        if board and match.status == Match.Status.SCHEDULED
        else None,
        "dispute_form": dispute_form or DisputeForm(),
        "history": match.history.select_related("history_user").order_by("-history_date")[:20],
        "report_history": report_history(match),
        "live_shown": live.shown(match),
    }


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
            results.record_result(
                match,
                home_score=d["home_score"],
                away_score=d["away_score"],
                home_casualties=d["home_casualties"],
                away_casualties=d["away_casualties"],
                tiebreak_winner_id=form.tiebreak_winner_id(),
                by=request.user,
            )
        except results.MatchError as exc:
            flash_refusal(request, exc)
        else:
            messages.success(request, _("Result recorded."))
    else:
        for errors in form.errors.values():
            for e in errors:
                messages.error(request, e)
    return redirect(match)


@require_POST
def match_forfeit(request: HttpRequest, pk: int) -> HttpResponse:
    """The board records a forfeit (R35)."""
    match = _get_match_for_board(request, pk)
    form = ForfeitForm(request.POST, match=match)
    if not form.is_valid():
        for errors in form.errors.values():
            for e in errors:
                messages.error(request, e)
        return redirect(match)
    team = match.home if form.cleaned_data["team"] == match.home_id else match.away

    def forfeit() -> str:
        results.record_forfeit(match, team, by=request.user)
        return _("%(team)s forfeits: the opponent is awarded the win (R35).") % {"team": team.name}

    return act_and_redirect(request, forfeit, match)


@require_POST
def match_move(request: HttpRequest, pk: int) -> HttpResponse:
    match = _get_match_for_board(request, pk)
    form = MoveFixtureForm(request.POST)
    if form.is_valid():
        if match.cup_id:  # a cup round is its place in the bracket (R34): only the date moves
            form.cleaned_data["round"] = match.round
        try:
            league_services.move_fixture(match, **form.cleaned_data)
        except league_services.SeasonError as exc:
            flash_refusal(request, exc)
        else:
            messages.success(request, _("Fixture moved."))
    return redirect(match)


# --- the report ---------------------------------------------------------------------------------

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


def _report_forms(match: Match, players: dict[int, list[Player]], data=None) -> tuple[ScoreForm, list[dict]]:
    """The score form and each team's player lines and apothecary rows, filled from `data` or the filed report."""
    lines = {line.player_id: line for line in match.lines.all()}
    # Not filed yet: the live log, if one was kept and ended, fills the form (issue 17).
    logged = live.report_prefill(match) if match.status == Match.Status.SCHEDULED and not lines else None
    score = ScoreForm(
        data,
        match=match,
        initial={
            "home_score": match.home_score,
            "away_score": match.away_score,
            "tiebreak_winner": match.tiebreak_winner_id,
            "comment": match.comment,
        }
        if logged is None
        else {"home_score": logged["home_score"], "away_score": logged["away_score"]},
    )
    score.from_log = logged is not None
    sides = []
    for team in (match.home, match.away):
        opponents = players[match.away_id if team.pk == match.home_id else match.home_id]
        line_forms = []
        for p in players[team.pk]:
            line = lines.get(p.pk)
            initial = (
                {
                    **{c: getattr(line, c) for c in COUNTERS},
                    "injury": line.injury,
                    "injured_by": line.injured_by_id,
                    "sent_off": line.sent_off,
                }
                if line
                else (logged["lines"].get(p.pk, {}) if logged else {})
            )
            line_forms.append(LineForm(data, player=p, opponents=opponents, initial=initial))
        uses = [u for u in match.apothecary_uses.all() if u.team_id == team.pk]
        apothecary = [
            ApothecaryForm(
                data,
                team=team,
                index=i,
                players=players[team.pk],
                initial={"player": uses[i].player_id, "action": uses[i].action, "roll": uses[i].roll}
                if i < len(uses)
                else {},
            )
            for i in range(APOTHECARY_ROWS if team.apothecary else 0)
        ]
        sides.append({"team": team, "lines": line_forms, "apothecary": apothecary})
    return score, sides


def _report_input(match: Match, score: ScoreForm, sides: list[dict]) -> ReportInput | None:
    """The report the forms describe, or None when a field is wrong (its form then says why)."""
    forms_ = [score] + [f for side in sides for f in (*side["lines"], *side["apothecary"])]
    if not all([f.is_valid() for f in forms_]):  # every form validated, so every error is shown
        return None
    d = score.cleaned_data
    report = ReportInput(
        home_score=d["home_score"],
        away_score=d["away_score"],
        tiebreak_winner_id=d.get("tiebreak_winner"),
        comment=d["comment"].strip(),
    )
    rules = match.season.ruleset.rules
    for side in sides:
        for f in side["lines"]:
            c = f.cleaned_data
            report.lines.append(
                LineInput(
                    player_id=f.player.pk,
                    **{name: c[name] or 0 for name in COUNTERS},
                    injury=c["injury"],
                    injured_by_id=c["injured_by"],
                    sent_off=c["sent_off"],
                )
            )
        for f in side["apothecary"]:
            c = f.cleaned_data
            if c["player"] is None:
                continue
            try:
                ap = rules.apothecary_cost(c["action"])
            except ValueError:
                f.add_error("action", _("Choose what the apothecary did."))
                return None
            report.apothecary.append(ApothecaryInput(player_id=c["player"], action=c["action"], ap=ap, roll=c["roll"]))
    return report


@require_http_methods(["GET", "POST"])
def match_report(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """File the report after the match: the score and every player's deeds and injuries."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    match = _get_match_for_coach(request, pk)
    players = _report_players(match)
    score, sides = _report_forms(match, players, request.POST if request.method == "POST" else None)
    if request.method == "POST":
        report = _report_input(match, score, sides)
        if report is not None:
            try:
                file_report(match, report, by=request.user, as_board=is_board(request.user))
            except ReportError as exc:
                refusal_on_form(score, exc)
            else:
                messages.success(request, _("The report is filed: the other coach confirms it."))
                return redirect(match)
    invalid = request.method == "POST"
    context = {
        "match": match,
        "score": score,
        "sides": sides,
        "invalid": invalid,
        "counters": [LineForm.base_fields[c].label for c in COUNTERS],
        "healing": match.season.ruleset.rules.settings,  # the apothecary's AP and target (R26)
    }
    return render(request, "matches/report_form.html", context, status=422 if invalid else 200)


def _report_action(request: HttpRequest, pk: int, action) -> HttpResponse:
    match = _get_match_for_coach(request, pk)
    return act_and_redirect(request, lambda: action(match), match)


@require_POST
def match_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    def confirm(match: Match) -> str:
        confirm_report(match, by=request.user)  # the service refuses the coach who filed it
        return _("The report is confirmed and counts.")

    return _report_action(request, pk, confirm)


@require_POST
def match_dispute(request: HttpRequest, pk: int) -> HttpResponse:
    match = _get_match_for_coach(request, pk)
    form = DisputeForm(request.POST)
    if form.is_valid():

        def dispute() -> str:
            dispute_report(match, by=request.user, comment=form.cleaned_data["comment"])
            return _("The report is disputed.")

        # a refusal is about the report, not the words typed: it is said on the match page
        return act_and_redirect(request, dispute, match)
    return render(request, "matches/match_detail.html", _match_detail_context(request, match, form), status=422)


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


def _prematch_context(request: HtmxHttpRequest, match: Match, invalid: StepForm | None = None) -> dict:
    """The page, with a form for each step a person may take now; `invalid` in place of its fresh one."""
    prematch = prematch_service.get_prematch(match)
    squads = {
        team.pk: {e.player_id: e for e in SquadEntry.objects.filter(match=match, team=team).select_related("player")}
        for team in (match.home, match.away)
    }
    user = request.user
    board = is_board(user)
    done = prematch.done

    def form(cls: type[StepForm], team: Team | None = None, **kwargs) -> StepForm:
        if invalid is not None and type(invalid) is cls and invalid.team == team:
            return invalid
        return cls(match=match, team=team, **kwargs)

    # R23: the Inspiration MVP's development rolls wait for the coach's choice before the match
    inspired = {
        team.pk: [
            (roll, postmatch_service.choices_for(roll, prematch.ruleset.rules))
            for roll in prematch_service.inspired_rolls(match, team)
        ]
        if done >= Step.HANDICAP
        else []
        for team in (match.home, match.away)
    }

    def inspired_form(team: Team) -> InspiredDevelopmentForm:
        if isinstance(invalid, InspiredDevelopmentForm) and invalid.team == team:
            return invalid.with_choices(inspired[team.pk])
        return InspiredDevelopmentForm(match=match, team=team, rolls=inspired[team.pk])

    teams = []
    for team in (match.home, match.away):
        roster = list(Player.objects.on_roster().filter(team=team).select_related("position").order_by("number"))
        mine = board or team.coach_id == user.pk
        squad = squads[team.pk]
        default = [p.pk for p in roster if not p.miss_matches][: prematch.ruleset.rules.settings.max_squad]
        teams.append(
            {
                "team": team,
                "roster": roster,
                "squad": squad,
                "mine": mine,
                "squad_form": form(SquadForm, team, roster=roster, initial={"players": list(squad) or default})
                if mine and done < Step.WEATHER
                else None,
                "niggling_form": form(NigglingForm, team)
                if mine
                and done == Step.FAN_FACTOR_MODIFIER
                and not prematch_service.niggling_checked(match, prematch, team)
                else None,
                "niggling_done": prematch_service.niggling_checked(match, prematch, team),
                "chef": team.race.head_coach == Race.HeadCoach.MASTER_CHEF,
                "chef_done": prematch_service.chef_bought(match, prematch, team),
                "chef_form": form(ChefForm, team) if mine and done == Step.HANDICAP else None,
                "inspired_lines": prematch.explanations.get(f"inspiration:{team.pk}", []),
                "inspired_form": inspired_form(team) if mine and inspired[team.pk] else None,
                "inspired_waiting": bool(inspired.get(team.pk)),
            }
        )
    inspire_forms = {}
    handicaps = list(HandicapDraw.objects.filter(match=match).select_related("team", "player"))
    for h in handicaps:
        t = next(t for t in teams if t["team"].pk == h.team_id)
        if h.key == "inspiration" and not h.player_id and t["mine"]:
            inspire_forms[h.pk] = form(InspireForm, t["team"])
    return {
        "match": match,
        "prematch": prematch,
        "teams": teams,
        "Step": Step,
        "is_home_coach": board or match.home.coach_id == user.pk,
        "weather_form": form(WeatherForm) if done == Step.SQUADS else None,
        "tickets_form": form(TicketsForm) if done == Step.WEATHER else None,
        "gate_form": form(GateForm) if done == Step.TICKETS else None,
        "handicap_form": form(HandicapForm) if done == Step.NIGGLING else None,
        "handicaps": [(h, inspire_forms.get(h.pk)) for h in handicaps],
        "errors": invalid.non_field_errors() if invalid is not None else [],
        "explanations": prematch.explanations,
        "max_squad": prematch.ruleset.rules.settings.max_squad,
    }


@require_GET
def match_prematch(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    match = _get_match_for_coach(request, pk)
    return render(request, "matches/prematch.html", _prematch_context(request, match))


@dataclass(frozen=True)
class StepAction:
    """A step: its form, the service it calls with the valid form, and who may take it: "any" coach of
    the match, the "home" coach, or the coach of the posted "team"; the board always."""

    form: type[StepForm]
    run: Callable[[Any, Any], Any]
    who: str = "any"


PREMATCH_STEPS = {
    "squad": StepAction(
        SquadForm, lambda f, by: prematch_service.pick_squad(f.match, f.team, f.cleaned_data["players"], by=by), "team"
    ),
    "weather": StepAction(
        WeatherForm, lambda f, by: prematch_service.roll_weather(f.match, entered=f.cleaned_data["weather"], by=by)
    ),
    "tickets": StepAction(
        TicketsForm,
        lambda f, by: prematch_service.set_tickets(
            f.match, ticket=f.cleaned_data["ticket"], neutral=f.cleaned_data.get("neutral", False), by=by
        ),
        "home",
    ),
    "gate": StepAction(
        GateForm,
        lambda f, by: prematch_service.roll_gate(
            f.match,
            home_dice=f.cleaned_data.get("home_gate"),
            away_dice=f.cleaned_data.get("away_gate"),
            vandalism_die=f.cleaned_data["vandalism"],
            by=by,
        ),
    ),
    "niggling": StepAction(
        NigglingForm,
        lambda f, by: prematch_service.check_niggling(
            f.match, f.team, apothecary_for=f.cleaned_data.get("apothecary", []), entered=f.entered(), by=by
        ),
        "team",
    ),
    "handicap": StepAction(
        HandicapForm,
        lambda f, by: prematch_service.roll_handicap(
            f.match,
            entered=None
            if f.cleaned_data["handicap"] is None
            else [10 * tens + units for tens, units in f.cleaned_data["handicap"]],
            by=by,
        ),
    ),
    "chef": StepAction(
        ChefForm,
        lambda f, by: prematch_service.buy_chef_dice(f.match, f.team, count=f.cleaned_data["count"] or 0, by=by),
        "team",
    ),
    "inspire": StepAction(
        InspireForm,
        lambda f, by: prematch_service.inspire(f.match, f.team, f.cleaned_data["player"], entered=f.entered(), by=by),
        "team",
    ),
    "inspired-development": StepAction(
        InspiredDevelopmentForm,
        lambda f, by: prematch_service.choose_inspired_development(
            f.match, f.team, choices=f.choices(), entered=f.entered(), by=by
        ),
        "team",
    ),
}


def _acting_team(request: HtmxHttpRequest, match: Match, who: str) -> Team | None:
    """The team a step is taken for, or 403 for a person who may not take it."""
    board = is_board(request.user)
    if who == "home" and not (board or match.home.coach_id == request.user.pk):
        raise PermissionDenied  # the home coach sets the ticket price
    if who != "team":
        return None
    posted = request.POST.get("team", "")
    team = next((t for t in (match.home, match.away) if str(t.pk) == posted), None)
    if team is None or not (board or team.coach_id == request.user.pk):
        raise PermissionDenied
    return team


def run_step(
    request: HtmxHttpRequest,
    action: StepAction,
    form: StepForm,
    *,
    fragment: Callable[[StepForm | None, Any], dict],
    page: str,
    done: HttpResponse,
) -> HttpResponse:
    """form → service → response. Valid: the next step's fragment (htmx) or the redirect `done`.
    Invalid or refused: the same step again with the errors beside the fields and what was typed kept;
    status 200 for htmx (htmx 2 swaps only 2xx), 422 with the whole page for a plain post."""
    if form.is_valid():
        try:
            result = action.run(form, request.user)
        except Refusal as exc:
            refusal_on_form(form, exc)
        else:
            if request.htmx:
                return render(request, f"{page}#steps", fragment(None, result))
            return done
    if request.htmx:
        return render(request, f"{page}#steps", fragment(form, None))
    return render(request, page, fragment(form, None), status=422)


@require_POST
def match_prematch_step(request: HtmxHttpRequest, pk: int, step: str) -> HttpResponse:
    """One step of the pre-match sequence, by the table PREMATCH_STEPS."""
    match = _get_match_for_coach(request, pk)
    action = PREMATCH_STEPS.get(step)
    if action is None:
        raise PermissionDenied
    team = _acting_team(request, match, action.who)
    return run_step(
        request,
        action,
        action.form(request.POST, match=match, team=team),
        fragment=lambda invalid, _result: _prematch_context(request, match, invalid),
        page="matches/prematch.html",
        done=redirect("match_prematch", pk=match.pk),
    )


SHEET_SKILLS = ("position__skills", "gained_skills__skill")


@require_GET
def referee_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    """The printable referee sheet (Dommerskjema) for the table."""
    match = get_object_or_404(
        Match.objects.select_related("season__ruleset", "home__race", "away__race", "cup", "division"), pk=pk
    )
    prematch = PreMatch.objects.filter(match=match).first()
    squads = []
    for team in (match.home, match.away):
        entries = (
            SquadEntry.objects.filter(match=match, team=team)
            .select_related("player__position")
            .prefetch_related(*(f"player__{name}" for name in SHEET_SKILLS))
        )
        if not entries:  # no pre-match online: the whole roster, its boxes filled in by hand at the table
            roster = Player.objects.on_roster().filter(team=team).select_related("position").order_by("number")
            entries = [SquadEntry(match=match, team=team, player=p) for p in roster.prefetch_related(*SHEET_SKILLS)]
        home = team.pk == match.home_id
        squads.append(
            {
                "team": team,
                "entries": entries,
                "rerolls": match.season.ruleset.rules.match_rerolls(team.rerolls, home=home),
            }
        )
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


def _postmatch_context(
    match: Match, team: Team, postmatch: PostMatch | None = None, invalid: StepForm | None = None
) -> dict:
    """What the page shows, with the form of the next step only; `invalid` in place of its fresh one."""
    postmatch = postmatch or postmatch_service.get_postmatch(match, team)
    r = match.season.ruleset.rules if postmatch.ruleset_id == match.season.ruleset_id else postmatch.ruleset.rules
    done = postmatch.done
    rolls = []
    if done == PostMatch.Step.MVP:
        rolls = list(
            DevelopmentRoll.objects.filter(match=match, player__team=team)
            .select_related("player__position", "dice")
            .prefetch_related("player__position__skills")
        )
    specs = postmatch_service.skill_specs() if rolls else []
    rolls_with_choices = [(roll, postmatch_service.choices_for(roll, r, skills=specs)) for roll in rolls]

    def form(cls: type[StepForm], **kwargs) -> StepForm:
        if isinstance(invalid, DevelopmentForm) and cls is DevelopmentForm:
            return invalid.with_choices(rolls_with_choices)
        if invalid is not None and type(invalid) is cls:
            return invalid
        return cls(match=match, team=team, **kwargs)

    step_form, facts = None, None
    if done == 0:
        step_form = form(WinningsForm)
    elif done == PostMatch.Step.WINNINGS:
        facts = postmatch_service.injury_facts(match, team)
        pending = postmatch_service.pending_injury_dice(match, team, facts)
        step_form = form(InjuryDiceForm, facts=facts) if pending else form(InjuriesForm, facts=facts)
    elif done in (PostMatch.Step.INJURIES, PostMatch.Step.FAN_FACTOR, PostMatch.Step.PURCHASES):
        step_form = form(EmptyStepForm)
    elif done == PostMatch.Step.STADIUM:
        step_form = form(MvpForm)
    elif done == PostMatch.Step.MVP:
        step_form = form(DevelopmentForm, rolls=rolls_with_choices) if rolls else form(RollDevelopmentForm)
    elif done == PostMatch.Step.DEVELOPMENT:
        step_form = form(FanFactorForm)
    return {
        "match": match,
        "team": team,
        "postmatch": postmatch,
        "Step": PostMatch.Step,
        "explanations": postmatch.explanations,
        "form": step_form,
        "errors": invalid.non_field_errors() if invalid is not None else [],
        "injury_dice": postmatch_service.injury_dice_shown(match, team, facts) if facts else [],
        "opponent": match.away if team.pk == match.home_id else match.home,
        "healing": r.settings,  # the Bandage Crew's and the Apprentice's prices and targets (R9, R25)
    }


@require_GET
def match_postmatch(request: HtmxHttpRequest, pk: int, team_pk: int) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    match, team = _get_team_in_match(request, pk, team_pk)
    if match.status != Match.Status.CONFIRMED:
        messages.error(request, _("The post-match sequence starts once the report is confirmed."))
        return redirect(match)
    return render(request, "matches/postmatch.html", _postmatch_context(match, team))


def _post(service: Callable[..., Any], **fields: Callable[[Any], Any]) -> Callable[[Any, Any], Any]:
    """A post-match service called with the form's match and team and the named values of the form."""
    return lambda f, by: service(f.match, f.team, by=by, **{k: get(f) for k, get in fields.items()})


POSTMATCH_STEPS = {
    "winnings": StepAction(
        WinningsForm,
        _post(
            postmatch_service.winnings,
            roll=lambda f: f.cleaned_data["roll"],
            kiosk=lambda f: f.cleaned_data.get("kiosk"),
        ),
    ),
    "injury-dice": StepAction(InjuryDiceForm, _post(postmatch_service.roll_injury_dice, entered=lambda f: f.entered())),
    "injuries": StepAction(
        InjuriesForm,
        _post(
            postmatch_service.injuries,
            healer_targets=lambda f: f.cleaned_data["healer_targets"],
            entered=lambda f: f.entered(),
            raise_zombie=lambda f: f.cleaned_data.get("raise_zombie"),
        ),
    ),
    "stadium": StepAction(EmptyStepForm, _post(postmatch_service.stadium)),
    "mvp": StepAction(MvpForm, _post(postmatch_service.mvp, roll=lambda f: f.cleaned_data.get("roll"))),
    "roll-development": StepAction(
        RollDevelopmentForm, _post(postmatch_service.roll_development, entered=lambda f: f.entered())
    ),
    "development": StepAction(
        DevelopmentForm, _post(postmatch_service.develop, choices=lambda f: f.choices(), entered=lambda f: f.entered())
    ),
    "fan-factor": StepAction(FanFactorForm, _post(postmatch_service.fan_factor, roll=lambda f: f.cleaned_data["roll"])),
    "purchases": StepAction(EmptyStepForm, _post(postmatch_service.purchases_done)),
    "complete": StepAction(EmptyStepForm, _post(postmatch_service.complete)),
}


@require_POST
def match_postmatch_step(request: HtmxHttpRequest, pk: int, team_pk: int, step: str) -> HttpResponse:
    """One step of a team's post-match sequence, by the table POSTMATCH_STEPS."""
    match, team = _get_team_in_match(request, pk, team_pk)
    action = POSTMATCH_STEPS.get(step)
    if action is None:
        raise PermissionDenied
    return run_step(
        request,
        action,
        action.form(request.POST, match=match, team=team),
        fragment=lambda invalid, result: _postmatch_context(
            match, team, result if isinstance(result, PostMatch) else None, invalid
        ),
        page="matches/postmatch.html",
        done=redirect("match_postmatch", pk=match.pk, team_pk=team.pk),
    )
