"""A match's result in the league's chat: posted once, and only once both coaches (or the board) confirmed
it; a walkover says W.O.; a void posts its short line only where the result went."""

import json

import pytest
from django.conf import settings

from league.models import Webhook, WebhookDelivery
from matches.chat import result_line
from matches.report.confirmation import confirm_report, reopen_report, void_match
from matches.report.filing import file_report
from matches.results import record_forfeit
from tests.match_classes import OneScheduledMatch, OneWalkedMatch
from tests.matches.test_report import a_report
from tests.webhook_server import receiver

pytestmark = pytest.mark.django_db


def posted(chat) -> list[dict]:
    return [json.loads(r.body) for r in chat.requests]


class TestAReportedMatch(OneWalkedMatch):
    def test_a_filed_report_posts_nothing_its_confirmation_posts_once(
        self, ready_match, board_member, django_capture_on_commit_callbacks
    ):
        match = ready_match
        with receiver() as chat:
            Webhook.objects.create(name="Discord", url=chat.url, format=Webhook.Format.JSON)
            with django_capture_on_commit_callbacks(execute=True):
                file_report(match, a_report(match), by=match.home.coach)
            assert chat.requests == []  # filed, not confirmed: nothing
            with django_capture_on_commit_callbacks(execute=True):
                confirm_report(match, by=match.away.coach)
            with django_capture_on_commit_callbacks(execute=True):
                confirm_report(match, by=match.away.coach)  # confirmed twice: still once
            [body] = posted(chat)
            assert body["text"] == f"{match.home} 2 – 1 {match.away} (1st division, runde 1)"
            assert body["url"] == f"{settings.SITE_URL}/matches/{match.pk}/"
            assert (body["data"]["home_score"], body["data"]["away_score"]) == (2, 1)
            with django_capture_on_commit_callbacks(execute=True):
                void_match(match, by=board_member)
            assert [b["event"] for b in posted(chat)] == ["result", "void"]
            assert "Annullert" in posted(chat)[1]["text"]

    def test_a_result_confirmed_again_unchanged_posts_nothing_a_corrected_one_posts_once(
        self, ready_match, board_member, django_capture_on_commit_callbacks
    ):
        match = ready_match
        with receiver() as chat:
            Webhook.objects.create(name="Discord", url=chat.url)
            with django_capture_on_commit_callbacks(execute=True):
                file_report(match, a_report(match), by=match.home.coach)
                confirm_report(match, by=match.away.coach)
                reopen_report(match, by=board_member)
                confirm_report(match, by=board_member)  # the same 2–1 again: the same event
            assert len(chat.requests) == 1
            corrected = a_report(match)
            corrected.home_score = 3
            with django_capture_on_commit_callbacks(execute=True):
                reopen_report(match, by=board_member)
                file_report(match, corrected, by=match.home.coach)
                confirm_report(match, by=match.away.coach)
            assert [b["content"].split(" (")[0] for b in posted(chat)] == [
                f"{match.home} 2 – 1 {match.away}",
                f"{match.home} 3 – 1 {match.away}",
            ]


class TestAScheduledMatch(OneScheduledMatch):
    def test_a_walkover_is_a_result_and_says_w_o(self, league_match, board_member, django_capture_on_commit_callbacks):
        match = league_match
        with receiver() as chat:
            Webhook.objects.create(name="Discord", url=chat.url)
            with django_capture_on_commit_callbacks(execute=True):
                record_forfeit(match, match.away, by=board_member)
            [body] = posted(chat)
        assert body["content"].startswith(f"{match.home} 2 – 0 {match.away} (W.O.: {match.away} stilte ikke)")
        assert body["allowed_mentions"] == {"parse": []}

    def test_a_void_of_a_match_the_chat_never_heard_of_posts_nothing(
        self, league_match, board_member, django_capture_on_commit_callbacks
    ):
        with receiver() as chat:
            Webhook.objects.create(name="Discord", url=chat.url)
            with django_capture_on_commit_callbacks(execute=True):
                void_match(league_match, by=board_member)
        assert chat.requests == [] and not WebhookDelivery.objects.exists()

    def test_the_line_names_the_division_and_round(self, league_match):
        league_match.home_score, league_match.away_score = 3, 3
        assert result_line(league_match) == f"{league_match.home} 3 – 3 {league_match.away} (1st division, runde 1)"
