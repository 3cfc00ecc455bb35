import json
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin

from league import rules
from league.lib.inputs import parse_json
from league.lib.readonly_admin import ReadOnlyAdminMixin
from league.lib.refusals import Refusal
from league.models import (
    AccountChange,
    Cup,
    Division,
    Ruleset,
    Season,
    SeasonEnd,
    SeasonEntry,
    TiebreakGame,
    Webhook,
    WebhookDelivery,
)
from league.notices.webhooks import check_address
from league.rules.tables import to_text

SECTION_KEYS = ("settings", *rules.TABLE_PARSERS)


class RulesetForm(forms.ModelForm):
    """Each table and the settings as validated JSON text; an error names the table and the cell."""

    class Meta:
        model = Ruleset
        fields = ["name", "notes"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A new version starts as a copy of the default; an existing draft shows its own tables.
        data = self.instance.data if self.instance.pk else rules.default_data()
        self.instance.data = data  # replaced by the edited tables once they all validate
        for key in SECTION_KEYS:
            if key in self.fields:
                current = data.get("settings") if key == "settings" else data.get("tables", {}).get(key)
                self.fields[key].initial = to_text(current)

    def _clean_section(self, key: str) -> Any:
        text = self.cleaned_data[key]
        try:
            value = parse_json(text, depth=10)  # a section nests 5 deep
        except json.JSONDecodeError as exc:
            raise forms.ValidationError(
                _("Not valid structured text at line %(line)s, column %(col)s: %(msg)s"),
                params={"line": exc.lineno, "col": exc.colno, "msg": exc.msg},
            ) from exc
        try:
            rules.parse_table(key, value)
        except rules.RulesetError as exc:
            raise forms.ValidationError(str(exc)) from exc
        return value

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        sections = {}
        for key in SECTION_KEYS:
            if key not in cleaned:
                continue
            try:
                sections[key] = self._clean_section(key)
            except forms.ValidationError as exc:
                self.add_error(key, exc)
        if self.errors:
            return cleaned
        data = {
            "name": cleaned.get("name", ""),
            "settings": sections.pop("settings"),
            "tables": sections,
        }
        try:
            rules.parse_ruleset_data(data)
        except rules.RulesetError as exc:
            raise forms.ValidationError(str(exc)) from exc
        self.instance.data = data
        return cleaned


for _key in SECTION_KEYS:
    RulesetForm.base_fields[_key] = RulesetForm.declared_fields[_key] = forms.CharField(
        label=f"{rules.TABLE_NAMES.get(_key, _key)} ({_key})",
        widget=forms.Textarea(attrs={"rows": 12, "cols": 110, "class": "ruleset-json", "spellcheck": "false"}),
    )


@admin.register(Ruleset)
class RulesetAdmin(admin.ModelAdmin):
    form = RulesetForm
    list_display = ["name", "status", "based_on", "published_at", "created_at"]
    list_filter = ["status"]
    search_fields = ["name", "notes"]
    actions = ["publish", "copy_as_draft"]

    def get_fieldsets(self, request: HttpRequest, obj: Ruleset | None = None):
        if obj is not None and obj.is_published:
            return [(None, {"fields": ["name", "status", "published_at", "based_on", "notes"]})]
        return [
            (None, {"fields": ["name", "notes"]}),
            (_("Settings"), {"fields": ["settings"]}),
            (_("Tables"), {"fields": list(rules.TABLE_PARSERS)}),
        ]

    def get_readonly_fields(self, request: HttpRequest, obj: Ruleset | None = None):
        if obj is not None and obj.is_published:
            return ["name", "status", "published_at", "based_on", "notes"]
        return []

    def has_change_permission(self, request: HttpRequest, obj: Ruleset | None = None) -> bool:
        if obj is not None and obj.is_published:
            return False  # a published version is history: copy it to a draft to change the rules
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Ruleset | None = None) -> bool:
        if obj is not None and obj.is_published:
            return False
        return super().has_delete_permission(request, obj)

    def save_model(self, request: HttpRequest, obj: Ruleset, form: forms.Form, change: bool) -> None:
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)

    @admin.action(description=_("Publish the selected drafts"), permissions=["change"])
    def publish(self, request: HttpRequest, queryset: QuerySet[Ruleset]) -> None:
        for ruleset in queryset.filter(status=Ruleset.Status.DRAFT):
            ruleset.publish()
            self.message_user(request, _("%(name)s is published.") % {"name": ruleset.name}, messages.SUCCESS)

    @admin.action(description=_("Copy as a new draft"), permissions=["add"])
    def copy_as_draft(self, request: HttpRequest, queryset: QuerySet[Ruleset]) -> None:
        for ruleset in queryset:
            name, n = f"{ruleset.name} (kopi)", 2
            while Ruleset.objects.filter(name=name).exists():
                name, n = f"{ruleset.name} (kopi {n})", n + 1
            copy = ruleset.copy_as_draft(name, by=request.user)
            self.message_user(request, _("Created the draft %(name)s.") % {"name": copy.name}, messages.SUCCESS)


