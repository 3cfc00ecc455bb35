"""Make the day's reminders: run once a day by cron or the production recipe's scheduler; running it
again, or twice at once, reminds no one twice (league.seasons.reminders)."""

from django.core.management.base import BaseCommand
from django.utils import timezone

from league.seasons.reminders import send_reminders


class Command(BaseCommand):
    help = "Remind coaches of pre-match and post-match sequences, and the board of reopened reports."

    def add_arguments(self, parser):
        # the board sets the days in the app (its desk); these override them for one run
        parser.add_argument("--prematch-days", type=int, default=None)
        parser.add_argument("--postmatch-days", type=int, default=None)

    def handle(self, *args, **options):
        made = send_reminders(
            today=timezone.localdate(),
            prematch_days=options["prematch_days"],
            postmatch_days=options["postmatch_days"],
        )
        self.stdout.write(
            f"reminders: {made.prematch} before a match, {made.postmatch} after one, {made.board} to the board"
        )
