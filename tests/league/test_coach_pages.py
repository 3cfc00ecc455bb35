"""A coach's page, his head-to-head against another coach and the league's champions (league.views.coaches),
and an ended season's page as the archive: each number read again here from the kept rows (the matches,
the ledger's prize lines, the cup's final), coaches named to a visitor by their teams only."""

import re

import pytest
from django.db.models import Q
from django.urls import reverse

from league.models import Season, SeasonEntry
from league.seasons.services.cup import draw_cup
from league.seasons.services.fixtures import generate_fixtures
from league.seasons.services.season_end import commit_season_end
from matches.models import Match
from matches.report.confirmation import void_match
from matches.results import record_forfeit
from teams.models import Team, TreasuryEntry
from tests import factories
from tests.html_tables import table_rows
from tests.results import record_result

pytestmark = pytest.mark.django_db


def _page(client, url):
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def _outcome(m, team_ids):
    """S, U or T for the side of `team_ids` in a confirmed match: the score, a drawn cup match going to
    its tiebreak winner (R34), a forfeit as its awarded score (R35)."""
    mine, theirs = (m.home_score, m.away_score) if m.home_id in team_ids else (m.away_score, m.home_score)
    if mine != theirs:
        return "S" if mine > theirs else "T"
    if m.tiebreak_winner_id:
        return "S" if m.tiebreak_winner_id in team_ids else "T"
    return "U"


def _expected_record(coach, season=None, against=None):
    """(played, S, U, T, "TD for–against") of the coach's teams, from the confirmed matches themselves."""
    ids = set(Team.objects.filter(coach=coach).values_list("pk", flat=True))
    matches = Match.objects.filter(status=Match.Status.CONFIRMED).filter(Q(home_id__in=ids) | Q(away_id__in=ids))
    if season is not None:
        matches = matches.filter(season=season)
    if against is not None:
        theirs = set(Team.objects.filter(coach=against).values_list("pk", flat=True))
        matches = matches.filter(Q(home_id__in=theirs) | Q(away_id__in=theirs))
    letters = [_outcome(m, ids) for m in matches]
    scored = sum(m.home_score if m.home_id in ids else m.away_score for m in matches)
    let_in = sum(m.away_score if m.home_id in ids else m.home_score for m in matches)
    return [str(len(letters)), *(str(letters.count(x)) for x in "SUT"), f"{scored}–{let_in}"]


