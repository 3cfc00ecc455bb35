"""What the league tells its coaches (issue 27): the inbox ("Varsler") and the e-mails.

    from league.notices.services import notify
    notify(recipients, Notification.Kind.REPORT_FILED, match=match, params={...})

Called inside the writing service's transaction; one module per part: the texts, the writes (`services`),
the reads (`selectors`), the e-mail's delivery, the unsubscribe token."""
