"""Amounts written one way in every message and page: as the tables show them, 120 000 in Norwegian (a
no-break space), never "gp". Templates write them with humanize's `intcomma`, which is this same
`number_format` with grouping."""

from django.utils.formats import number_format


def money(amount: int) -> str:
    """120 000 in Norwegian (a no-break space), 120,000 in English; negative amounts keep their minus."""
    return number_format(amount, force_grouping=True)


def signed(amount: int) -> str:
    """+50 000 / -50 000, as the ledger shows a change."""
    return ("+" if amount > 0 else "") + money(amount)
