"""The post-match sequence for both teams, every number worked out by hand from the tables (issue 7)."""

import pytest
from django.urls import reverse

from league.models import Ruleset
from league.seasons.services.fixtures import generate_fixtures
from league.seasons.services.setup import DivisionPlan, create_season
from matches.models import DiceRoll, Match, PostMatch
from matches.postmatch.base import PostMatchError
from matches.postmatch.development import choices_for, develop, development_rolls
from matches.postmatch.injury_step import injuries
from matches.postmatch.mvp import mvp
from matches.postmatch.steps import complete, fan_factor, purchases_done, stadium, winnings
from matches.prematch.base import PreMatchError
from matches.prematch.chef import inspire
from matches.prematch.opening import pick_squad, roll_gate, roll_weather, set_tickets
from matches.prematch.ratings import roll_handicap
from matches.report.confirmation import confirm_report
from matches.report.filing import LineInput, ReportInput, file_report
from teams.ledger import treasury
from teams.models import Player, Position, Race, Team, TreasuryEntry
from teams.services import buy_facility, create_team
from tests import factories

pytestmark = pytest.mark.django_db


def build_played():
    """Torshov Trolls (Orc, FF 3, a kiosk) beat Sagene Saints (Human, FF 2) 2-1 at home: the match,
    the two teams and their players by number."""
    orc, human = Race.objects.get(name="Orc"), Race.objects.get(name="Human")
    home = create_team(
        coach=factories.user("kari"),
        name="Torshov Trolls",
        race=orc,
        fan_factor=3,
        hires={Position.objects.get(race=orc, name="Lineorc").pk: 11},
    )
    away = create_team(
        coach=factories.user("ola"),
        name="Sagene Saints",
        race=human,
        fan_factor=2,
        hires={Position.objects.get(race=human, name="Lineman").pk: 11},
    )
    buy_facility(home, "kiosk", by=home.coach)  # 1,000,000 - 550,000 - 30,000 - 50,000 = 370,000
    season = create_season(
        name="S", ruleset=Ruleset.default(), divisions=[DivisionPlan(1, "1. divisjon", 6, [home, away])]
    )
    division = season.divisions.get()
    generate_fixtures(division)
    match = Match.objects.get(division=division, home=home)
    h = list(home.players.order_by("number"))
    a = list(away.players.order_by("number"))
    Player.objects.filter(pk=h[0].pk).update(completions=14)  # 14 SPP: two touchdowns take him past 16
    pick_squad(match, home, [p.pk for p in h], by=home.coach)
    pick_squad(match, away, [p.pk for p in a], by=away.coach)
    roll_weather(match, entered=[3, 4], by=None)
    set_tickets(match, ticket="ordinary", neutral=False, by=None)
    # home 3 D6 +1: 4 + 6 + 2 = 12,000; away 2 D6 -1: 3 + 3 = 6,000 (R13)
    roll_gate(match, home_dice=[3, 5, 1], away_dice=[4, 4], by=None)
    roll_handicap(match, by=None)  # TR 58 against 57: no handicap
    file_report(
        match,
        ReportInput(
            home_score=2,
            away_score=1,
            lines=[
                LineInput(h[0].pk, touchdowns=2),
                LineInput(h[1].pk, casualties=1),
                LineInput(a[0].pk, touchdowns=1),
                LineInput(a[1].pk, injury="dead", injured_by_id=h[1].pk),
            ],
        ),
        by=home.coach,
    )
    confirm_report(match, by=away.coach)
    match.refresh_from_db()
    return match, home, away, h, a


@pytest.fixture
def played(db):
    """build_played() for a test of its own: the post-match views, the concurrency and browser tests."""
    return build_played()


