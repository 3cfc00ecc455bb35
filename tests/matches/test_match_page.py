"""The match read at a glance (issue 26): each team's players under its own name with their MVP and SPP,
and each die beside what it gave, read from the stored rows in the page's old number of queries."""

import pytest
from django.core.cache import cache
from django.urls import reverse

from matches.postmatch.injury_step import injuries
from matches.postmatch.mvp import mvp
from matches.postmatch.steps import stadium, winnings
from tests.html_tables import table_rows
from tests.matches.test_postmatch import build_played

pytestmark = pytest.mark.django_db


class TestThePlayedMatch:
    """build_played(): Torshov Trolls beat Sagene Saints 2-1, each team through its MVP (built once)."""

    @classmethod
    def setUpTestData(cls):
        cls.played = match, home, away, _h, _a = build_played()
        # the numbers of tests/matches/test_postmatch.py's whole sequence, worked out there from the tables
        winnings(match, home, roll=[4], kiosk=[3], by=None)  # 70,000 and a kiosk's 10,000 (R19-R21)
        winnings(match, away, roll=[2], by=None)  # 30,000
        for team in (home, away):
            injuries(match, team, by=None)  # no Bandage Crew: the dead Lineman stays dead (R25)
            stadium(match, team, by=None)
        mvp(match, home, roll=[2], by=None)  # D2 shows 2: #2, the second who earned SPP (R27)
        mvp(match, away, roll=[1], by=None)  # #1, the only one with SPP

    def page(self, client) -> str:
        return client.get(reverse("match", args=[self.played[0].pk])).content.decode()

    def test_each_team_has_its_players_under_its_own_name(self, client):
        _match, home, away, h, a = self.played
        html = self.page(client)
        home_part = html[html.index(f'<h3 class="report-team">{home.name}</h3>') :]
        away_part = home_part[home_part.index(f'<h3 class="report-team">{away.name}</h3>') :]
        home_part = home_part[: home_part.index(away_part)]
        # the report has a line for each player who did or suffered something, by number
        assert [r.texts()[:2] for r in table_rows(home_part, "report-lines")[1:]] == [
            [str(p.number), p.name] for p in h[:2]
        ]
        assert [r.texts()[:2] for r in table_rows(away_part, "report-lines")[1:]] == [
            [str(p.number), p.name] for p in a[:2]
        ]
        dead = table_rows(away_part, "report-lines")[2]
        assert dead.cells[10].text == f"Dead ({h[1]})"  # killed by the home MVP, in his own card's line

    def test_the_mvp_column_and_each_lines_spp(self, client):
        h = self.played[3]
        html = self.page(client)
        rows = {r.cells[1].text: r for r in table_rows(html, "report-lines")[1:]}
        header = [c.text for c in table_rows(html, "report-lines")[0].cells]
        assert header[8:10] == ["MVP", "SPP"]

        def shown(player, label):
            return next(c.text for c in rows[player.name].cells if c.attrs.get("data-label") == label)

        # R28: a casualty 2 SPP, the MVP 5, a touchdown 3
        assert (shown(h[1], "MVP"), shown(h[1], "SPP")) == ("1", "7")
        assert (shown(h[0], "MVP"), shown(h[0], "SPP")) == ("0", "6")

    def test_each_die_says_what_it_gave(self, client):
        _match, home, away, h, a = self.played
        results = {r.cells[0].text: r.cells[2].text for r in table_rows(self.page(client), "dice-table")[1:] if r.cells}
        # weather 3 + 4 = 7: nice weather on the ruleset's table (4-10); gates as tests/matches/test_postmatch.py
        # works them out from R13: home 3D6 + 1 each = 12,000, away 2D6 - 1 each = 6,000
        assert results["Weather"] == "Fint vær"
        assert results[f"Gate · {home.name}"] == "12,000 spectators"
        assert results[f"Gate · {away.name}"] == "6,000 spectators"
        assert results[f"Winnings · {home.name}"] == "70,000"
        assert results[f"Winnings · {away.name}"] == "30,000"
        assert results[f"Kiosk · {home.name}"] == "10,000"
        assert results[f"MVP · {home.name}"] == str(h[1])
        assert results[f"MVP · {away.name}"] == str(a[0])

    def test_in_norwegian_too(self, client):
        client.cookies["django_language"] = "nb"
        html = self.page(client)
        assert "<th>Resultat</th>" in html and "12\xa0000 tilskuere" in html  # a no-break space, as money() writes

    def test_the_page_reads_in_as_many_queries_as_before(self, client, django_assert_max_num_queries):
        url = reverse("match", args=[self.played[0].pk])
        client.get(url)  # warm: the parsed ruleset, the per-version catalogue
        cache.clear()  # counted uncached
        # ten, as before issue 26: the post-match rows (the dice's winnings, MVP) are one read more, and the
        # ruleset and the pre-match, read with the match, one less; and the dates proposed, kept in the
        # history since issue 27, one more
        with django_assert_max_num_queries(11):
            assert client.get(url).status_code == 200
