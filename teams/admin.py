from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin

from league import rules
from league.accounts import is_board
from league.lib.numbers import money
from league.lib.readonly_admin import ReadOnlyAdminMixin
from league.lib.responses import refusal_on_form
from league.models import Season, SeasonEntry
from teams import corrections, ledger, rosters
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


class ReadOnlyInline(ReadOnlyAdminMixin, admin.TabularInline):
    """Rows the services write (hires, skills, stat changes, facilities): read here, corrected by a form."""

    extra = 0


class PlayerInline(ReadOnlyInline):
    model = Player
    fields = ["number", "name", "position", "status", "niggling", "miss_matches"]
    show_change_link = True


# --- the board's corrections: forms in the admin, records through teams.services -------------------


def _delta(label: str) -> forms.IntegerField:
    return forms.IntegerField(label=label, initial=0, required=False, min_value=-10_000_000, max_value=10_000_000)


class TeamCorrectionForm(forms.Form):
    treasury = _delta(_("Treasury (gold, + or -)"))
    capacity = _delta(_("Stadium seats (+ or -)"))
    reason = forms.CharField(label=_("Reason"), max_length=150)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for name in corrections.TEAM_CORRECTABLE:
            self.fields[name] = _delta(f"{Team._meta.get_field(name).verbose_name} (+/-)")
        self.order_fields(["treasury", *corrections.TEAM_CORRECTABLE, "capacity", "reason"])


class PlayerCorrectionForm(forms.Form):
    status = forms.ChoiceField(label=_("status"), choices=Player.Status.choices)
    add_skills = forms.ModelMultipleChoiceField(
        label=_("Add skills"), queryset=Skill.objects.all(), required=False, to_field_name="name"
    )
    remove_skills = forms.MultipleChoiceField(label=_("Remove gained skills"), required=False, choices=[])
    reason = forms.CharField(label=_("Reason"), max_length=150)

    def __init__(self, *args, player: Player, **kwargs) -> None:
        super().__init__(*args, initial={"status": player.status}, **kwargs)
        for name in corrections.PLAYER_CORRECTABLE:
            self.fields[name] = _delta(f"{Player._meta.get_field(name).verbose_name} (+/-)")
        for stat in rules.STATS:
            self.fields[stat] = _delta(f"{stat} (+/-)")
        gained = player.gained_skills.values_list("skill__name", flat=True)
        self.fields["remove_skills"].choices = [(n, n) for n in gained]
        self.order_fields([*corrections.PLAYER_CORRECTABLE, *rules.STATS, "status", "add_skills"])


class CorrectionAdmin(SimpleHistoryAdmin):
    """A change form whose service-owned fields are read-only, with a link to the correction form."""

    correction_title = ""

    def get_urls(self):
        opts = self.model._meta
        return [
            path(
                "<path:object_id>/correct/",
                self.admin_site.admin_view(self.correction_view),
                name=f"{opts.app_label}_{opts.model_name}_correct",
            ),
            *super().get_urls(),
        ]

    @admin.display(description=_("Correction"))
    def correct(self, obj) -> str:
        if obj is None or obj.pk is None:
            return "-"
        opts = self.model._meta
        url = reverse(f"admin:{opts.app_label}_{opts.model_name}_correct", args=[obj.pk])
        return format_html('<a class="button" href="{}">{}</a>', url, self.correction_title)

    def has_add_permission(self, request, obj=None) -> bool:
        return False  # teams and players are created by the coach's and the board's pages (services)

    def correction_form(self, request: HttpRequest, obj) -> forms.Form:
        raise NotImplementedError

    def apply_correction(self, obj, data: dict, request: HttpRequest) -> None:
        raise NotImplementedError

    def correction_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        if not is_board(request.user):
            raise PermissionDenied
        obj = self.get_object(request, object_id)
        if obj is None:
            raise PermissionDenied
        form = self.correction_form(request, obj)
        if request.method == "POST" and form.is_valid():
            try:
                self.apply_correction(obj, form.cleaned_data, request)
            except rosters.TeamRuleError as exc:
                refusal_on_form(form, exc)
            else:
                messages.success(request, _("The correction is recorded."))
                opts = self.model._meta
                return redirect(f"admin:{opts.app_label}_{opts.model_name}_change", obj.pk)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "original": obj,
            "title": f"{self.correction_title}: {obj}",
            "form": form,
        }
        return render(request, "admin/correction.html", context)


