from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin

from league.lib.readonly_admin import ReadOnlyAdminMixin
from league.lib.refusals import Refusal
from matches.models import ApothecaryUse, DiceRoll, LiveEvent, Match, PlayerMatch, PostMatch, PreMatch
from matches.report.confirmation import reopen_report, void_match


class PlayerMatchInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = PlayerMatch
    fk_name = "match"
    extra = 0


# A result counts through the report's services (SPP, the cup, the post-match rows): never typed here.
MATCH_RESULT_FIELDS = [
    "status",
    "home_score",
    "away_score",
    "home_casualties",
    "away_casualties",
    "tiebreak_winner",
    "forfeited_by",
    "forfeit_fan_factor_lost",
    "dispute_comment",
    "filed_by",
    "filed_at",
    "confirmed_at",
    "confirmed_by",
    "cup",
    "cup_slot",
    "season",
    "division",
]


@admin.register(Match)
class MatchAdmin(SimpleHistoryAdmin):
    list_display = ["__str__", "season", "division", "cup", "round", "status", "home_score", "away_score"]
    list_filter = ["status", "season"]
    search_fields = ["home__name", "away__name"]
    inlines = [PlayerMatchInline]
    actions = ["reopen", "void"]

    def get_readonly_fields(self, request: HttpRequest, obj: Match | None = None) -> list[str]:
        fields = list(MATCH_RESULT_FIELDS)
        if obj is not None and obj.status != Match.Status.SCHEDULED:
            fields += ["home", "away", "neutral"]  # who played, and where, is part of the result
        return fields

    def has_add_permission(self, request, obj=None) -> bool:
        return False  # fixtures come from the season page (league.seasons.services)

    def _run(self, request: HttpRequest, queryset: QuerySet[Match], service, done: str) -> None:
        for match in queryset:
            try:
                service(match, by=request.user)
            except Refusal as exc:
                for message in exc.messages:
                    messages.error(request, f"{match}: {message}")
            else:
                messages.success(request, f"{match}: {done}")

    @admin.action(description=_("Reopen the confirmed report (takes back what it counted)"))
    def reopen(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        self._run(request, queryset, reopen_report, _("The report is reopened."))

    @admin.action(description=_("Void the match (nothing of it counts)"))
    def void(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        self._run(request, queryset, void_match, _("The match is void."))


@admin.register(DiceRoll)
class DiceRollAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Dice are records: read here, never changed."""

    list_display = ["match", "purpose", "kind", "dice", "entered", "rolled_by", "rolled_at"]
    list_filter = ["entered", "step"]

    @admin.display(description=_("dice"))
    def dice(self, roll: DiceRoll) -> str:
        return " + ".join(str(v) for v in roll.values)  # 3 + 4, not a Python list


@admin.register(PreMatch)
class PreMatchAdmin(ReadOnlyAdminMixin, SimpleHistoryAdmin):
    list_display = ["match", "done"]


@admin.register(PostMatch)
class PostMatchAdmin(ReadOnlyAdminMixin, SimpleHistoryAdmin):
    list_display = ["match", "team", "done", "winnings", "fan_factor_change"]


@admin.register(ApothecaryUse)
class ApothecaryUseAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["match", "player", "action", "ap", "roll"]


@admin.register(LiveEvent)
class LiveEventAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """The live match log: a mistake is undone by a compensating entry on the live page, never here."""

    list_display = ["match", "kind", "team", "player", "victim", "author", "made_at", "created_at", "undoes"]
    list_filter = ["kind"]
    list_select_related = ["match__home", "match__away", "team", "player", "victim", "author", "undoes"]
