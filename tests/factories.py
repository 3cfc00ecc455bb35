"""Small helpers to build teams the way a coach does (through the services)."""

from __future__ import annotations

from teams import services
from teams.models import Position, Race, Team


def race(name: str) -> Race:
    return Race.objects.get(name=name)


def position(race_name: str, name: str) -> Position:
    return Position.objects.get(race__name=race_name, name=name)


def big_guy(name: str) -> Position:
    return Position.objects.get(big_guy=True, name=name)


def human_team(coach, name: str = "Torshov Trolls", **extra) -> Team:
    """11 Humans: 7 Linemen, 2 Catchers, 1 Thrower, 1 Blitzer = 350,000 + 140,000 + 70,000 + 90,000 = 650,000."""
    hires = {
        position("Human", "Linemen").pk: 7,
        position("Human", "Catchers").pk: 2,
        position("Human", "Throwers").pk: 1,
        position("Human", "Blitzers").pk: 1,
    }
    return services.create_team(coach=coach, name=name, race=race("Human"), hires=hires, **extra)
