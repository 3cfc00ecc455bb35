"""Make the day's reminders (issue 27): run once a day by cron or the production recipe's scheduler;
running it again, or twice at once, reminds no one twice (matches.reminders)."""

from django.conf import settings
from django.core.management.base import BaseCommand
from django.utils import timezone

from matches.reminders import send_reminders


class Command(BaseCommand):
    help = "Remind coaches of pre-match sequences not begun and post-match sequences unfinished."

    def add_arguments(self, parser):
        parser.add_argument("--prematch-days", type=int, default=settings.NOTICE_PREMATCH_DAYS)
        parser.add_argument("--postmatch-days", type=int, default=settings.NOTICE_POSTMATCH_DAYS)

    def handle(self, *args, **options):
        made = send_reminders(
            today=timezone.localdate(),
            prematch_days=options["prematch_days"],
            postmatch_days=options["postmatch_days"],
        )
        self.stdout.write(f"reminders: {made.prematch} before a match, {made.postmatch} after one")