@admin.register(Team)
class TeamAdmin(CorrectionAdmin):
    list_display = ["name", "race", "coach", "fan_factor", "rerolls", "active"]
    list_filter = ["race", "active"]
    search_fields = ["name", "coach__username"]
    inlines = [PlayerInline]
    readonly_fields = ["correct", "treasury", *corrections.TEAM_CORRECTABLE, "apothecary", "ruleset", "race"]
    correction_title = _("Correct the team (treasury, counters, seats)")

    @admin.display(description=_("treasury"))
    def treasury(self, obj: Team) -> str:
        return money(ledger.treasury(obj))

    def save_model(self, request: HttpRequest, obj: Team, form: forms.Form, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if change and "coach" in form.changed_data:
            # a season not yet ended is the new coach's, who finishes it; an ended one stays with its coach
            entries = SeasonEntry.objects.filter(team=obj).exclude(season__status=Season.Status.FINISHED)
            entries.update(coach=obj.coach)

    def correction_form(self, request: HttpRequest, obj: Team) -> forms.Form:
        return TeamCorrectionForm(request.POST or None)

    def apply_correction(self, obj: Team, data: dict, request: HttpRequest) -> None:
        corrections.correct_team(
            obj,
            reason=data["reason"],
            by=request.user,
            treasury=data.get("treasury") or 0,
            capacity=data.get("capacity") or 0,
            changes={name: data.get(name) or 0 for name in corrections.TEAM_CORRECTABLE},
        )


class PlayerSkillInline(ReadOnlyInline):
    model = PlayerSkill


class StatChangeInline(ReadOnlyInline):
    model = StatChange


@admin.register(Player)
class PlayerAdmin(CorrectionAdmin):
    list_display = ["name", "number", "team", "position", "status"]
    list_filter = ["status"]
    search_fields = ["name", "team__name"]
    inlines = [PlayerSkillInline, StatChangeInline]
    readonly_fields = [
        "correct",
        "team",
        "position",
        "status",
        *corrections.PLAYER_CORRECTABLE,
        "ma_change",
        "st_change",
        "ag_change",
        "av_change",
        "mutation_choice_pending",
        "hired_at",
        "left_at",
    ]
    correction_title = _("Correct the player (SPP, injuries, stats, skills)")

    def correction_form(self, request: HttpRequest, obj: Player) -> forms.Form:
        return PlayerCorrectionForm(request.POST or None, player=obj)

    def apply_correction(self, obj: Player, data: dict, request: HttpRequest) -> None:
        corrections.correct_player(
            obj,
            reason=data["reason"],
            by=request.user,
            changes={name: data.get(name) or 0 for name in corrections.PLAYER_CORRECTABLE},
            stats={stat: data.get(stat) or 0 for stat in rules.STATS},
            add_skills=[s.name for s in data.get("add_skills") or []],
            remove_skills=list(data.get("remove_skills") or []),
            status=data["status"],
        )


class FacilityInline(ReadOnlyInline):
    model = Facility


@admin.register(Stadium)
class StadiumAdmin(SimpleHistoryAdmin):
    """Seats, the roof and facilities are bought or lost through the services; the team's correction
    form corrects the seats."""

    list_display = ["team", "capacity", "roof"]
    readonly_fields = ["team", "capacity", "roof"]
    inlines = [FacilityInline]

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(TreasuryEntry)
class TreasuryEntryAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """The ledger is a record: entries are read here, never edited or deleted (corrections are new entries)."""

    list_display = ["team", "seq", "amount", "balance", "kind", "shown_description", "created_at", "created_by"]
    list_filter = ["kind"]
    search_fields = ["team__name", "description"]  # the English text of a message, or the words written
    fields = ["team", "seq", "amount", "balance", "kind", "shown_description", "created_by", "created_at"]
    fields += ["cause_type", "cause_id", "idempotency_key"]
    readonly_fields = fields

    @admin.display(description=_("description"))
    def shown_description(self, entry: TreasuryEntry) -> str:
        return entry.text  # in the reader's language, as on the ledger page
