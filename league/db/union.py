"""Several short reads in one query.

A page that lists a few rows from each of several reads (the front page's latest results, next
fixtures and cup) pays a round trip per query. `labelled_union` sends them as one `UNION ALL`, each
read kept whole as a subquery: SQLite allows ORDER BY and LIMIT in a union's parts only so.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.core.exceptions import EmptyResultSet
from django.db.models import QuerySet
from django.db.models.sql.compiler import SQLCompiler


@dataclass
class Union:
    """The SQL of several labelled reads as one, and how to split its rows again."""

    sql: str
    params: list
    labels: tuple[str, ...]  # every read's label, those that can find nothing too
    compilers: dict[str, SQLCompiler]  # the reads that are sent

    def split(self, rows: list[tuple]) -> dict[str, list[tuple]]:
        """Each read's rows, by its label, with that read's converters applied."""
        found: dict[str, list[tuple]] = {label: [] for label in self.labels}
        for row in rows:
            found[row[0]].append(row[1:])
        for label, compiler in self.compilers.items():
            converters = compiler.get_converters([expression for expression, _sql, _alias in compiler.select])
            if converters:
                found[label] = [tuple(row) for row in compiler.apply_converters(found[label], converters)]
        return found


def union_of(reads: Mapping[str, QuerySet]) -> Union:
    """The reads' SQL as one `UNION ALL` (`labelled_union` sends it); the checks of `labelled_union`."""
    parts, params, compilers = [], [], {}
    for n, (label, queryset) in enumerate(reads.items()):
        compiler = queryset.query.get_compiler(using=queryset.db)
        try:
            sql, part_params = compiler.as_sql()
        except EmptyResultSet:  # a read that can find nothing ([:0], pk__in=[]) is not sent
            continue
        if compiler.has_extra_select:  # e.g. DISTINCT with an ORDER BY column it does not return
            raise ValueError(f"{label}: reads more columns than it returns")
        compilers[label] = compiler
        parts.append(f"SELECT %s, part_{n}.* FROM ({sql}) part_{n}")
        params += [label, *part_params]
    if len({c.using for c in compilers.values()}) > 1:
        raise ValueError("labelled_union reads one database")
    return Union(" UNION ALL ".join(parts), params, tuple(reads), compilers)


def labelled_union(reads: Mapping[str, QuerySet]) -> dict[str, list[tuple]]:
    """Each read's rows, by its label, as `values_list` would give them. The reads are `values_list`
    querysets of as many columns each, sliced or not, on one database; each read's own converters are
    applied (SQLite's datetimes and dates come back as text without them).

    Each read keeps its order in practice: PostgreSQL appends a union's parts one after the other,
    each run whole by one process, and SQLite runs them in turn. Where a page's order must not rest on
    that, the caller sorts (the front page's leaders and cup do)."""
    union = union_of(reads)
    if not union.compilers:
        return union.split([])
    first: SQLCompiler = next(iter(union.compilers.values()))
    with first.connection.cursor() as cursor:
        cursor.execute(union.sql, union.params)
        return union.split(cursor.fetchall())
