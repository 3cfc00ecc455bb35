"""The league's rows: the rulebook's versions, the season and its parts, the kept statistics, the
league's version and the coaches' notifications. One module per part; every model is importable from
here, as Django and the migrations expect of `league.models`."""

from league.models.accounts import AccountChange
from league.models.calendars import CalendarFeed, new_calendar_salt
from league.models.notices import (
    LeagueSettings,
    NoticePreference,
    NoticeSettings,
    Notification,
    PushDelivery,
    PushSubscription,
)
from league.models.rulesets import _PARSED as _PARSED  # the parsed published versions; tests clear it
from league.models.rulesets import Ruleset, RulesetQuerySet
from league.models.scheduling import RoundDeadline
from league.models.seasons import (
    Cup,
    Division,
    Season,
    SeasonEnd,
    SeasonEntry,
    SeasonQuerySet,
    TiebreakGame,
    round_name,
)
from league.models.stats import (
    LEADER_COUNTERS,
    STAT_FIELDS_PLAYER,
    STAT_FIELDS_TEAM,
    PlayerStats,
    TeamSeasonStats,
)
from league.models.version import LeagueVersion
from league.models.version import _version_token as _version_token  # the token's default, named by migration 0007
from league.models.webhooks import Webhook, WebhookDelivery, new_webhook_secret

__all__ = [
    "LEADER_COUNTERS",
    "STAT_FIELDS_PLAYER",
    "STAT_FIELDS_TEAM",
    "AccountChange",
    "CalendarFeed",
    "Cup",
    "Division",
    "LeagueSettings",
    "LeagueVersion",
    "NoticePreference",
    "NoticeSettings",
    "Notification",
    "PlayerStats",
    "PushDelivery",
    "PushSubscription",
    "RoundDeadline",
    "Ruleset",
    "RulesetQuerySet",
    "Season",
    "SeasonEnd",
    "SeasonEntry",
    "SeasonQuerySet",
    "TeamSeasonStats",
    "TiebreakGame",
    "Webhook",
    "WebhookDelivery",
    "new_calendar_salt",
    "new_webhook_secret",
    "round_name",
]