class TestAnEndedSeason:
    """Season 1: A and B in the 1st division, C and D in the 2nd, each team its own coach; Kari coaches
    A (and a second team that has played no season). The league: A–B 2–1, B–A 1–1, C–D 0–1, D–C 3–0.
    The cup (A, C, B, D drawn in that order): A–C 1–1 won by A on the tiebreak, B–D 0–2, the final A–D
    2–0. Then the season end."""

    @classmethod
    def setUpTestData(cls):
        cls.board = factories.user("styret", board=True, coach=False)
        cls.season, (a, b, c, d) = factories.season_with(2, 2)
        cls.teams = (a, b, c, d)
        cls.kari = a.coach
        cls.kari.first_name, cls.kari.last_name, cls.kari.email = "Kari", "Nordmann", "kari@example.org"
        cls.kari.save()
        cls.second = factories.human_team(cls.kari, name="Karis andre lag")
        for division in cls.season.divisions.all():
            generate_fixtures(division)
        scores = {(a, b): (2, 1), (b, a): (1, 1), (c, d): (0, 1), (d, c): (3, 0)}
        for (home, away), (hs, aws) in scores.items():
            match = Match.objects.get(season=cls.season, home=home, away=away)
            record_result(match, home_score=hs, away_score=aws, by=cls.board)
        cup = draw_cup(
            cls.season,
            teams=[a, c, b, d],
            name="Torshov-cupen",
            prize=50_000,
            order=[a.pk, c.pk, b.pk, d.pk],
            by=cls.board,
        )
        semi_ac = Match.objects.get(cup=cup, round=1, home__in=[a, c])
        record_result(semi_ac, home_score=1, away_score=1, tiebreak_winner_id=a.pk, by=cls.board)
        semi_bd = Match.objects.get(cup=cup, round=1, home__in=[b, d])
        home_d = semi_bd.home_id == d.pk
        record_result(semi_bd, home_score=2 if home_d else 0, away_score=0 if home_d else 2, by=cls.board)
        final = Match.objects.get(cup=cup, round=2)
        home_a = final.home_id == a.pk
        record_result(final, home_score=2 if home_a else 0, away_score=0 if home_a else 2, by=cls.board)
        cls.next_season_pk = commit_season_end(cls.season, by=cls.board, next_name="Sesong 2").pk

    def test_the_record_by_season_is_the_confirmed_matches_league_and_cup(self, client):
        html = _page(client, reverse("coach", args=[self.kari.pk]))
        rows = [row.texts() for row in table_rows(html, "coach-seasons")]
        assert rows[0] == ["Sesong", "Lag", "K", "S", "U", "T", "TD"]
        season_row, total = rows[1], rows[-1]
        assert season_row[0] == self.season.name and season_row[2:] == _expected_record(self.kari, self.season)
        assert total == ["Totalt", *_expected_record(self.kari)]
        assert total[1:5] == ["4", "3", "1", "0"]  # the book's count of the story above, as a check of the check
        assert 'role="img"' in html and "record-chart__won" in html  # the chart, whose numbers are the table's

    def test_the_teams_past_and_present_are_linked(self, client):
        html = _page(client, reverse("coach", args=[self.kari.pk]))
        rows = table_rows(html, "coach-teams-table")
        named = {row.cells[0].text: row.cells[0].links for row in rows[1:]}
        assert named == {t.name: [reverse("team", args=[t.pk])] for t in Team.objects.filter(coach=self.kari)}
        entered = SeasonEntry.objects.filter(team=self.teams[0]).order_by("season__created_at")
        seasons = ", ".join(e.season.name for e in entered)  # this season and the next the end made
        assert [row.texts()[2] for row in rows[1:] if row.cells[0].text == self.teams[0].name] == [seasons]
        assert [row.texts()[2] for row in rows[1:] if row.cells[0].text == "Karis andre lag"] == ["—"]

    def test_titles_and_prizes_are_what_the_season_end_gave_his_teams(self, client):
        html = _page(client, reverse("coach", args=[self.kari.pk]))
        titles = [
            " ".join(re.sub(r"<[^>]+>", "", li).split())
            for li in html.split('id="coach-title-list"')[1].split("</ul>")[0].split("<li>")[1:]
        ]
        assert titles == [
            f"{self.season.name}: vinner av 1st division med {self.teams[0].name}",
            f"{self.season.name}: cupvinner (Torshov-cupen) med {self.teams[0].name}",
        ]
        prizes = [row.texts() for row in table_rows(html, "coach-prizes")][1:]
        paid = TreasuryEntry.objects.filter(team__coach=self.kari, kind=TreasuryEntry.Kind.PRIZE).order_by("pk")
        assert [int(row[3].replace("\u00a0", "").replace(" ", "")) for row in prizes] == [e.amount for e in paid]
        assert len(prizes) == 2  # the 1st division's first place and the cup

    def test_a_coach_without_a_title_says_so(self, client):
        html = _page(client, reverse("coach", args=[self.teams[1].coach_id]))  # B: second in the 1st division
        assert "Ingen titler ennå." in html

    @pytest.mark.parametrize("other", [1, 2, 3])
    def test_the_head_to_head_is_their_teams_matches(self, client, other):
        them = self.teams[other].coach
        url = reverse("coach_vs", args=[self.kari.pk, them.pk])
        html = _page(client, url)
        summary = [row.texts() for row in table_rows(html, "vs-summary")]
        assert summary[1] == _expected_record(self.kari, against=them)
        listed = table_rows(html, "vs-match-list")[1:]
        met = Match.objects.confirmed().filter(
            Q(home__coach=self.kari, away__coach=them) | Q(home__coach=them, away__coach=self.kari)
        )
        assert sorted(row.cells[2].links[0] for row in listed) == sorted(m.get_absolute_url() for m in met)

    def test_the_coach_page_chooses_the_other_coach_by_a_plain_get_form(self, client):
        them = self.teams[3].coach
        response = client.get(reverse("coach_vs_pick", args=[self.kari.pk]), {"other": str(them.pk)})
        assert response.status_code == 302 and response["Location"] == reverse("coach_vs", args=[self.kari.pk, them.pk])
        assert client.get(reverse("coach_vs_pick", args=[self.kari.pk]), {"other": "x"})["Location"] == reverse(
            "coach", args=[self.kari.pk]
        )

    def test_a_visitor_never_reads_a_username_an_address_or_a_name(self, client):
        pages = [
            reverse("coach", args=[self.kari.pk]),
            reverse("coach_vs", args=[self.kari.pk, self.teams[1].coach_id]),
            reverse("champions"),
            self.season.get_absolute_url(),
            reverse("team", args=[self.teams[0].pk]),
        ]
        usernames = [t.coach.username for t in self.teams]
        for url in pages:
            html = _page(client, url)
            assert [u for u in usernames if u in html] == [], url
            assert "kari@example.org" not in html and "Nordmann" not in html, url
        html = _page(client, pages[0])
        assert f"<h1>Treneren for Karis andre lag, {self.teams[0].name}</h1>" in html  # by name

    def test_a_member_reads_the_display_name(self, client):
        client.force_login(self.teams[1].coach)
        html = _page(client, reverse("coach", args=[self.kari.pk]))
        assert "<h1>Kari Nordmann</h1>" in html and "kari@example.org" not in html

    def test_the_champions_page_names_each_division_winner_and_the_cup_winner(self, client):
        html = _page(client, reverse("champions"))
        rows = table_rows(html, "champions")
        assert rows[0].texts() == ["Sesong", "Tittel", "Lag", "Trener"]
        # read again: the top of each division by points, and the cup final's winner
        expected = []
        for division in self.season.divisions.order_by("level"):
            top = max(
                (t for t in self.teams if t.season_entries.get(season=self.season).division_id == division.pk),
                key=lambda t: t.season_stats.get(season=self.season, competition="league").points,
            )
            expected.append(top)
        final = Match.objects.get(cup__season=self.season, round=2)
        expected.append(Team.objects.get(pk=final.winner_id))
        assert [row.cells[2].links for row in rows[1:]] == [[reverse("team", args=[t.pk])] for t in expected]
        assert [row.cells[3].links for row in rows[1:]] == [[reverse("coach", args=[t.coach_id])] for t in expected]
        assert [row.texts()[1] for row in rows[1:]] == ["Vinner, 1st division", "Vinner, 2nd division", "Torshov-cupen"]

    def test_the_seasons_list_and_the_footer_link_the_champions(self, client):
        assert reverse("champions") in _page(client, reverse("seasons"))
        assert reverse("champions") in _page(client, reverse("home"))

    def test_the_ended_seasons_page_shows_its_end_and_no_write_forms(self, client):
        html = _page(client, self.season.get_absolute_url())
        assert "Sesongslutten" in html and "Vinner av Torshov-cupen" in html
        prizes = [row.texts() for row in table_rows(html, "season-prizes")][1:]
        paid = TreasuryEntry.objects.filter(kind=TreasuryEntry.Kind.PRIZE, cause_id=self.season.pk)
        assert len(prizes) == paid.count() == 5  # 1st division 60/40/…, 2nd 30/10, the cup (R32, R34)
        _a, b, _c, d = self.teams
        moves = " ".join(html.split('id="season-moves"')[1].split("</p>")[0].split())
        assert f'Rykket opp: <a href="{reverse("team", args=[d.pk])}">{d.name}</a>' in moves
        assert f'Rykket ned: <a href="{reverse("team", args=[b.pk])}">{b.name}</a>' in moves
        client.force_login(self.board)
        board_html = _page(client, self.season.get_absolute_url())
        for name in ("season_add_fixture", "season_fixtures", "season_division_teams"):
            for division in self.season.divisions.all():
                assert reverse(name, args=[self.season.pk, division.pk]) not in board_html, name
        assert reverse("cup_draw", args=[self.season.pk]) not in board_html
        assert "Sesongen er avsluttet: tabellene er historie (R31)." in board_html

    def test_the_ended_seasons_winners_link_their_coach_without_naming_the_team_twice(self, client):
        """To a visitor, coaches' names are private (sees_private): the link reads "trenerens side", not
        "Team (treneren for Team)"."""
        html = _page(client, self.season.get_absolute_url())
        end = html.split('id="season-end"')[1].split("</section>")[0]
        assert "trenerens side</a>)" in end and "treneren for" not in end
        client.force_login(self.board)
        member = _page(client, self.season.get_absolute_url()).split('id="season-end"')[1].split("</section>")[0]
        assert "trenerens side" not in member and f">{self.kari.get_full_name() or self.kari.username}</a>)" in member

    def test_a_running_seasons_page_has_no_end_yet(self, client):
        assert "Sesongslutten" not in _page(client, reverse("season", args=[self.next_season_pk]))

    def test_the_pages_read_a_few_queries(self, client, django_assert_max_num_queries):
        for url, budget in (
            (
                reverse("coach", args=[self.kari.pk]),
                8,
            ),  # the version, the name; teams, entries, kept rows, ends, team names, coaches
            (reverse("coach_vs", args=[self.kari.pk, self.teams[3].coach_id]), 4),  # version, names; coaches, matches
            (reverse("champions"), 3),  # the version, the ends, their teams
        ):
            with django_assert_max_num_queries(budget):
                _page(client, url)

    def test_unknown_coaches_and_a_coach_against_himself_are_not_found(self, client):
        assert client.get(reverse("coach", args=[self.board.pk])).status_code == 404  # no team: no career
        assert client.get(reverse("coach", args=[987654])).status_code == 404
        assert client.get(reverse("coach_vs", args=[self.kari.pk, self.kari.pk])).status_code == 404
        assert client.get(reverse("coach_vs", args=[self.kari.pk, self.board.pk])).status_code == 404


