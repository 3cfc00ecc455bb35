"""Several short reads in one query.

A page that lists a few rows from each of several reads (the front page's latest results, next
fixtures and cup) pays about a millisecond per query for compiling, planning and the round trip,
even when the database answers in a twentieth of that. `labelled_union` sends them as one
`UNION ALL`, each read kept whole as a subquery: SQLite allows ORDER BY and LIMIT in a union's
parts only so.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.core.exceptions import EmptyResultSet
from django.db.models import QuerySet


def labelled_union(reads: Mapping[str, QuerySet]) -> dict[str, list[tuple]]:
    """Each read's rows, by its label, as `values_list` would give them. The reads are `values_list`
    querysets of the same columns, sliced or not, on one database. Django's converters are applied
    (SQLite's datetimes and dates come back as text without them).

    Each read keeps its own order: PostgreSQL appends a union's parts one after the other, each
    part run whole by one process, and SQLite runs them in turn; the rows are grouped by label."""
    found: dict[str, list[tuple]] = {label: [] for label in reads}
    parts, params, first = [], [], None
    for n, (label, queryset) in enumerate(reads.items()):
        compiler = queryset.query.get_compiler(using=queryset.db)
        try:
            sql, part_params = compiler.as_sql()
        except EmptyResultSet:  # a read that can find nothing ([:0], pk__in=[]) is not sent
            continue
        first = first or compiler  # the parts' columns are the same: the first one's converters serve all
        parts.append(f"SELECT %s, part_{n}.* FROM ({sql}) part_{n}")
        params += [label, *part_params]
    if first is None:
        return found
    with first.connection.cursor() as cursor:
        cursor.execute(" UNION ALL ".join(parts), params)
        rows = cursor.fetchall()
    values = [row[1:] for row in rows]
    converters = first.get_converters([expression for expression, _sql, _alias in first.select])
    if converters:
        values = first.apply_converters(values, converters)
    for row, value in zip(rows, values, strict=True):
        found[row[0]].append(tuple(value))
    return found
