"""The league in a coach's pocket, end to end: coach A files a report; coach B's phone (the tests' own push
service, which checks the VAPID signature and decrypts the message with the device's keys) receives a
Norwegian message linking to the report; B confirms; the league's chat (the tests' own webhook receiver)
receives the result once, and nothing before it was confirmed."""

import json

import pytest
from django.conf import settings

from league.models import Webhook
from matches.report.confirmation import confirm_report
from matches.report.filing import file_report
from tests.league.notices.test_push import subscribed
from tests.match_classes import OneWalkedMatch
from tests.matches.test_report import a_report
from tests.push_service import push_service
from tests.webhook_server import receiver

pytestmark = pytest.mark.django_db


class TestAReportFromFilingToTheChat(OneWalkedMatch):
    def test_b_is_pushed_the_report_confirms_it_and_the_chat_gets_the_result_once(
        self, ready_match, django_capture_on_commit_callbacks
    ):
        match = ready_match
        home, away = match.home.coach, match.away.coach
        with push_service() as service, receiver() as chat:
            Webhook.objects.create(name="Ligachat", url=chat.url, format=Webhook.Format.JSON)
            phone = subscribed(away, service)
            with django_capture_on_commit_callbacks(execute=True):
                file_report(match, a_report(match), by=home)
            [message] = phone.received
            assert message["title"] == "En rapport å bekrefte eller bestride"
            assert message["body"].endswith("(2–1): bekreft eller bestrid den.")
            assert message["url"] == settings.SITE_URL + match.get_absolute_url()
            assert chat.requests == []  # filed, not yet confirmed: the chat hears nothing
            with django_capture_on_commit_callbacks(execute=True):
                confirm_report(match, by=away)  # what the link leads to
            with django_capture_on_commit_callbacks(execute=True):
                confirm_report(match, by=away)  # a second press: nothing more
            [posted] = [json.loads(r.body) for r in chat.requests]
            assert posted["text"] == f"{match.home} 2 – 1 {match.away} (1st division, runde 1)"
            assert service.refused == []
