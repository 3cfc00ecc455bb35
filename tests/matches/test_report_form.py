"""The report's forms and the confirm rule in the services (issue 10): every number bounded, text without
NUL bytes, "sent off" read as written, errors beside the fields with what was typed kept, and only the
other coach (or the board) confirms or disputes, as the services themselves say."""

import re

import pytest
from django.urls import reverse

from matches.models import ApothecaryUse, Match, PlayerMatch
from matches.report.filing import file_report
from tests import factories
from tests.matches.test_report import a_report, form_data, players

pytestmark = pytest.mark.django_db


# --- bounds and errors beside the fields ---------------------------------------------------------------


def post_report(client, match, **extra):
    client.force_login(match.home.coach)
    return client.post(reverse("match_report", args=[match.pk]), form_data(match, **extra))


class TestAReadyMatch:
    """factories.ready_match(), built once for the class (set_up_test_data in tests/conftest.py)."""

    @classmethod
    def setUpTestData(cls):
        cls.ready_match = factories.ready_match()

    def test_the_view_shows_the_services_refusal(self, client):
        file_report(self.ready_match, a_report(self.ready_match), by=self.ready_match.home.coach)
        client.force_login(self.ready_match.home.coach)
        response = client.post(reverse("match_confirm", args=[self.ready_match.pk]), follow=True)
        assert "The other coach confirms the report." in response.content.decode()
        assert Match.objects.get(pk=self.ready_match.pk).status == "reported"

    @pytest.mark.parametrize("score", ["32768", "32767", "31", "-1", "99999999999999999999", "2.5", "x", "²"])
    def test_a_score_outside_0_to_30_is_refused_beside_the_field(self, client, score):
        response = post_report(client, self.ready_match, home_score=score)
        html = response.content.decode()
        assert response.status_code == 422
        assert 'aria-describedby="home_score_error"' in html and 'id="home_score_error"' in html
        assert f'value="{score}"' in html  # what was typed is kept
        assert Match.objects.get(pk=self.ready_match.pk).status == "scheduled"

    def test_a_counter_of_32768_is_refused_beside_its_field(self, client):
        home, _away = players(self.ready_match)
        response = post_report(client, self.ready_match, **{f"p{home[0].pk}_completions": "32768"})
        html = response.content.decode()
        assert response.status_code == 422
        assert f'id="id_p{home[0].pk}_completions_error"' in html
        assert "less than or equal to 30" in html
        assert not PlayerMatch.objects.filter(match=self.ready_match).exists()

    def test_thirty_is_the_most_a_counter_takes(self, client):
        home, _away = players(self.ready_match)
        response = post_report(client, self.ready_match, home_score="30", **{f"p{home[2].pk}_completions": "30"})
        assert response.status_code == 302
        assert PlayerMatch.objects.get(match=self.ready_match, player=home[2]).completions == 30

    @pytest.mark.parametrize("field", ["comment"])
    def test_a_nul_byte_in_the_comment_is_refused(self, client, field):
        response = post_report(client, self.ready_match, **{field: "ok\x00"})
        assert response.status_code == 422
        assert "Null characters are not allowed" in response.content.decode()
        assert Match.objects.get(pk=self.ready_match.pk).status == "scheduled"

    def test_an_over_long_comment_is_refused(self, client):
        response = post_report(client, self.ready_match, comment="x" * 2001)
        assert response.status_code == 422
        assert "at most 2000 characters" in response.content.decode()

    @pytest.mark.parametrize(("posted", "sent_off"), [("false", False), ("0", False), ("off", False), ("on", True)])
    def test_sent_off_is_read_as_written(self, client, posted, sent_off):
        home, _away = players(self.ready_match)
        response = post_report(client, self.ready_match, **{f"p{home[3].pk}_sent_off": posted})
        assert response.status_code == 302
        line = PlayerMatch.objects.filter(match=self.ready_match, player=home[3]).first()
        assert (line is not None and line.sent_off) == sent_off

    def test_a_refused_report_keeps_every_typed_value(self, client):
        home, _away = players(self.ready_match)
        response = post_report(
            client,
            self.ready_match,
            home_score="31",
            comment="Hard game",
            **{f"p{home[0].pk}_interceptions": "3", f"p{home[4].pk}_sent_off": "on"},
        )
        html = response.content.decode()
        assert 'value="31"' in html and "Hard game</textarea>" in html
        assert f'name="p{home[0].pk}_interceptions" value="3"' in html
        sent_off = re.search(rf'<input[^>]*name="p{home[4].pk}_sent_off"[^>]*>', html).group(0)
        assert "checked" in sent_off
        assert f'<option value="{home[1].pk}" selected>' in html  # the injury's cause, as chosen

    def test_an_apothecary_row_without_an_action_is_refused_beside_it(self, client):
        home, _away = players(self.ready_match)
        prefix = f"apo{self.ready_match.home_id}_0_"
        response = post_report(client, self.ready_match, **{prefix + "player": str(home[0].pk), prefix + "action": ""})
        assert response.status_code == 422
        assert f'id="id_{prefix}action_error"' in response.content.decode()
        assert not ApothecaryUse.objects.exists()

    def test_a_dispute_comment_with_a_nul_byte_is_refused_and_kept(self, client):
        file_report(self.ready_match, a_report(self.ready_match), by=self.ready_match.home.coach)
        client.force_login(self.ready_match.away.coach)
        response = client.post(reverse("match_dispute", args=[self.ready_match.pk]), {"comment": "It was 2-2\x00"})
        assert response.status_code == 422
        html = response.content.decode()
        assert "Null characters are not allowed" in html and 'id="dispute-errors"' in html
        assert Match.objects.get(pk=self.ready_match.pk).status == "reported"
        response = client.post(reverse("match_dispute", args=[self.ready_match.pk]), {"comment": "x" * 2001})
        assert response.status_code == 422
        assert Match.objects.get(pk=self.ready_match.pk).status == "reported"
