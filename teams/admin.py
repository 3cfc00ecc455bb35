from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from teams.models import Facility, Player, PlayerSkill, Position, Race, Skill, Stadium, StatChange, Team, TreasuryEntry


@admin.register(Skill)
class SkillAdmin(admin.ModelAdmin):
    list_display = ["name", "category", "kind"]
    list_filter = ["category", "kind"]
    search_fields = ["name"]


class PositionInline(admin.TabularInline):
    model = Position
    fk_name = "race"
    extra = 0
    fields = [
        "name",
        "max_count",
        "price",
        "ma",
        "st",
        "ag",
        "av",
        "normal_access",
        "double_access",
        "random_mutation",
        "order",
    ]


@admin.register(Race)
class RaceAdmin(admin.ModelAdmin):
    list_display = ["name", "reroll_price", "apothecary_allowed", "head_coach", "healer"]
    search_fields = ["name"]
    inlines = [PositionInline]


@admin.register(Position)
class PositionAdmin(admin.ModelAdmin):
    list_display = ["name", "race", "max_count", "price", "ma", "st", "ag", "av", "normal_access", "big_guy"]
    list_filter = ["big_guy", "race"]
    search_fields = ["name"]
    filter_horizontal = ["skills", "allied_races"]


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0
    fields = ["number", "name", "position", "status", "niggling", "miss_matches"]
    show_change_link = True


@admin.register(Team)
class TeamAdmin(SimpleHistoryAdmin):
    list_display = ["name", "race", "coach", "fan_factor", "rerolls", "active"]
    list_filter = ["race", "active"]
    search_fields = ["name", "coach__username"]
    inlines = [PlayerInline]


class PlayerSkillInline(admin.TabularInline):
    model = PlayerSkill
    extra = 0


class StatChangeInline(admin.TabularInline):
    model = StatChange
    extra = 0


@admin.register(Player)
class PlayerAdmin(SimpleHistoryAdmin):
    list_display = ["name", "number", "team", "position", "status"]
    list_filter = ["status"]
    search_fields = ["name", "team__name"]
    inlines = [PlayerSkillInline, StatChangeInline]


class FacilityInline(admin.TabularInline):
    model = Facility
    extra = 0


@admin.register(Stadium)
class StadiumAdmin(SimpleHistoryAdmin):
    list_display = ["team", "capacity", "roof"]
    inlines = [FacilityInline]


@admin.register(TreasuryEntry)
class TreasuryEntryAdmin(admin.ModelAdmin):
    """The ledger is a record: entries are read here, never edited or deleted (corrections are new entries)."""

    list_display = ["team", "seq", "amount", "balance", "kind", "description", "created_at", "created_by"]
    list_filter = ["kind"]
    search_fields = ["team__name", "description"]

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
