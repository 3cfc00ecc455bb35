"""Recompute the kept tables and player counters from the matches (matches.stats)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from matches import stats


class Command(BaseCommand):
    help = "Rebuild the division lines and players' season and career counters from the confirmed matches."

    def handle(self, *args, **options):
        counts = stats.rebuild()
        self.stdout.write(f"Rebuilt {counts['team_rows']} team rows and {counts['player_rows']} player rows.")
