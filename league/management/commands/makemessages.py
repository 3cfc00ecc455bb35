"""makemessages that also finds the rules' message ids: `N_("...")` (league.rules.messages) marks an
explanation's msgid in the pure rules package, which cannot import Django's gettext."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=N_", "--keyword=N_plural:1,2"]