def undead_match(make_user, victim_race="Human", victim_position="Lineman", killer="Zombie", killer_race="Undead"):
    """An Undead (or Nurgle) team that killed an opponent in a confirmed match with a pre-match done."""
    race_k, race_v = Race.objects.get(name=killer_race), Race.objects.get(name=victim_race)
    if killer_race != "Nurgle":
        hires_k = {Position.objects.get(race=race_k, name=killer).pk: 11}
    else:
        hires_k = {
            Position.objects.get(race=race_k, name="Nurgle Beastman").pk: 11,
            Position.objects.get(big_guy=True, name="Beast of Nurgle").pk: 1,
        }
    home = create_team(coach=make_user("necro"), name="Vålerenga Wights", race=race_k, hires=hires_k)
    away = create_team(
        coach=make_user("victim"),
        name="Victims",
        race=race_v,
        hires={Position.objects.get(race=race_v, name=victim_position).pk: 11},
    )
    season = create_season(
        name="S2", ruleset=Ruleset.default(), divisions=[DivisionPlan(1, "1", 6, [home, away])]
    )
    division = season.divisions.get()
    generate_fixtures(division)
    match = Match.objects.get(division=division, home=home)
    h, a = list(home.players.order_by("number")), list(away.players.order_by("number"))
    pick_squad(match, home, [p.pk for p in h[:16]], by=None)
    pick_squad(match, away, [p.pk for p in a], by=None)
    roll_weather(match, entered=[3, 4], by=None)
    set_tickets(match, ticket="ordinary", neutral=False, by=None)
    roll_gate(match, home_dice=[], away_dice=[], by=None)
    roll_handicap(match, by=None)
    settle_inspiration(match)
    killer_player = next(p for p in h if killer_race != "Nurgle" or p.position.name == "Beast of Nurgle")
    file_report(
        match,
        ReportInput(
            home_score=1,
            away_score=0,
            lines=[
                LineInput(killer_player.pk, touchdowns=1, casualties=1),
                LineInput(a[0].pk, injury="dead", injured_by_id=killer_player.pk),
            ],
        ),
        by=home.coach,
    )
    confirm_report(match, by=away.coach)
    match.refresh_from_db()
    for team, roll in ((home, [3]), (away, [3])):
        winnings(match, team, roll=roll, by=None)
    return match, home, away, a[0]


def settle_inspiration(match):
    """A server-rolled handicap may draw Inspiration: the report waits for its player (R23). The last
    player of the squad (no SPP, no level-up) takes it, out of the way of what the tests check."""
    from matches.models import HandicapDraw, SquadEntry

    for draw in HandicapDraw.objects.filter(match=match, key="inspiration", player__isnull=True):
        entry = SquadEntry.objects.filter(match=match, team=draw.team, status="playing").order_by("player__number")
        inspire(match, draw.team, entry.last().player_id, by=None)


def test_the_necromancer_raises_a_dead_opponent_as_a_zombie_r25(make_user):
    match, necro, victims, victim = undead_match(make_user)
    with pytest.raises(PostMatchError, match="Wait for Victims"):
        injuries(match, necro, raise_zombie=victim.pk, by=None)
    injuries(match, victims, by=None)  # no Bandage Crew attempt: he stays dead
    injuries(match, necro, raise_zombie=victim.pk, by=None)
    zombie = necro.players.get(name=f"{victim.name} (Zombie)")
    assert zombie.position.name == "Zombie" and zombie.status == "active"


def test_stunty_players_cannot_be_raised_r25(make_user):
    match, necro, victims, victim = undead_match(make_user, victim_race="Goblin", victim_position="Goblin")
    injuries(match, victims, by=None)
    with pytest.raises(PostMatchError, match="Stunty"):
        injuries(match, necro, raise_zombie=victim.pk, by=None)


def test_a_beast_of_nurgles_kill_gives_a_rotter_r25(make_user):
    match, nurgle, victims, victim = undead_match(make_user, killer_race="Nurgle")
    injuries(match, victims, by=None)
    injuries(match, nurgle, by=None)
    assert nurgle.players.get(name=f"{victim.name} (Rotter)").position.name == "Rotter"


def test_a_mutation_d4_is_re_rolled_once_and_the_last_stands_r29(make_user):
    from matches.models import DevelopmentRoll
    from teams.models import PlayerSkill, Skill

    match, home, _away, h, _a = _played_chaos(make_user)
    player = h[0]
    PlayerSkill.objects.create(player=player, skill=Skill.objects.get(name="Claw"), origin="registered")
    (roll,) = development_rolls(match, home, entered={f"development:{player.pk}:1": [2, 2]})
    assert roll.is_double and "mutation:Bony Growth" in choices_for(roll, match.season.ruleset.rules)
    # D4 1 is Claw, which he has: re-rolled once, 3 is Thick Skull
    develop(
        match,
        home,
        choices={roll.pk: "mutation:Bony Growth"},
        entered={f"mutation:{player.pk}:1": [1], f"mutation:{player.pk}:1:reroll": [3]},
        by=None,
    )
    assert set(player.gained_skills.values_list("skill__name", flat=True)) == {"Claw", "Thick Skull"}
    assert DevelopmentRoll.objects.get(pk=roll.pk).choice == "Thick Skull"


