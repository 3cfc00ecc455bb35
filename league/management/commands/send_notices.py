"""Send the e-mails, pushes and the league chat's posts that are due: a failed one whose next attempt has
come, a push kept for the end of its reader's quiet hours, and any whose queued task was lost; a task its
worker left RUNNING when it died is marked failed. Run every few minutes by cron or the production recipe's
scheduler; the worker sends the rest as they come. Each is sent at most once however many run
(league.notices.delivery, .push, .webhook_delivery)."""

from django.core.management.base import BaseCommand

from league.notices import push, webhook_delivery
from league.notices.delivery import finish_abandoned_tasks, send_due


class Command(BaseCommand):
    help = "Send the e-mails, pushes and webhook posts that are due (retries, and any whose task was lost)."

    def handle(self, *args, **options):
        if abandoned := finish_abandoned_tasks():
            self.stdout.write(f"tasks whose worker died, marked failed: {abandoned}")
        for what, outcome in (
            ("notification e-mails", send_due()),
            ("pushes", push.send_due()),
            ("webhook posts", webhook_delivery.send_due()),
        ):
            summary = ", ".join(f"{state} {n}" for state, n in sorted(outcome.items())) or "nothing due"
            self.stdout.write(f"{what}: {summary}")
