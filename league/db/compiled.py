"""Reads compiled once per database connection (issue 16).

A public page sends the same few reads on every request, different only in their arguments (a
season's id, a division's level). Django builds and compiles each queryset anew, and for the front
page's short reads that cost more than the database's answer. A function that builds such a read
(a `values_list` queryset, or several labelled ones for `league.db.union`), decorated `@compiled`,
is built and compiled on its first call on a connection; later calls send the same SQL with their
own arguments, and get what the queryset would give (`list(queryset)`, or `labelled_union`'s dict).

The positional arguments are ints or strings that reach the SQL unchanged as bound parameters, and
the read's SQL must not depend on them (no slice, no list, no None). The first call checks both: it
compiles the read a second time with other arguments, and refuses a read whose SQL changes or whose
parameters are neither constants nor the arguments. An argument Django leaves out of the SQL (a
number out of its column's range: "never", or "always") is read as Django reads it, and nothing is
kept. The build function's keyword-only arguments choose the read's shape (a slice's length, a part
of a union or not): each shape is compiled once. The compiled reads are kept on the connection, and
go with it.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import EmptyResultSet
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import QuerySet
from django.db.models.query import ValuesListIterable

from league.db.union import Union, labelled_union, union_of

Read = QuerySet | Mapping[str, QuerySet]


@dataclass
class _Compiled:
    sql: str
    slots: list[tuple[int | None, Any]]  # each parameter: the argument's index, or None and the constant
    finish: Callable[[list[tuple]], Any]  # the rows as the queryset (or the union) would give them


def compiled(build: Callable[..., Read]) -> Callable[..., Any]:
    parameters = inspect.signature(build).parameters.values()
    shapes = {p.name for p in parameters if p.kind is inspect.Parameter.KEYWORD_ONLY}

    @functools.wraps(build)
    def read(*args: int | str, **shape: Any) -> Any:
        if not shape.keys() <= shapes:
            raise TypeError(f"{build.__qualname__}: its arguments go by position, its shape by keyword")
        connection = connections[DEFAULT_DB_ALIAS]
        kept = connection.__dict__.setdefault("compiled_reads", {})
        key = (read, *sorted(shape.items()))
        done = kept.get(key)
        if done is None:
            done = _compile(functools.partial(build, **shape), args)
            if done is None:
                return _read_once(build(*args, **shape))
            kept[key] = done
        if not done.sql:  # it finds nothing whatever the arguments (a slice [:0], a union of no part)
            return done.finish([])
        params = [args[index] if index is not None else constant for index, constant in done.slots]
        with connection.cursor() as cursor:
            cursor.execute(done.sql, params)
            return done.finish(cursor.fetchall())

    return read


def _read_once(read: Read) -> Any:
    """The read as Django sends it, compiled for this call alone."""
    return list(read) if isinstance(read, QuerySet) else labelled_union(read)


def _probe(value: int | str, index: int, step: int) -> int | str:
    """Another value of the same kind for each argument, to tell its parameters from the constants
    (and from another argument's, were their values the same). Near the value, above or below it
    (`step`): Django turns a lookup with a number out of its column's range into "never" or "always"."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise TypeError(f"a compiled read takes ints and strings, not {value!r}")
    return value + step * (1 + index) if isinstance(value, int) else f"{value}\u2063{index}"


def _sql(read: Read) -> tuple[str, list, Callable[[list[tuple]], Any]]:
    for queryset in [read] if isinstance(read, QuerySet) else read.values():
        if queryset._iterable_class is not ValuesListIterable or queryset._prefetch_related_lookups:
            raise TypeError("a compiled read is a values_list of tuples (not flat, not named), with no prefetch")
    if isinstance(read, QuerySet):
        if read.db != DEFAULT_DB_ALIAS:
            raise ValueError("a compiled read reads the default database")
        compiler = read.query.get_compiler(using=read.db)
        try:
            sql, params = compiler.as_sql()
        except EmptyResultSet:  # it can find nothing, whatever the arguments (a slice [:0])
            return "", [], lambda rows: []
        columns = compiler.col_count
        converters = compiler.get_converters([s[0] for s in compiler.select[:columns]])

        def finish(rows: list[tuple]) -> list[tuple]:
            if compiler.has_extra_select:
                rows = [row[:columns] for row in rows]
            return [tuple(row) for row in compiler.apply_converters(rows, converters)] if converters else rows

        return sql, list(params), finish
    union: Union = union_of(read)
    if any(c.using != DEFAULT_DB_ALIAS for c in union.compilers.values()):
        raise ValueError("a compiled read reads the default database")
    return union.sql, union.params, union.split


def _compile(build: Callable[..., Read], args: tuple) -> _Compiled | None:
    """The read's SQL with a slot for each parameter; None when Django left an argument out of the SQL
    for its value (nothing to keep: the read is sent as Django sends it)."""
    done = _slotted(build, args)
    used = {index for index, _constant in done.slots if index is not None}
    plain = tuple(1 + i if isinstance(a, int) else a for i, a in enumerate(args))  # in any column's range
    if plain != args and {index for index, _c in _slotted(build, plain).slots if index is not None} - used:
        return None
    return done


def _slotted(build: Callable[..., Read], args: tuple) -> _Compiled:
    sql, params, finish = _sql(build(*args))
    for step in (1, -1):  # a probe past its column's range changes the SQL: try the other side
        probes = tuple(_probe(a, i, step) for i, a in enumerate(args))
        other_sql, other_params, _finish = _sql(build(*probes))
        if other_sql == sql and len(other_params) == len(params):
            break
    else:
        raise ValueError(f"{_name(build)}: its SQL depends on its arguments")
    slots: list[tuple[int | None, Any]] = []
    for value, other in zip(params, other_params, strict=True):
        if value == other:
            slots.append((None, value))
            continue
        index = next((i for i, (a, p) in enumerate(zip(args, probes, strict=True)) if (a, p) == (value, other)), None)
        if index is None:
            raise ValueError(f"{_name(build)}: a parameter that is neither a constant nor an argument")
        slots.append((index, None))
    return _Compiled(sql, slots, finish)


def _name(build: Callable[..., Read]) -> str:
    return getattr(getattr(build, "func", build), "__qualname__", repr(build))
