"""The match page's forms (move, forfeit, dispute) go the one way of a POST (league.lib.responses.post_form):
an invalid post is the match page again, 422, the error beside its field and what was typed kept; a refusal
is said above the page's actions, where it is seen even when the form is gone; nothing changes."""

import pytest
from django.urls import reverse

from league.lib.responses import INVALID
from matches.models import Match
from matches.report.confirmation import confirm_report
from matches.report.filing import file_report
from tests.match_classes import OneWalkedMatch
from tests.matches.test_report import a_report

pytestmark = pytest.mark.django_db


class TestAWalkedMatch(OneWalkedMatch):
    """The league match walked to its report, built once for the class (tests/conftest.py,
    set_up_test_data); each test changes it in a savepoint of its own."""

    def test_moving_a_played_match_is_refused_on_the_page(self, client, ready_match, board_member):
        match = ready_match
        file_report(match, a_report(match), by=match.home.coach)
        client.force_login(board_member)
        response = client.post(reverse("match_move", args=[match.pk]), {"round": "7", "date": ""})
        assert response.status_code == 422
        assert "Only a match not yet played can be moved." in response.content.decode()
        assert Match.objects.get(pk=match.pk).round == match.round

    def test_a_dispute_of_a_confirmed_report_is_refused_above_the_actions(self, client, ready_match, board_member):
        match = ready_match
        file_report(match, a_report(match), by=match.home.coach)
        client.force_login(match.away.coach)
        html = client.get(reverse("match", args=[match.pk])).content.decode()
        assert f'action="{reverse("match_dispute", args=[match.pk])}"' in html
        confirm_report(match, by=board_member)  # meanwhile: the page the coach has open is stale
        response = client.post(reverse("match_dispute", args=[match.pk]), {"comment": "It was 2-2."})
        assert response.status_code == 422
        html = response.content.decode()
        assert '<ul class="errorlist errors" role="alert">' in html
        assert (
            f'action="{reverse("match_dispute", args=[match.pk])}"' not in html
        )  # the form is gone, the refusal is said
        assert Match.objects.get(pk=match.pk).status == Match.Status.CONFIRMED


@pytest.mark.parametrize(("typed", "message"), [("0", "greater than or equal to 1"), ("x", "Enter a whole number")])
def test_a_bad_round_is_shown_beside_the_field(client, league_match, board_member, typed, message):
    match = league_match
    client.force_login(board_member)
    response = client.post(reverse("match_move", args=[match.pk]), {"round": typed, "date": ""})
    assert response.status_code == INVALID == 422
    html = response.content.decode()
    assert message in html and f'value="{typed}"' in html
    assert Match.objects.get(pk=match.pk).round == match.round


def test_the_language_switch_of_a_page_shown_again_goes_back_to_the_page(client, league_match, board_member):
    """The move form's address answers only POST; the 422 page's language switch returns to the match page
    the form was sent from, not to a 405."""
    match = league_match
    page = f"http://testserver{reverse('match', args=[match.pk])}"
    client.force_login(board_member)
    response = client.post(reverse("match_move", args=[match.pk]), {"round": "0", "date": ""}, HTTP_REFERER=page)
    assert response.status_code == 422
    assert f'name="next" type="hidden" value="{page}"' in response.content.decode()
    switched = client.post(reverse("set_language"), {"language": "en", "next": page}, follow=True)
    assert switched.status_code == 200 and switched.redirect_chain[-1][0] == page
