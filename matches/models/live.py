"""The live match log: one row per thing that happened at the table, undone by a compensating row."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from matches.models.lines import PlayerMatch
from matches.models.match import Match

LATE = timedelta(seconds=30)  # longer than a slow send: the entry waited in the phone's queue


class LiveEvent(models.Model):
    """One entry of the match log kept beside the pitch. Nothing is deleted: a mistake is
    undone by a compensating entry (`undoes`); the score, the half and the re-rolls are derived from
    the log by league.rules.live. `client_id` is made on the phone, so a retried send records once."""

    class Kind(models.TextChoices):
        START = "start", _("Kick-off of the match")
        KICKOFF = "kickoff", _("Kick-off table")
        TURN = "turn", _("End of turn")
        TOUCHDOWN = "touchdown", _("Touchdown")
        COMPLETION = "completion", _("Completion")
        INTERCEPTION = "interception", _("Interception")
        CASUALTY = "casualty", _("Casualty")
        CROWD = "crowd", _("Crowd push casualty")
        INJURY = "injury", _("Injury")
        KO = "ko", _("Knocked out")
        SENT_OFF = "sent_off", _("Sent off")
        REROLL = "reroll", _("Team re-roll used")
        HALF_TIME = "half_time", _("Half-time")
        END = "end", _("End of the match")
        UNDO = "undo", _("Undone")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="live_events", verbose_name=_("match"))
    kind = models.CharField(_("what"), max_length=20, choices=Kind.choices)
    team = models.ForeignKey(
        "teams.Team", null=True, blank=True, on_delete=models.PROTECT, related_name="+", verbose_name=_("team")
    )
    player = models.ForeignKey(
        "teams.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+", verbose_name=_("player")
    )
    victim = models.ForeignKey(
        "teams.Player",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("the one injured"),
    )
    data = models.JSONField(_("details"), default=dict, blank=True)
    client_id = models.UUIDField(_("id made on the phone"))
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("entered by")
    )
    created_at = models.DateTimeField(_("entered at"), default=timezone.now)
    # when the coach made the entry: an entry kept on an offline phone reaches the server later
    made_at = models.DateTimeField(_("made at"), default=timezone.now)
    undoes = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="undone_by", verbose_name=_("undoes")
    )

    class Meta:
        ordering = ["match", "pk"]
        verbose_name = _("match log entry")
        verbose_name_plural = _("match log entries")
        constraints = [models.UniqueConstraint(fields=["match", "client_id"], name="live_event_once_per_client_id")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} ({self.match})"

    @property
    def injury_label(self) -> str:
        injury = self.data.get("injury", "")
        return str(PlayerMatch.Injury(injury).label) if injury in PlayerMatch.Injury.values and injury else ""

    @property
    def summary(self) -> str:
        """The entry as a line of plain text, what and whom: the question before undoing it."""
        who = " → ".join(str(p) for p in (self.player, self.victim) if p) or (self.team.name if self.team_id else "")
        return f"{self.get_kind_display()}: {who}" if who else str(self.get_kind_display())

    @property
    def arrived_late(self) -> bool:
        """Sent from an offline phone's queue well after it was made: the log says when it arrived too."""
        return self.created_at - self.made_at > LATE

    @property
    def by_foul(self) -> bool:
        return self.data.get("how") == "foul"