def _ended_seasons(n):
    """n seasons in a row, each played and ended: the team first made wins its home match 2–0 and draws
    the other 1–1, so each division has its champion."""
    board = factories.user("styret", board=True, coach=False)
    season, _teams = factories.season_with(2, 2)
    for _ in range(n):
        for division in season.divisions.all():
            generate_fixtures(division)
        for match in Match.objects.filter(season=season):
            first_at_home = match.home_id < match.away_id
            record_result(match, home_score=2 if first_at_home else 1, away_score=0 if first_at_home else 1, by=board)
        season = commit_season_end(season, by=board, next_name=f"{season.name}+")
    return season


@pytest.mark.parametrize("seasons", [1, 3])
def test_the_query_budget_holds_whatever_the_number_of_seasons(client, seasons, django_assert_max_num_queries):
    _ended_seasons(seasons)
    coach = Team.objects.order_by("pk").first().coach
    with django_assert_max_num_queries(8):
        _page(client, reverse("coach", args=[coach.pk]))
    with django_assert_max_num_queries(3):
        html = _page(client, reverse("champions"))
    assert len(table_rows(html, "champions")) == 1 + 2 * seasons  # two divisions' champions a season, no cup
    assert Season.objects.filter(status=Season.Status.FINISHED).count() == seasons


