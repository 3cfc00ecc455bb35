"""A plain-ORM shape for the leaders' reads: rows found by a few small reads in one query."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import connections
from django.db.models import Q, QuerySet


def any_of(reads: Sequence[QuerySet]) -> Q:
    """A filter on a model's rows that any of `reads` found: each a read of the model's `pk` values,
    which may be ordered and sliced ("the 10 best", "the next 8").

    Where the database orders and slices inside a compound statement (PostgreSQL), it is one
    `pk IN (… UNION ALL …)`: the planner starts from the few rows the reads find and joins only
    those. An OR of one IN per read (SQLite's way) made PostgreSQL guess that most of the table
    matched, hash every joined table and plan a long time (the front page's leaders)."""
    first, *rest = reads
    if rest and connections[first.db].features.supports_slicing_ordering_in_compound:
        return Q(pk__in=first.union(*rest, all=True))
    found = Q()
    for read in reads:
        found |= Q(pk__in=read)
    return found
