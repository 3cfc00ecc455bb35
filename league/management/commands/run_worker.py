"""The task worker of production (the e-mails queued in the database): django_tasks_db's `db_worker`, which
waits and tries again while the database is away instead of exiting. `db_worker` itself exits at the
first connection it cannot get, and the e-mails stop until someone restarts it.

A task the worker was running when the database went away stays RUNNING: the scheduler's sweep
(`send_notices`) finishes it, and the e-mail is sent again rather than lost."""

import logging
import time

from django.db import connections
from django.db.utils import InterfaceError, OperationalError
from django_tasks_db.management.commands import db_worker

logger = logging.getLogger("django_tasks_db")


class PatientWorker(db_worker.Worker):
    def __init__(self, *, retry_after: float, **options) -> None:
        super().__init__(**options)
        self.retry_after = retry_after

    def run(self) -> None:
        while self.running:
            try:
                return super().run()  # returns only for --batch or --max-tasks
            except (OperationalError, InterfaceError) as error:
                logger.warning("database unavailable (%s): trying again in %s s", error, self.retry_after)
                connections.close_all()  # a broken connection is not reused
                time.sleep(self.retry_after)


class Command(db_worker.Command):
    help = "Run the database task worker; it waits and tries again while the database is away."

    def add_arguments(self, parser) -> None:
        super().add_arguments(parser)
        parser.add_argument(
            "--retry-after",
            type=float,
            default=5.0,
            help="Seconds to wait before trying the database again (default: %(default)r)",
        )

    def handle(self, *, verbosity, queue_name, exclude_queues, retry_after, reload, **options) -> None:
        self.configure_logging(verbosity)
        worker = PatientWorker(
            retry_after=retry_after,
            queue_names=queue_name.split(","),
            excluded_queue_names=exclude_queues.split(",") if exclude_queues else [],
            interval=options["interval"],
            batch=options["batch"],
            backend_name=options["backend_name"],
            startup_delay=options["startup_delay"],
            max_tasks=options["max_tasks"],
            worker_id=options["worker_id"],
        )
        worker.configure_signals()  # no autoreload: this is production's worker
        worker.run()
