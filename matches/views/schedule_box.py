"""The box of a fixture's date, on the match page and under Mitt lag's next match: the open
proposals, the buttons to accept the other coach's, the form to propose dates, and the board's own date.
Its own module so the match page, the coach's page and the scheduling views share it without a cycle."""

from __future__ import annotations

from django import forms
from django.http import HttpRequest

from league.accounts import is_board
from matches import scheduling
from matches.forms.scheduling import BoardDateForm, ProposeDatesForm
from matches.models import Match


def schedule_box(
    request: HttpRequest,
    match: Match,
    *,
    back: str = "",
    propose_form: forms.Form | None = None,
    board_form: forms.Form | None = None,
    notice: str = "",
    errors: list[str] | None = None,
) -> dict:
    """What the box shows to this user; `shown` is False for anyone but the two coaches and the board."""
    team = scheduling.coached_team(match, request.user)
    board = is_board(request.user)
    if team is None and not board:
        return {"shown": False, "match": match}
    open_ = scheduling.can_schedule(match)
    proposals = scheduling.open_proposals(match) if open_ else []
    # one coach of both teams (a bye has one team: no one to agree with)
    both = (
        team is not None
        and match.home is not None
        and match.away is not None
        and match.home.coach_id == match.away.coach_id
    )
    return {
        "shown": open_ or bool(notice or errors),
        "match": match,
        "team": team,
        "is_board": board,
        "open": open_,
        "proposals": proposals,
        "answerable": [p for p in proposals if team is not None and (both or p.team_id != team.pk)],
        "mine": [p for p in proposals if team is not None and p.team_id == team.pk and not both],
        "propose_form": (propose_form or ProposeDatesForm(auto_id=f"propose-{match.pk}-%s")) if team else None,
        "board_form": (
            board_form
            or BoardDateForm(initial={"date": match.date, "time": match.start_time}, auto_id=f"fixture-{match.pk}-%s")
        )
        if board
        else None,
        "deadline": scheduling.deadline_for(match),
        "back": back,
        "notice": notice,
        "errors": errors or [],
    }
