"""The match lists' lines (league/_match_lines.html) as a reader sees them, in Norwegian: a result,
a fixture with its date, a cup match, a bye, a team not yet known, a forfeit (W.O.), and names that are text."""

import datetime

from django.template.loader import render_to_string
from django.utils import translation

from tests.html_tables import list_items


def row(pk, home, away, *, status="scheduled", score=(None, None), cup_id=None, date=None, forfeited_by_id=None):
    return {
        "forfeited_by_id": forfeited_by_id,
        "id": pk,
        "home_name": home,
        "away_name": away,
        "status": status,
        "home_score": score[0],
        "away_score": score[1],
        "cup_id": cup_id,
        "date": date,
    }


def test_each_line_reads_as_the_match_stands():
    trolls, saints = "Torshov Trolls", 'Sagene <b>"Saints"</b> & Co'
    rows = [
        row(10, trolls, saints, status="confirmed", score=(2, 1)),
        row(11, saints, trolls, date=datetime.date(2026, 11, 24)),
        row(12, trolls, None, status="scheduled", cup_id=3),
        row(13, saints, None, status="bye", cup_id=3),
        row(14, saints, trolls, status="confirmed", score=(0, 2), forfeited_by_id=5),
    ]
    with translation.override("nb"):
        html = render_to_string("league/_match_lines.html", {"matches": rows})
    assert list_items(html) == [
        ('Torshov Trolls 2–1 Sagene <b>"Saints"</b> & Co', "/matches/10/"),
        ('Sagene <b>"Saints"</b> & Co – Torshov Trolls 24. nov.', "/matches/11/"),
        ("Torshov Trolls – ? Cup", "/matches/12/"),  # the other semi-final is not played yet
        ('Sagene <b>"Saints"</b> & Co – (frirunde) Cup', "/matches/13/"),
        ('Sagene <b>"Saints"</b> & Co 0–2 W.O. Torshov Trolls', "/matches/14/"),  # a forfeit (R46)
    ]