def _played_chaos(make_user):
    """A Chaos team (Beastmen: M among the normal categories) whose #1 crosses 16 SPP in a confirmed match."""
    chaos, human = Race.objects.get(name="Chaos"), Race.objects.get(name="Human")
    home = create_team(
        coach=make_user("chaos"),
        name="Tøyen Tyrants",
        race=chaos,
        hires={Position.objects.get(race=chaos, name="Chaos Beastman").pk: 11},
    )
    away = create_team(
        coach=make_user("hum"),
        name="Humans",
        race=human,
        hires={Position.objects.get(race=human, name="Lineman").pk: 11},
    )
    season = create_season(
        name="S3", ruleset=Ruleset.default(), divisions=[DivisionPlan(1, "1", 6, [home, away])]
    )
    division = season.divisions.get()
    generate_fixtures(division)
    match = Match.objects.get(division=division, home=home)
    h, a = list(home.players.order_by("number")), list(away.players.order_by("number"))
    Player.objects.filter(pk=h[0].pk).update(completions=14)
    pick_squad(match, home, [p.pk for p in h], by=None)
    pick_squad(match, away, [p.pk for p in a], by=None)
    roll_weather(match, entered=[3, 4], by=None)
    set_tickets(match, ticket="ordinary", neutral=False, by=None)
    roll_gate(match, home_dice=[], away_dice=[], by=None)
    roll_handicap(match, by=None)
    settle_inspiration(match)
    file_report(match, ReportInput(home_score=1, away_score=0, lines=[LineInput(h[0].pk, touchdowns=1)]), by=home.coach)
    confirm_report(match, by=away.coach)
    match.refresh_from_db()
    winnings(match, home, roll=[3], by=None)
    injuries(match, home, by=None)
    stadium(match, home, by=None)
    mvp(match, home, roll=[1], by=None)  # the only one with SPP: #1, 14 + 3 + 5 = 22
    return match, home, away, h, a


# --- from the review: each of these once went wrong ----------------------------------------------


def test_a_mutation_never_duplicates_a_starting_trait_r29(make_user):
    match, home, _away, h, _a = _played_chaos(make_user)  # Chaos Beastmen start with Horns
    player = h[0]
    (roll,) = development_rolls(match, home, entered={f"development:{player.pk}:1": [2, 2]})
    # Bony Growth D4 4 is Horns, which he has from the start: re-rolled, 2 is Spikes
    develop(
        match,
        home,
        choices={roll.pk: "mutation:Bony Growth"},
        entered={f"mutation:{player.pk}:1": [4], f"mutation:{player.pk}:1:reroll": [2]},
        by=None,
    )
    assert list(player.gained_skills.values_list("skill__name", flat=True)) == ["Spikes"]


