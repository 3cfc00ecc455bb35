"""Creating a team from the starting treasury, and every refusal with its message (R5-R8)."""

import pytest

from teams import services
from teams.ledger import treasury
from teams.models import Player, Team, TreasuryEntry
from tests.factories import big_guy, human_team, position, race

pytestmark = pytest.mark.django_db


def test_a_human_team_is_bought_and_the_rest_is_the_treasury(coach):
    team = human_team(coach, rerolls=3, fan_factor=5, assistant_coaches=2, cheerleaders=3, apothecary=True)
    # 650,000 players + 3 × 50,000 + 5 × 10,000 + 2 × 10,000 + (10+20+30),000 + 50,000 = 980,000 (R5, R6)
    assert treasury(team) == 1_000_000 - 980_000
    assert team.players.count() == 11
    assert sorted(team.players.values_list("number", flat=True)) == list(range(1, 12))
    assert team.stadium.capacity == 60_000  # R16
    ledger = list(team.ledger.order_by("seq"))
    assert ledger[0].kind == TreasuryEntry.Kind.STARTING and ledger[0].amount == 1_000_000
    assert sum(e.amount for e in ledger) == ledger[-1].balance == 20_000
    assert len([e for e in ledger if e.description.startswith("Hired")]) == 11


def refused(coach, **kwargs):
    before = (Team.objects.count(), Player.objects.count(), TreasuryEntry.objects.count())
    with pytest.raises(services.TeamRuleError) as err:
        services.create_team(coach=coach, name=kwargs.pop("name", "Nope"), **kwargs)
    assert (Team.objects.count(), Player.objects.count(), TreasuryEntry.objects.count()) == before
    return " ".join(err.value.messages)


def test_over_budget_is_refused(coach):
    hires = {position("Human", "Blitzer").pk: 4, position("Human", "Lineman").pk: 12}
    message = refused(coach, race=race("Human"), hires=hires, rerolls=8)
    # 360,000 + 600,000 + 400,000 = 1,360,000
    assert "The team costs 1,360,000 but the treasury holds 1,000,000" in message


def test_the_norwegian_refusals_write_amounts_and_big_guys_as_the_book_does(coach):
    """The amounts with a space between thousands (120 000, not 120,000), and the Big Guy limit's plural
    from the ruleset's setting (R5: one by default, "Big Guys" when the board allows more)."""
    from django.utils import translation

    from league.rules.roster import RosterProblem
    from teams.rosters import translate_problem

    with translation.override("nb"):
        hires = {position("Human", "Blitzer").pk: 4, position("Human", "Lineman").pk: 12}
        message = refused(coach, race=race("Human"), hires=hires, rerolls=8)
        assert "Laget koster 1\xa0360\xa0000, men kassen har bare 1\xa0000\xa0000." in message
        one = translate_problem(RosterProblem("big_guy_limit", {"max": 1, "count": 2}))
        two = translate_problem(RosterProblem("big_guy_limit", {"max": 2, "count": 3}))
    assert one == "Maks 1 Big Guy på et lag (du har 2)."
    assert two == "Maks 2 Big Guys på et lag (du har 3)."


def test_over_a_position_limit_is_refused(coach):
    hires = {position("Human", "Blitzer").pk: 5, position("Human", "Lineman").pk: 7}
    assert "Blitzer: at most 4 (you have 5)" in refused(coach, race=race("Human"), hires=hires)


def test_more_than_25_players_is_refused(coach):
    # Undead: 12 Skeletons + 12 Zombies + 2 Ghouls = 26 players for 860,000 (R5: at most 25)
    hires = {
        position("Undead", "Skeleton").pk: 12,
        position("Undead", "Zombie").pk: 12,
        position("Undead", "Ghoul").pk: 2,
    }
    assert "At most 25 players on the roster (you have 26)" in refused(coach, race=race("Undead"), hires=hires)


def test_fewer_than_11_players_is_refused(coach):
    message = refused(coach, race=race("Human"), hires={position("Human", "Lineman").pk: 10})
    assert "At least 11 players at creation (you have 10)" in message


def test_a_big_guy_not_allied_is_refused(coach):
    hires = {position("Elf", "Lineelf").pk: 11, big_guy("Troll").pk: 1}
    assert "Troll does not play for Elf" in refused(coach, race=race("Elf"), hires=hires)


def test_two_big_guys_are_refused(coach):
    hires = {position("Orc", "Lineorc").pk: 9, big_guy("Troll").pk: 2}
    assert "At most 1 Big Guy on a team (you have 2)" in refused(coach, race=race("Orc"), hires=hires)


def test_an_apothecary_for_undead_is_refused(coach):
    hires = {position("Undead", "Skeleton").pk: 11}
    assert "Undead may not have an apothecary" in refused(coach, race=race("Undead"), hires=hires, apothecary=True)


def test_fan_factor_over_9_is_refused(coach):
    hires = {position("Human", "Lineman").pk: 11}
    message = refused(coach, race=race("Human"), hires=hires, fan_factor=10)
    assert "Fan factor can be bought up to 9 at creation (you asked for 10)" in message


def test_more_than_8_rerolls_is_refused(coach):
    hires = {position("Goblin", "Goblin").pk: 11}
    assert "At most 8 team re-rolls (you would have 9)" in refused(coach, race=race("Goblin"), hires=hires, rerolls=9)


def test_an_allied_big_guy_is_accepted(coach):
    hires = {position("Orc", "Lineorc").pk: 10, big_guy("Troll").pk: 1}
    team = services.create_team(coach=coach, name="Grimsby Grunts", race=race("Orc"), hires=hires)
    # 10 × 50,000 + 100,000 = 600,000
    assert treasury(team) == 400_000


def test_a_duplicate_team_name_is_refused(coach):
    human_team(coach)
    message = refused(coach, name="torshov trolls", race=race("Human"), hires={position("Human", "Lineman").pk: 11})
    assert "A team called torshov trolls already exists" in message


def test_tzeentch_cultists_start_with_a_recorded_mutation_r10(coach):
    hires = {position("Tzeentch", "Tzeentch Cultist").pk: 11}
    team = services.create_team(coach=coach, name="Changers", race=race("Tzeentch"), hires=hires)
    for player in team.players.all():
        gained = list(player.gained_skills.all())
        if player.mutation_choice_pending:
            assert gained == []  # a 12: the coach chooses
        else:
            assert len(gained) == 1 and gained[0].origin == "starting_mutation" and gained[0].roll.startswith("2D6")
            assert gained[0].skill.category == "Mutation"
