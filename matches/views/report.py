"""The coaches' match report: the report form, confirming and disputing it."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from league.lib.responses import act_and_redirect, post_form, success
from league.rules.records import REPORTED_COUNTERS
from matches.forms.report import ApothecaryForm, DisputeForm, LineForm, ScoreForm
from matches.live.reads import report_prefill
from matches.models import Match, SquadEntry
from matches.report.confirmation import confirm_report, dispute_report, settle_report, settles
from matches.report.filing import ApothecaryInput, LineInput, ReportInput, file_report
from matches.views.base import HtmxHttpRequest, _get_match_for_coach, match_page
from teams.models import Player

# --- the report ---------------------------------------------------------------------------------

APOTHECARY_ROWS = 3


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


class ReportForms:
    """The report's forms as one for `post_form`: the score, and each team's player lines and apothecary
    rows, filled from `data` or the filed report. Valid when every form is (each validated, so every
    error is shown); a refusal of the report goes on the score form, said at the top of the page."""

    def __init__(self, match: Match, players: dict[int, list[Player]], data=None) -> None:
        self.match = match
        lines = {line.player_id: line for line in match.lines.all()}
        # Not filed yet: the live log, if one was kept and ended, fills the form.
        logged = report_prefill(match) if match.status == Match.Status.SCHEDULED and not lines else None
        self.score = ScoreForm(
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
        self.score.from_log = logged is not None
        self.sides = []
        for team in (match.home, match.away):
            opponents = players[match.away_id if team.pk == match.home_id else match.home_id]
            line_forms = []
            for p in players[team.pk]:
                line = lines.get(p.pk)
                initial = (
                    {
                        **{c: getattr(line, c) for c in REPORTED_COUNTERS},
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
            self.sides.append({"team": team, "lines": line_forms, "apothecary": apothecary})

    def is_valid(self) -> bool:
        forms_ = [self.score] + [f for side in self.sides for f in (*side["lines"], *side["apothecary"])]
        return all([f.is_valid() for f in forms_]) and self._apothecary_priced()  # every form validated

    def _apothecary_priced(self) -> bool:
        rules = self.match.season.ruleset.rules
        for f in (f for side in self.sides for f in side["apothecary"]):
            if f.cleaned_data["player"] is not None:
                try:
                    rules.apothecary_cost(f.cleaned_data["action"])
                except ValueError:
                    f.add_error("action", _("Choose what the apothecary did."))
                    return False
        return True

    def add_error(self, field: str | None, error) -> None:
        self.score.add_error(field, error)

    def report(self) -> ReportInput:
        """The report the valid forms describe, for `file_report`."""
        d = self.score.cleaned_data
        report = ReportInput(
            home_score=d["home_score"],
            away_score=d["away_score"],
            tiebreak_winner_id=d.get("tiebreak_winner"),
            comment=d["comment"].strip(),
        )
        rules = self.match.season.ruleset.rules
        for side in self.sides:
            for f in side["lines"]:
                c = f.cleaned_data
                report.lines.append(
                    LineInput(
                        player_id=f.player.pk,
                        **{name: c[name] or 0 for name in REPORTED_COUNTERS},
                        injury=c["injury"],
                        injured_by_id=c["injured_by"],
                        sent_off=c["sent_off"],
                    )
                )
            for f in side["apothecary"]:
                c = f.cleaned_data
                if c["player"] is not None:
                    ap = rules.apothecary_cost(c["action"])
                    report.apothecary.append(
                        ApothecaryInput(player_id=c["player"], action=c["action"], ap=ap, roll=c["roll"])
                    )
        return report


@require_http_methods(["GET", "POST"])
def match_report(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """File the report after the match: the score and every player's deeds and injuries."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    match = _get_match_for_coach(request, pk)
    forms_ = ReportForms(match, _report_players(match), request.POST if request.method == "POST" else None)

    def page() -> HttpResponse:
        context = {
            "match": match,
            "score": forms_.score,
            "sides": forms_.sides,
            "invalid": request.method == "POST",
            "counters": [LineForm.base_fields[c].label for c in REPORTED_COUNTERS],
            "healing": match.season.ruleset.rules.settings,  # the apothecary's AP and target (R26)
        }
        return render(request, "matches/report_form.html", context)

    if request.method == "GET":
        return page()
    if settles(match, request.user):  # the board's correction of a disputed or reopened report (R45, R47)
        write, done = settle_report, _("The board's report is filed and counts; both coaches are told.")
    else:
        write, done = file_report, _("The report is filed: the other coach confirms it.")
    return post_form(
        request,
        forms_,
        lambda: write(match, forms_.report(), by=request.user),
        again=page,
        done=lambda _filed: success(request, done, match),
    )


@require_POST
def match_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    match = _get_match_for_coach(request, pk)

    def confirm() -> str:
        confirm_report(match, by=request.user)  # the service refuses the coach who filed it
        return _("The report is confirmed and counts.")

    return act_and_redirect(request, confirm, match)


@require_POST
def match_dispute(request: HttpRequest, pk: int) -> HttpResponse:
    match = _get_match_for_coach(request, pk)
    form = DisputeForm(request.POST)

    def dispute() -> str:
        dispute_report(match, by=request.user, comment=form.cleaned_data["comment"])
        return _("The report is disputed.")

    return post_form(
        request,
        form,
        dispute,
        again=lambda: match_page(request, match, dispute_form=form),
        done=lambda message: success(request, message, match),
    )