def _begun(season: Season | None) -> bool:
    """An existing season that has begun (`Season.has_begun`); the add form's None has not."""
    return season is not None and season.has_begun()


class DivisionInline(admin.TabularInline):
    """A season's divisions. Once it has begun, a division is neither added nor deleted here (deleting one
    deleted its matches) and its level and die stay (R12, R20: the gate and winnings of its matches); its
    name may still be corrected."""

    model = Division
    extra = 0

    def get_readonly_fields(self, request: HttpRequest, obj: Season | None = None) -> list[str]:
        return ["level", "die"] if _begun(obj) else []

    def has_add_permission(self, request: HttpRequest, obj: Season | None = None) -> bool:
        return not _begun(obj) and super().has_add_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Season | None = None) -> bool:
        return not _begun(obj) and super().has_delete_permission(request, obj)


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "status", "ruleset", "started_at", "ended_at"]
    list_filter = ["status"]
    inlines = [DivisionInline]

    def get_readonly_fields(self, request: HttpRequest, obj: Season | None = None) -> list[str]:
        """Status and dates move only through the season's own buttons, the start and the season end, which
        check R43 (one running season a team); the ruleset, once the season has begun, not at all (a season
        is played under one version: a change never rewrites history)."""
        return ["status", "started_at", "ended_at", *(["ruleset"] if _begun(obj) else [])]

    def has_delete_permission(self, request: HttpRequest, obj: Season | None = None) -> bool:
        """A begun season is history: deleting it deleted its matches (R43)."""
        return not _begun(obj) and super().has_delete_permission(request, obj)


@admin.register(SeasonEntry)
class SeasonEntryAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Who plays in which division, to look up. A team is placed or moved on the season's page, through
    league.seasons.services.setup.set_division_teams, which checks R43 and the matches already played."""

    list_display = ["team", "division", "season"]
    list_filter = ["season"]


@admin.register(Cup)
class CupAdmin(admin.ModelAdmin):
    """A cup is drawn on the season's page (league.seasons.services.cup.draw_cup, R34), which makes its first
    round's matches from the draw: here its name and prize may be set, its draw is not changed, and it is
    neither added nor deleted (deleting it deleted its matches)."""

    list_display = ["name", "season", "prize"]
    readonly_fields = ["season", "draw", "drawn_randomly", "drawn_by", "drawn_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Cup | None = None) -> bool:
        return False


@admin.register(TiebreakGame)
class TiebreakGameAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """The recorded tiebreak games (R31), to look up. They are recorded and taken back on the season's page
    (league.seasons.services.fixtures.record_tiebreak, withdraw_tiebreak), which check the division's teams and
    keep an ended season's tables as they were."""

    list_display = ["division", "winner", "loser", "recorded_by", "recorded_at"]
    list_filter = ["division__season"]


@admin.register(TiebreakGame.history.model)
class TiebreakGameHistoryAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Each tiebreak game recorded (+) and taken back (-), by whom and when: the games a table was
    ranked with, also after one was taken back."""

    list_display = ["when", "what", "who", "division", "winner", "loser"]

    @admin.display(description=_("when"), ordering="history_date")
    def when(self, entry: Any) -> Any:
        return entry.history_date

    @admin.display(description=_("what"))
    def what(self, entry: Any) -> str:
        return entry.get_history_type_display()

    @admin.display(description=_("by"))
    def who(self, entry: Any) -> Any:
        return entry.history_user


@admin.register(AccountChange)
class AccountChangeAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Each account the board deactivated or let back in on the coaches' page, by whom and when."""

    list_display = ["user", "active", "by", "at"]
    list_filter = ["active"]


@admin.register(SeasonEnd)
class SeasonEndAdmin(admin.ModelAdmin):
    list_display = ["season", "committed_at", "committed_by"]

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class WebhookAdminForm(forms.ModelForm):
    url = forms.URLField(label=_("address"), max_length=500, assume_scheme="https")

    class Meta:
        model = Webhook
        fields = ["name", "url", "format", "results", "season_tables", "board_messages", "active"]

    def clean_url(self) -> str:
        url = self.cleaned_data["url"]
        try:
            check_address(url)  # the same refusal as the board's page
        except Refusal as refusal:
            raise forms.ValidationError(refusal.messages) from None
        return url


@admin.register(Webhook)
class WebhookAdmin(SimpleHistoryAdmin):
    """The league's chat; the secret is shown here for the receiver of plain JSON."""

    form = WebhookAdminForm
    list_display = ["name", "format", "results", "season_tables", "board_messages", "active"]
    readonly_fields = ["secret", "created_at"]


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["webhook", "kind", "key", "state", "attempts", "status_code", "created_at", "sent_at"]
    list_filter = ["state", "kind", "webhook"]
