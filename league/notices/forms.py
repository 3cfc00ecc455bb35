"""The notices' forms: a coach's choices, and the board's message to all coaches."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from league.lib.once import TokenField
from league.models import LeagueSettings, Notification, Webhook

# The kinds only the board receives (R45, R47): offered on a board member's choices only.
BOARD_KINDS = (Notification.Kind.DISPUTE_TO_SETTLE, Notification.Kind.REOPENED_OVERDUE)
PUSH_FIELDS = ("push_kinds", "quiet_from", "quiet_to")


class ChoicesForm(forms.Form):
    email = forms.EmailField(
        label=_("Your e-mail address"),
        required=False,
        max_length=254,
        help_text=_(
            "Leave it empty to get notifications in the app only. A new address gets a link to confirm it, "
            "at most one every 20 minutes."
        ),
    )
    language = forms.ChoiceField(label=_("Language of the e-mails"), choices=settings.LANGUAGES)
    email_kinds = forms.MultipleChoiceField(
        label=_("By e-mail too"),
        choices=Notification.Kind.choices,
        widget=forms.CheckboxSelectMultiple,
        required=False,
        help_text=_("Everything comes to the app's inbox; the kinds ticked come by e-mail too."),
    )
    push_kinds = forms.MultipleChoiceField(
        label=_("On your devices too"),
        choices=Notification.Kind.choices,
        widget=forms.CheckboxSelectMultiple,
        required=False,
        help_text=_("The kinds ticked are pushed to the devices you turned on above, each kind once per match."),
    )
    quiet_from = forms.TimeField(
        label=_("Quiet from"), required=False, widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M")
    )
    quiet_to = forms.TimeField(
        label=_("Quiet until"), required=False, widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M")
    )

    def __init__(self, *args, board: bool = False, push: bool = False, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if not push:  # no VAPID keys: the push choices are not offered, and saving keeps them as they are
            for name in PUSH_FIELDS:
                del self.fields[name]
        if not board:
            for name in ("email_kinds", "push_kinds"):
                if name in self.fields:
                    self.fields[name].choices = [c for c in Notification.Kind.choices if c[0] not in BOARD_KINDS]


class LeagueSettingsForm(forms.ModelForm):
    class Meta:
        model = LeagueSettings
        fields = ["prematch_days", "postmatch_days", "board_days"]
        widgets = {name: forms.NumberInput(attrs={"inputmode": "numeric"}) for name in fields}


class BoardMessageForm(forms.Form):
    token = TokenField()  # the same message sent twice (a double tap) goes out once
    subject = forms.CharField(label=_("Subject"), max_length=150)
    text = forms.CharField(label=_("Message"), widget=forms.Textarea(attrs={"rows": 8}), max_length=5000)


class WebhookForm(forms.ModelForm):
    url = forms.URLField(
        label=_("Address"),
        max_length=500,
        assume_scheme="https",
        widget=forms.URLInput(attrs={"placeholder": "https://discord.com/api/webhooks/…"}),
        help_text=_("Discord: the channel's settings, Integrations, Webhooks, Copy Webhook URL."),
    )

    class Meta:
        model = Webhook
        fields = ["name", "url", "format", "results", "season_tables", "board_messages", "active"]
        help_texts = {"format": _("Plain JSON is signed with the webhook's secret (X-Torshov-Signature).")}
