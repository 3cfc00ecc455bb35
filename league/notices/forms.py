"""The notices' forms: a coach's choices, and the board's message to all coaches."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from league.lib.once import TokenField
from league.models import LeagueSettings, Notification, Webhook

# The kinds only the board receives (R45, R47): offered on a board member's choices only.
BOARD_KINDS = (Notification.Kind.DISPUTE_TO_SETTLE, Notification.Kind.REOPENED_OVERDUE)


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

    def __init__(self, *args, board: bool = False, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if not board:
            self.fields["email_kinds"].choices = [c for c in Notification.Kind.choices if c[0] not in BOARD_KINDS]


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
