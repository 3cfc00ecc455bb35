"""The cup page's bracket as a reader reads it (R34): a box a tie, both teams with their scores, the team
that went on bold and marked "videre" in words; a bye says "frirunde" and sends its team on; a drawn tie
names who went on after the tiebreak; a tie not drawn yet waits for teams "ikke klart ennå"."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse

from league.seasons.services.cup import draw_cup
from matches.playthrough import walk_prematch
from matches.report.confirmation import confirm_report
from matches.report.filing import ReportInput, file_report

pytestmark = pytest.mark.django_db


@dataclass
class Side:
    text: str = ""
    winner: bool = False  # drawn in bold (the class that sets it)


@dataclass
class Tie:
    round: str
    link: str | None
    sides: list[Side] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


class _Bracket(HTMLParser):
    """The bracket's ties in the page's order, each with the round's heading above it."""

    def __init__(self) -> None:
        super().__init__()
        self.ties: list[Tie] = []
        self.round = ""
        self.open: list[str] = []  # the classes of the elements open inside a tie
        self.in_heading = False

    def handle_starttag(self, tag, attrs):
        classes = (dict(attrs).get("class") or "").split()
        if tag == "h3":
            self.in_heading, self.round = True, ""
        elif tag == "li" and "tie" in classes:
            self.ties.append(Tie(self.round, None))
            self.open = []
        elif self.ties and self.open is not None:
            tie = self.ties[-1]
            if tag == "a" and "tie__box" in classes:
                tie.link = dict(attrs)["href"]
            if "tie__team" in classes:
                tie.sides.append(Side(winner="tie__team--winner" in classes))
            if "tie__note" in classes:
                tie.notes.append("")
            self.open.append(" ".join(classes))

    def handle_endtag(self, tag):
        if tag == "h3":
            self.in_heading = False
        elif tag == "li":
            self.open = None
        elif self.open:
            self.open.pop()

    def handle_data(self, data):
        if self.in_heading:
            self.round += data.strip()
        elif self.ties and self.open:
            tie = self.ties[-1]
            if any("tie__note" in c for c in self.open):
                tie.notes[-1] = " ".join((tie.notes[-1] + data).split())
            elif any("tie__team" in c for c in self.open):
                tie.sides[-1].text = " ".join((tie.sides[-1].text + " " + data).split())


def bracket(season) -> list[Tie]:
    client = Client()
    client.cookies["django_language"] = "nb"
    parser = _Bracket()
    parser.feed(client.get(reverse("cup", args=[season.pk])).content.decode())
    return parser.ties


def test_a_drawn_tie_names_the_team_through_after_the_tiebreak(season_with, board_member):
    season, teams = season_with(2, 2)
    cup = draw_cup(season, teams=teams, name="Cup", prize=0, order=[t.pk for t in teams], by=board_member)
    match = cup.matches.get(round=1, cup_slot=0)
    walk_prematch(match)
    file_report(match, ReportInput(home_score=1, away_score=1, tiebreak_winner_id=match.away_id), by=board_member)
    confirm_report(match, by=board_member)
    home, away = match.home.name, match.away.name

    drawn, other, final = bracket(season)
    assert drawn.round == "Semifinale" and drawn.link == reverse("match", args=[match.pk])
    assert [(s.text, s.winner) for s in drawn.sides] == [(f"{home} 1", False), (f"{away} 1 videre", True)]
    assert drawn.notes == [f"1–1, {away} videre etter tiebreak"]
    assert not any(s.winner for s in other.sides) and "videre" not in str(other)  # not played yet
    assert final.round == "Finale" and final.link == reverse("match", args=[cup.matches.get(round=2).pk])
    assert [s.text for s in final.sides] == [away, "ikke klart ennå"]


def test_a_bye_sends_its_team_on_and_says_frirunde(season_with, board_member):
    season, teams = season_with(2, 1)
    cup = draw_cup(season, teams=teams, name="Cup", prize=0, order=[t.pk for t in teams], by=board_member)
    bye = cup.matches.get(round=1, cup_slot=0)

    ties = bracket(season)
    assert [t.round for t in ties] == ["Semifinale", "Semifinale", "Finale"]
    assert [(s.text, s.winner) for s in ties[0].sides] == [(f"{bye.home.name} videre", True), ("frirunde", False)]
    assert ties[0].notes == []  # no score and no "walkover": a bye is no forfeit (R46)
    assert [s.text for s in ties[2].sides] == [bye.home.name, "ikke klart ennå"]


def test_every_round_has_a_box_for_each_of_its_ties_before_its_teams_are_known(season_with, board_member):
    season, teams = season_with(4, 4)
    draw_cup(season, teams=teams, name="Cup", prize=0, by=board_member)
    rounds = [t.round for t in bracket(season)]
    assert rounds == ["Kvartfinale"] * 4 + ["Semifinale"] * 2 + ["Finale"]
    open_ties = [t for t in bracket(season) if t.link is None]
    assert len(open_ties) == 3 and all(s.text == "ikke klart ennå" for t in open_ties for s in t.sides)