def test_a_void_takes_the_match_out_of_the_record_and_the_head_to_head(client, board_member):
    match = factories.league_match()
    record_result(match, home_score=3, away_score=1, by=board_member)
    home, away = match.home.coach, match.away.coach
    coach_url, vs_url = reverse("coach", args=[home.pk]), reverse("coach_vs", args=[home.pk, away.pk])
    total = [row.texts() for row in table_rows(_page(client, coach_url), "coach-seasons")][-1]
    assert total == ["Totalt", "1", "1", "0", "0", "3–1"] == ["Totalt", *_expected_record(home)]
    void_match(match, by=board_member)
    total = [row.texts() for row in table_rows(_page(client, coach_url), "coach-seasons")][-1]
    assert total == ["Totalt", "0", "0", "0", "0", "0–0"] == ["Totalt", *_expected_record(home)]
    html = _page(client, vs_url)
    assert table_rows(html, "vs-match-list") == [] and "Lagene deres har ikke møttes i en tellende kamp ennå." in html


def test_a_walkover_counts_as_the_awarded_win_and_reads_wo_r35_r46(client, board_member):
    match = factories.league_match()
    record_forfeit(match, match.away, by=board_member)
    home, away = match.home.coach, match.away.coach
    total = [row.texts() for row in table_rows(_page(client, reverse("coach", args=[away.pk])), "coach-seasons")][-1]
    assert total == ["Totalt", *_expected_record(away)] == ["Totalt", "1", "0", "0", "1", "0–2"]
    listed = table_rows(_page(client, reverse("coach_vs", args=[home.pk, away.pk])), "vs-match-list")
    assert [row.texts()[3:] for row in listed[1:]] == [["2–0 W.O.", "S"]]


def test_the_team_list_and_page_and_the_board_list_link_the_coach(client, board_member):
    team = factories.teams(1)[0]
    url = reverse("coach", args=[team.coach_id])
    assert url in _page(client, reverse("team", args=[team.pk]))  # a visitor too, by "trenerens side"
    client.force_login(board_member)
    for page in (reverse("teams"), reverse("team", args=[team.pk]), reverse("coaches")):
        assert url in _page(client, page), page


def test_the_board_may_publish_the_names_in_a_setting_and_the_page_reads_in_english(client, make_user, settings):
    kari = make_user("kari_nordmann", first_name="Kari", last_name="Nordmann")
    factories.human_team(kari)
    url = reverse("coach", args=[kari.pk])
    assert "<h1>Treneren for Torshov Trolls</h1>" in _page(client, url)
    settings.PUBLIC_TEAM_DETAILS = True  # as league.accounts.sees_private reads it (issue 14)
    assert "<h1>Kari Nordmann</h1>" in _page(client, url)
    client.cookies["django_language"] = "en"
    html = _page(client, url)
    assert "Wins, draws and losses" in html and "No season yet." in html and "No titles yet." in html


