"""Pages of rows that grow without end (a player's matches, a team's matches, the ledger): one
query per page and no COUNT, so page 1 of a 10-year career costs what page 1 of a new one does."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from league.lib.inputs import query_id


class SlicePage:
    """`size` rows from `(number - 1) * size`, reading one more to know whether a next page exists."""

    def __init__(self, rows: Any, number: str | int | None, size: int = 20) -> None:
        # not a page number (x, -1, ², empty): the first page; past a million: the millionth
        self.number = min(query_id(str(number)) or 1, 10**6) if number else 1
        self.size = size
        start = (self.number - 1) * size
        fetched = list(rows[start : start + size + 1])
        self.object_list = fetched[:size]
        self._more = len(fetched) > size

    def __iter__(self) -> Iterator[Any]:
        return iter(self.object_list)

    def __len__(self) -> int:
        return len(self.object_list)

    def __getitem__(self, index: int) -> Any:
        return self.object_list[index]

    def __bool__(self) -> bool:
        return bool(self.object_list) or self.number > 1

    def has_next(self) -> bool:
        return self._more

    def has_previous(self) -> bool:
        return self.number > 1

    def has_other_pages(self) -> bool:
        return self.has_next() or self.has_previous()

    def next_page_number(self) -> int:
        return self.number + 1

    def previous_page_number(self) -> int:
        return self.number - 1

    def start_index(self) -> int:
        return (self.number - 1) * self.size + 1
