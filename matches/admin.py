from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from matches.models import ApothecaryUse, DiceRoll, Match, PlayerMatch, PostMatch, PreMatch


class PlayerMatchInline(admin.TabularInline):
    model = PlayerMatch
    fk_name = "match"
    extra = 0


@admin.register(Match)
class MatchAdmin(SimpleHistoryAdmin):
    list_display = ["__str__", "season", "division", "cup", "round", "status", "home_score", "away_score"]
    list_filter = ["status", "season"]
    search_fields = ["home__name", "away__name"]
    inlines = [PlayerMatchInline]


@admin.register(DiceRoll)
class DiceRollAdmin(admin.ModelAdmin):
    """Dice are records: read here, never changed."""

    list_display = ["match", "purpose", "kind", "values", "entered", "rolled_by", "rolled_at"]
    list_filter = ["entered", "step"]

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


admin.site.register(PreMatch, SimpleHistoryAdmin)
admin.site.register(PostMatch, SimpleHistoryAdmin)
admin.site.register(ApothecaryUse)