def _play_and_end(season, board):
    """Every fixture of the season: the team first made wins at home 2–0 and draws away 1–1; then its end."""
    for division in season.divisions.all():
        generate_fixtures(division)
    for match in Match.objects.filter(season=season):
        first_at_home = match.home_id < match.away_id
        record_result(match, home_score=2 if first_at_home else 1, away_score=0 if first_at_home else 1, by=board)
    return commit_season_end(season, by=board, next_name=f"{season.name}+")


def _record_of(team, season):
    """(won, drawn, lost) of the team's confirmed league matches of the season, read from the matches."""
    letters = [
        _outcome(m, {team.pk})
        for m in Match.objects.filter(season=season, status=Match.Status.CONFIRMED)
        if team.pk in (m.home_id, m.away_id)
    ]
    return (letters.count("S"), letters.count("U"), letters.count("T"))


def test_a_team_that_changes_coach_keeps_each_season_with_the_coach_who_played_it(client):
    """Kari plays season 1 with Team A and gives the team to Ola before season 2 (the admin's change of
    coach): season 1 stays Kari's (her record, her title, her head-to-head), season 2 is Ola's."""
    from django.contrib.admin.sites import site
    from django.test import RequestFactory

    from league.seasons.careers import career, head_to_head

    board = factories.user("styret", board=True, coach=False)
    first, (a, b, _c, _d) = factories.season_with(2, 2)
    kari, rival = a.coach, b.coach
    kari.first_name, kari.last_name = "Kari", "Nordmann"
    kari.save()
    second = _play_and_end(first, board)
    ola = factories.user("ola", first_name="Ola", last_name="Hansen")
    a.coach = ola
    changed = type("Form", (), {"changed_data": ["coach"]})()
    request = RequestFactory().post("/admin/teams/team/")
    request.user = board
    site._registry[Team].save_model(request, a, changed, change=True)
    assert SeasonEntry.objects.get(season=first, team=a).coach == kari  # an ended season stays hers
    assert SeasonEntry.objects.get(season=second, team=a).coach == ola
    third = _play_and_end(second, board)

    hers, his = career(kari.pk, private=True), career(ola.pk, private=True)
    assert [s.season_id for s in hers.seasons] == [first.pk]
    assert [s.season_id for s in his.seasons] == [second.pk, third.pk]  # the third not yet played
    league = hers.seasons[0].league
    assert (league.won, league.drawn, league.lost) == _record_of(a, first)
    league = his.seasons[0].league
    assert (league.won, league.drawn, league.lost) == _record_of(a, second)
    assert [t["season_id"] for t in hers.honours.titles] == [first.pk]  # A won the 1st division: hers then
    assert [t["season_id"] for t in his.honours.titles] == [second.pk]
    assert [t["name"] for t in hers.teams] == [a.name]  # the team she had, though Ola has it now
    meetings = head_to_head(kari.pk, rival.pk, private=True).matches
    assert {m["season_id"] for m in meetings} == {first.pk} and len(meetings) == 2  # A–B and B–A of season 1
    division = SeasonEntry.objects.get(season=second, team=a).division  # B went down: A meets the new one
    met = SeasonEntry.objects.filter(season=second, division=division).exclude(team=a).get().team.coach
    assert {m["season_id"] for m in head_to_head(ola.pk, met.pk, private=True).matches} == {second.pk}
    client.force_login(board)  # a member reads the coaches' names
    rows = [r.texts() for r in table_rows(_page(client, reverse("champions")), "champions")[1:]]
    titles = {(r[0], r[2]): r[3] for r in rows}
    assert titles[(first.name, a.name)] == "Kari Nordmann"  # the champions of season 1: Kari's A
    assert titles[(second.name, a.name)] == "Ola Hansen"


def test_the_coaches_list_links_every_coach_and_names_them_only_to_members(client):
    _season, teams = factories.season_with(2, 2)
    kari = teams[0].coach
    kari.first_name, kari.last_name = "Kari", "Nordmann"
    kari.save()
    visitor = _page(client, reverse("coach_index"))
    rows = table_rows(visitor, "coaches")[1:]
    assert len(rows) == 4  # the four coaches, each with a team
    for team in teams:
        assert reverse("coach", args=[team.coach_id]) in visitor
        assert team.coach.username not in visitor  # a visitor reads no username
        assert any(team.name in r.texts()[0] for r in rows)  # "Treneren for …": named by the team
    assert "Kari" not in visitor
    client.force_login(factories.user("styret", board=True, coach=False))
    member = [r.texts() for r in table_rows(_page(client, reverse("coach_index")), "coaches")[1:]]
    assert ["Kari Nordmann", teams[0].name] in member
