"""A page's table rows as a reader sees them: each cell's text and attributes, parsed from the HTML
(the standard library's parser), so a test holds what is shown, not how the server wrote it."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser


@dataclass
class Cell:
    text: str = ""
    attrs: dict[str, str] = field(default_factory=dict)
    links: list[str] = field(default_factory=list)


@dataclass
class Row:
    attrs: dict[str, str]
    cells: list[Cell] = field(default_factory=list)

    def texts(self) -> list[str]:
        return [cell.text for cell in self.cells]


class _Rows(HTMLParser):
    def __init__(self, table_class: str) -> None:
        super().__init__()
        self.table_class, self.depth, self.rows = table_class, 0, []
        self.cell: Cell | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {k: v or "" for k, v in attrs}
        if tag == "table" and (self.depth or self.table_class in found.get("class", "").split()):
            self.depth += 1
        elif self.depth and tag == "tr":
            self.rows.append(Row(found))
        elif self.depth and tag in ("td", "th") and self.rows:
            self.cell = Cell(attrs=found)
            self.rows[-1].cells.append(self.cell)
        elif self.cell is not None and tag == "a":
            self.cell.links.append(found.get("href", ""))

    def handle_endtag(self, tag: str) -> None:
        if tag == "table" and self.depth:
            self.depth -= 1
        elif tag in ("td", "th") and self.cell is not None:
            self.cell.text = " ".join(self.cell.text.split())
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.text += data


def table_rows(html: str, table_class: str) -> list[Row]:
    """The rows (header and body) of the tables with this class, entities decoded."""
    parser = _Rows(table_class)
    parser.feed(html)
    return parser.rows


class _Items(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.items: list[list] = []
        self.open = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "li":
            self.items.append(["", None])
            self.open = True
        elif tag == "a" and self.open and self.items[-1][1] is None:
            self.items[-1][1] = dict(attrs).get("href")

    def handle_endtag(self, tag: str) -> None:
        if tag == "li":
            self.open = False

    def handle_data(self, data: str) -> None:
        if self.open:
            self.items[-1][0] += data


def list_items(html: str) -> list[tuple[str, str | None]]:
    """Each list item's text (spaces collapsed, entities decoded) and its first link."""
    parser = _Items()
    parser.feed(html)
    return [(" ".join(text.split()), href) for text, href in parser.items]