class TestAfterTheTrollsBeatTheSaints:
    """The match build_played() plays, built once for the class (tests/conftest.py, set_up_test_data)."""

    @classmethod
    def setUpTestData(cls):
        cls.played = build_played()

    def test_the_whole_sequence_for_both_teams(self):
        match, home, away, h, a = self.played
        before = {home.pk: treasury(home), away.pk: treasury(away)}
        assert before[home.pk] == 370_000
        # 1. winnings: attendance 18,000 → row 0-20,000; TR 58 / 57 → column 1-99: +1 (Kampbonus, R20, R21)
        pm_home = winnings(match, home, roll=[4], kiosk=[3], by=home.coach)
        assert (pm_home.winnings, pm_home.kiosk) == (70_000, 10_000)  # 4 + 1 won + 1 home + 1 = 7; kiosk 3+ (R19)
        assert "Kampbonus: row 0–20,000, column ≤99: +1" in pm_home.explanations["winnings"]
        pm_away = winnings(match, away, roll=[2], by=away.coach)
        assert pm_away.winnings == 30_000  # 2 + 1
        # 2. injuries: the dead Lineman is saved by the Bandage Crew (1+), then Blodtap: out 3 matches (R25)
        injuries(match, home, by=home.coach)
        pm_away = injuries(
            match,
            away,
            healer_targets=[a[1].pk],
            entered={f"healer:{away.pk}:1": [1], f"revival:{a[1].pk}": [1, 2]},
            by=away.coach,
        )
        revived = Player.objects.get(pk=a[1].pk)
        assert (revived.status, revived.miss_matches, revived.niggling) == ("active", 3, 0)
        assert treasury(away) == before[away.pk] + 30_000 - 10_000  # the fee from this match's winnings
        fee = TreasuryEntry.objects.get(team=away, kind=TreasuryEntry.Kind.FEE).message  # R9's Bandage Crew
        assert (fee.msgid, fee.params["healer"].msgid) == ("%(healer)s: %(player)s", "Bandage Crew")  # any language
        # 3. stadium: no vandalism
        stadium(match, home, by=home.coach)
        stadium(match, away, by=away.coach)
        # 4. MVP among those who earned SPP: #1 (2 TD) and #2 (a casualty); D2 shows 2 → #2 (R27)
        pm_home = mvp(match, home, roll=[2], by=home.coach)
        assert pm_home.mvp_id == h[1].pk
        mvp(match, away, roll=[1], by=away.coach)
        assert Team.objects.get(pk=home.pk).mvps_received == 1
        # 5. development: #1 went 14 → 20 SPP (past 16), #2 0 → 7 (2 + MVP 5, past 6): one roll each (R4)
        rolls = development_rolls(
            match, home, entered={f"development:{h[0].pk}:1": [3, 3], f"development:{h[1].pk}:1": [2, 5]}
        )
        assert [(r.player_id, r.result, r.is_double) for r in rolls] == [
            (h[0].pk, "skill", True),
            (h[1].pk, "skill", False),
        ]
        first, second = rolls
        assert "Frenzy" in choices_for(first, match.season.ruleset.rules)  # a trait of G on doubles (R29)
        assert "Frenzy" not in choices_for(second, match.season.ruleset.rules)
        assert "Dodge" not in choices_for(second, match.season.ruleset.rules)  # A is not normal for Lineorcs
        with pytest.raises(PostMatchError, match="cannot take Dodge"):
            develop(match, home, choices={first.pk: "Frenzy", second.pk: "Dodge"}, by=home.coach)
        develop(match, home, choices={first.pk: "Frenzy", second.pk: "Block"}, by=home.coach)
        # the away MVP, #1, went 3 → 8 SPP with it: past 6, a roll for him too
        (away_roll,) = development_rolls(match, away, entered={f"development:{a[0].pk}:1": [1, 2]})
        develop(match, away, choices={away_roll.pk: "Block"}, by=away.coach)
        assert set(Player.objects.get(pk=h[0].pk).gained_skills.values_list("skill__name", flat=True)) == {"Frenzy"}
        # 6. fan factor: home D6 4 + 1 win + 1 for 2 TDs = 6 → +1; away 3 - 1 loss = 2 → 0 (R30)
        assert fan_factor(match, home, roll=[4], by=home.coach).fan_factor_change == 1
        assert fan_factor(match, away, roll=[3], by=away.coach).fan_factor_change == 0
        # 7, 8
        for team in (home, away):
            purchases_done(match, team, by=team.coach)
            complete(match, team, by=team.coach)
        home = Team.objects.get(pk=home.pk)
        assert home.fan_factor == 4
        assert treasury(home) == 370_000 + 70_000 + 10_000
        # new TR: 11 × 50,000 + FF 4 × 10,000 = 590,000 → 59; skill points: #1 20 SPP → 3, #2 7 SPP → 1 (R1, R4)
        assert PostMatch.objects.get(match=match, team=home).team_rating == 59 + 3 + 1

    def test_an_mvp_without_a_line_gets_one_in_his_career_r27(self, board_member, client):
        """No Saint earned SPP, so the MVP goes to one who played (R27) and has no report line: the MVP step
        makes his line, with the match's confirmation time, and his page lists the match."""
        from matches.models import PlayerMatch
        from matches.report.confirmation import reopen_report

        match, home, away, h, a = self.played
        reopen_report(match, by=board_member)
        report = ReportInput(home_score=2, away_score=0, lines=[LineInput(h[0].pk, touchdowns=2)])
        file_report(match, report, by=home.coach)
        confirm_report(match, by=away.coach)
        match.refresh_from_db()
        for step in (winnings, injuries, stadium):
            step(match, away, **({"roll": [2]} if step is winnings else {}), by=away.coach)
        assert mvp(match, away, roll=[3], by=away.coach).mvp_id == a[2].pk  # D11 shows 3: the third who played
        line = PlayerMatch.objects.get(match=match, player=a[2])
        assert (line.mvps, line.confirmed_at) == (1, match.confirmed_at)
        rows = client.get(reverse("player", args=[a[2].pk])).context["matches"]
        assert [(row["match_id"], row["mvps"], row["spp"]) for row in rows] == [(match.pk, 1, 5)]  # an MVP is 5 SPP

    def test_each_step_applies_once(self):
        match, home, _away, _h, _a = self.played
        winnings(match, home, roll=[4], kiosk=[3], by=home.coach)
        with pytest.raises(PostMatchError, match="already done"):
            winnings(match, home, roll=[6], kiosk=[6], by=home.coach)
        assert treasury(home) == 370_000 + 80_000
        assert DiceRoll.objects.filter(match=match, purpose=f"winnings:{home.pk}").count() == 1

    def test_steps_in_order(self):
        match, home, _away, _h, _a = self.played
        with pytest.raises(PostMatchError, match="Finish the steps"):
            fan_factor(match, home, roll=[4], by=home.coach)

    def test_a_serious_injury_lands_on_the_player(self):
        match, _home, away, _h, a = self.played
        line = match.lines.get(player=a[1])
        line.injury = "serious_injury"
        line.save()
        winnings(match, away, roll=[2], by=away.coach)
        injuries(match, away, entered={f"serious_injury:{a[1].pk}": [6, 1]}, by=away.coach)
        hurt = Player.objects.get(pk=a[1].pk)
        # D66 61: Brukket nakke, misses 5, -1 AG (Alvorlig skade-tabell)
        assert (hurt.miss_matches, hurt.ag, hurt.stat_changes.get().stat) == (5, 2, "AG")

    def test_a_serious_injury_at_minus_2_lowers_nothing_and_moves_nothing_r41(self, client):
        """The issue's case: a Lineman at MA -2 lost AG instead. R41: nothing is lowered, the rest stands."""
        match, _home, away, _h, a = self.played
        Player.objects.filter(pk=a[1].pk).update(ma_change=-2)  # MA 6 - 2 = 4
        line = match.lines.get(player=a[1])
        line.injury = "serious_injury"
        line.save()
        winnings(match, away, roll=[2], by=away.coach)
        injuries(match, away, entered={f"serious_injury:{a[1].pk}": [5, 4]}, by=away.coach)
        hurt = Player.objects.get(pk=a[1].pk)
        # D66 54: Smadret ankel, misses 4, -1 MA (Alvorlig skade-tabell): the 4 matches still apply
        assert (hurt.miss_matches, hurt.ma, hurt.st, hurt.ag, hurt.av) == (4, 4, 3, 3, 8)
        assert not hurt.stat_changes.exists()
        stored = PostMatch.objects.get(match=match, team=away).explanations["injuries"]
        assert stored == [
            f"{hurt}: Alvorlig skade-tabell D66 54: Smadret ankel, misses 4, "
            "MA is already 2 below the position's value: not lowered (R41)."
        ]
        client.force_login(away.coach)
        client.cookies["django_language"] = "nb"
        page = client.get(reverse("match_postmatch", args=[match.pk, away.pk])).content.decode()
        assert "MA er allerede 2 under posisjonens verdi: senkes ikke (R41)" in page

    def test_a_revival_at_minus_2_keeps_its_niggling_injury_and_lowers_nothing_r41(self):
        match, _home, away, _h, a = self.played
        Player.objects.filter(pk=a[1].pk).update(ma_change=-2)
        winnings(match, away, roll=[2], by=away.coach)
        entered = {f"healer:{away.pk}:1": [1], f"revival:{a[1].pk}": [5, 1], f"revival_miss:{a[1].pk}": [2, 3]}
        injuries(match, away, healer_targets=[a[1].pk], entered=entered, by=away.coach)
        revived = Player.objects.get(pk=a[1].pk)
        # Gjenoppliving-tabell D66 51: Skiveprolapps, out 2D6 + 3 = 8 matches, NI, -1 MA: MA stays at -2
        assert (revived.status, revived.miss_matches, revived.niggling) == ("active", 8, 1)
        assert (revived.ma, revived.ag) == (4, 3) and not revived.stat_changes.exists()

    def test_the_dead_stay_dead_without_a_healer_attempt(self):
        match, _home, away, _h, a = self.played
        winnings(match, away, roll=[2], by=away.coach)
        injuries(match, away, by=away.coach)
        assert Player.objects.get(pk=a[1].pk).status == "dead"

    def test_bandage_crew_attempts_are_on_distinct_dead_players(self):
        match, _home, away, _h, a = self.played
        winnings(match, away, roll=[2], by=away.coach)
        with pytest.raises(PostMatchError, match="another player"):
            injuries(match, away, healer_targets=[a[1].pk, a[1].pk], by=away.coach)
        with pytest.raises(PostMatchError, match="dead player"):
            injuries(match, away, healer_targets=[a[2].pk], by=away.coach)

    def test_each_team_rolls_its_own_healer_dice(self):
        match, home, away, h, a = self.played
        line = match.lines.get(player=a[1])
        PlayerMatchModel = type(line)
        PlayerMatchModel.objects.create(match=match, player=h[2], team=home, injury="dead", injured_by=a[0])
        for team in (home, away):
            winnings(match, team, roll=[3], kiosk=[3], by=None)
        injuries(
            match,
            home,
            healer_targets=[h[2].pk],
            entered={f"healer:{home.pk}:1": [1], f"revival:{h[2].pk}": [1, 1]},
            by=None,
        )
        injuries(
            match,
            away,
            healer_targets=[a[1].pk],
            entered={f"healer:{away.pk}:1": [1], f"revival:{a[1].pk}": [1, 1]},
            by=None,
        )
        assert DiceRoll.objects.filter(match=match, purpose__startswith="healer:").count() == 2

    def test_two_plus_ones_to_the_same_stat_both_count_r29(self):
        match, home, _away, h, _a = self.played
        Player.objects.filter(pk=h[0].pk).update(completions=5)  # 5 before the match, 11 with his two touchdowns
        winnings(match, home, roll=[3], kiosk=[3], by=None)
        injuries(match, home, by=None)
        stadium(match, home, by=None)
        mvp(match, home, roll=[1], by=None)  # #1 again: 16 SPP, from 5: past 6 and 16, two rolls (R4)
        rolls = development_rolls(
            match, home, entered={f"development:{h[0].pk}:1": [4, 6], f"development:{h[0].pk}:2": [4, 6]}
        )
        assert [(r.player_id, r.result) for r in rolls] == [(h[0].pk, "MA"), (h[0].pk, "MA")]
        develop(match, home, choices={r.pk: "stat:MA" for r in rolls}, by=None)
        player = Player.objects.get(pk=h[0].pk)
        assert (player.ma_change, player.ma, player.stat_changes.count()) == (2, 7, 2)  # Lineorcs MA 5, +2 (R29)

    def test_the_next_match_waits_for_the_post_match_sequence(self):
        match, home, away, h, _a = self.played
        following = Match.objects.filter(division=match.division).exclude(pk=match.pk).filter(home=away).first()
        with pytest.raises(PreMatchError, match="must finish the post-match sequence"):
            pick_squad(following, home, [p.pk for p in h], by=None)

    def test_facilities_count_as_they_were_for_the_match_r19(self):
        match, home, _away, _h, _a = self.played
        buy_facility(home, "vip_lounge", by=home.coach)  # 370,000 in the treasury: bought after the match
        postmatch = winnings(match, home, roll=[4], kiosk=[3], by=None)
        assert not any("VIP" in line for line in postmatch.explanations["winnings"])  # bought after the match
