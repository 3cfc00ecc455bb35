"""The post-match injury decision tree (league.rules.injuries), table-driven on the default ruleset.

No database. Regeneration is 3+ and an apothecary attempt 2+ (R25, R26); each row names the ruling.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import league.rules as rules
from league.rules import injuries
from league.rules.injuries import (
    BADLY_HURT,
    DEAD,
    SERIOUS_INJURY,
    Fate,
    InjuredPlayer,
    StatLoss,
    becomes_rotter,
    can_be_raised,
    dice_needed,
    fate_unless_regenerated,
    healer_attempts,
    healer_may_treat,
    injury_fate,
    raises_zombies,
    rots,
)
from league.rules.tables import STATS

R = rules.default_ruleset()


@pytest.mark.parametrize(
    ("player", "fate"),
    [
        # R25: Regeneration comes first; 3+ ignores badly hurt, serious injury or death.
        (InjuredPlayer(DEAD, regeneration=True), Fate.ROLL_REGENERATION),
        (InjuredPlayer(DEAD, regeneration=True, regeneration_roll=3), Fate.REGENERATES),
        (InjuredPlayer(SERIOUS_INJURY, regeneration=True, regeneration_roll=6), Fate.REGENERATES),
        (InjuredPlayer(DEAD, regeneration=True, regeneration_roll=2), Fate.DEAD),
        (InjuredPlayer(BADLY_HURT, regeneration=True, regeneration_roll=1), Fate.BADLY_HURT),
        (InjuredPlayer(BADLY_HURT), Fate.BADLY_HURT),
        # R25: a serious injury not healed by the apothecary rolls on the table; R26: heal 2+.
        (InjuredPlayer(SERIOUS_INJURY), Fate.ROLL_SERIOUS_INJURY),
        (InjuredPlayer(SERIOUS_INJURY, heal=2), Fate.HEALED),
        (InjuredPlayer(SERIOUS_INJURY, heal=1), Fate.ROLL_SERIOUS_INJURY),
        (InjuredPlayer(SERIOUS_INJURY, serious_injury_dead=False), Fate.SERIOUS_INJURY),
        # Board ruling on R25: killed on the table (66) and untreated, the Bandage Crew may try him ...
        (InjuredPlayer(SERIOUS_INJURY, serious_injury_dead=True), Fate.DEAD),
        # ... but not after the apothecary tried (and failed) to heal the serious injury.
        (InjuredPlayer(SERIOUS_INJURY, heal=1, serious_injury_dead=True), Fate.BURIED),
        # R26: the dead healed (3 AP) or revived (1 AP, then the revival table), each 2+.
        (InjuredPlayer(DEAD, heal=2), Fate.SAVED),
        (InjuredPlayer(DEAD, revive=6), Fate.REVIVED),
        (InjuredPlayer(DEAD, heal=1, revive=2), Fate.REVIVED),
        (InjuredPlayer(DEAD, revive=1), Fate.BURIED),
        (InjuredPlayer(DEAD, heal=1), Fate.BURIED),
        # R25: the dead the apothecary never touched are left to the healer.
        (InjuredPlayer(DEAD), Fate.DEAD),
    ],
)
def test_injury_fate_r25_r26(player, fate):
    assert injury_fate(R, player) == fate


@pytest.mark.parametrize(
    ("player", "needed"),
    [
        # R25's order: the Regeneration die, then (should he not regenerate) the serious injury die.
        (InjuredPlayer(SERIOUS_INJURY, regeneration=True), (Fate.ROLL_REGENERATION, Fate.ROLL_SERIOUS_INJURY)),
        (InjuredPlayer(SERIOUS_INJURY, regeneration=True, regeneration_roll=2), (Fate.ROLL_SERIOUS_INJURY,)),
        (InjuredPlayer(SERIOUS_INJURY, regeneration=True, regeneration_roll=3), ()),
        (InjuredPlayer(SERIOUS_INJURY, heal=2, regeneration=True), (Fate.ROLL_REGENERATION,)),
        (InjuredPlayer(DEAD, regeneration=True), (Fate.ROLL_REGENERATION,)),
        (InjuredPlayer(SERIOUS_INJURY, serious_injury_dead=False), ()),
        (InjuredPlayer(DEAD), ()),
        (InjuredPlayer(BADLY_HURT), ()),
    ],
)
def test_dice_needed_in_r25_order(player, needed):
    assert dice_needed(R, player) == needed


def test_a_failed_regeneration_leaves_the_revival_to_the_apothecary_r26():
    player = InjuredPlayer(DEAD, regeneration=True, revive=2)
    assert injury_fate(R, player) == Fate.ROLL_REGENERATION
    assert fate_unless_regenerated(R, player) == Fate.REVIVED


@pytest.mark.parametrize(
    ("healer", "regeneration", "may"),
    [
        ("bandage_crew", False, True),
        ("bandage_crew", True, True),
        ("apprentice", False, True),
        ("apprentice", True, False),  # R9: the Apprentice cannot treat a player with Regeneration
        ("familiar", True, False),
    ],
)
def test_healer_may_treat_r9(healer, regeneration, may):
    assert healer_may_treat(healer, regeneration=regeneration) is may


@pytest.mark.parametrize(
    ("healer", "attempts"),
    [
        ("bandage_crew", (3, 10_000)),  # R25: up to 3 players, 10,000 per attempt
        ("apprentice", (1, 10_000)),
        ("familiar", (2, 10_000)),
    ],
)
def test_healer_attempts_and_fee_r25(healer, attempts):
    assert healer_attempts(healer, R.settings) == attempts


@pytest.mark.parametrize(
    ("skills", "big_guy", "raised"),
    [
        (set(), False, True),
        ({"Block", "Dodge"}, False, True),
        ({"Stunty", "Dodge"}, False, False),  # R25: not Stunty
        ({"Big Guy"}, False, False),  # R25: not a Big Guy
        (set(), True, False),
    ],
)
def test_the_necromancer_raises_neither_stunty_nor_big_guys_r25(skills, big_guy, raised):
    assert can_be_raised(skills, big_guy=big_guy) is raised


@pytest.mark.parametrize(
    ("race", "killer", "rotter"),
    [
        ("Nurgle", "Beast of Nurgle", True),  # R25: a Beast of Nurgle's unhealed kill gives a Rotter
        ("Nurgle", "Rotter", False),
        ("Nurgle", None, False),
        ("Chaos", "Beast of Nurgle", False),
    ],
)
def test_a_beast_of_nurgles_kill_gives_a_rotter_r25(race, killer, rotter):
    assert becomes_rotter(race, killer) is rotter


def test_who_raises_the_dead_r25():
    assert raises_zombies("necromancer") and not raises_zombies("ordinary")
    assert rots("Nurgle") and not rots("Undead")


def test_the_tree_speaks_the_models_choices():
    """The pure names are the values the rows store (no database: only the choices are compared)."""
    from league.rules import injuries
    from matches.models import PlayerMatch
    from teams.models import Race

    assert (injuries.BADLY_HURT, injuries.SERIOUS_INJURY, injuries.DEAD) == (
        PlayerMatch.Injury.BADLY_HURT,
        PlayerMatch.Injury.SERIOUS,
        PlayerMatch.Injury.DEAD,
    )
    assert (injuries.BANDAGE_CREW, injuries.APPRENTICE, injuries.FAMILIAR) == (
        Race.Healer.BANDAGE_CREW,
        Race.Healer.APPRENTICE,
        Race.Healer.FAMILIAR,
    )
    assert injuries.NECROMANCER == Race.HeadCoach.NECROMANCER


# --- R41: a characteristic lost to an injury, never past -2, never moved ------------------------------
LINEMAN = {"MA": 6, "ST": 3, "AG": 3, "AV": 8}  # Human Linemen


def _at(**changes: int) -> dict[str, int]:
    return {s: LINEMAN[s] + changes.get(s.lower(), 0) for s in LINEMAN}


@pytest.mark.parametrize("stat", ["MA", "ST", "AG", "AV"])
@pytest.mark.parametrize(("change", "lowered"), [(2, True), (0, True), (-1, True), (-2, False)])
def test_an_injury_lowers_a_characteristic_down_to_minus_2_and_no_further_r41(stat, change, lowered):
    loss = R.stat_loss(stat, LINEMAN, _at(**{stat.lower(): change}))
    assert loss.lowered == (stat if lowered else None)
    assert loss.choose_from == ()  # R41: never moved to another characteristic
    if not lowered:
        assert loss.shown.msgid == "%(stat)s is already %(limit)s below the position's value: not lowered (R41)"
        assert loss.shown == f"{stat} is already 2 below the position's value: not lowered (R41)"


@pytest.mark.parametrize("stat", ["MA", "ST", "AG", "AV"])
def test_at_minus_2_nothing_is_lowered_however_the_others_stand_r41(stat):
    # The case: a Lineman at MA -2 lost AG instead. Every other characteristic could lose 1.
    loss = R.stat_loss(stat, LINEMAN, _at(**{stat.lower(): -2}))
    assert (loss.lowered, loss.choose_from) == (None, ())


def test_a_characteristic_at_minus_2_and_at_1_is_not_lowered_nor_moved_r41():
    # AG 3 at -2 is AG 1: R41 says nothing is lowered, before the book's 0 rule could move it.
    loss = R.stat_loss("AG", LINEMAN, _at(ag=-2))
    assert (loss.lowered, loss.choose_from) == (None, ())


def test_the_limit_is_the_boards_setting_r41():
    loss = injuries.stat_loss("MA", base=LINEMAN, current=_at(ma=-1), limit=1)
    assert loss.lowered is None and "already 1 below" in loss.shown


GOBLIN = {"MA": 6, "ST": 2, "AG": 3, "AV": 7}


def test_lowered_to_0_the_loss_hits_another_characteristic_at_random_r29():
    # "Hvis en spiller blir skadet og får redusert en stat til 0, vil han isteden få reduksjon i en annen
    # stat, tilfeldig valgt": ST 2 at -1 is ST 1. The others that may lose 1 are offered to the die ...
    loss = injuries.stat_loss("ST", base=GOBLIN, current={**GOBLIN, "ST": 1, "AG": 1}, limit=2)
    assert (loss.lowered, loss.choose_from) == (None, ("MA", "AV"))  # AG 1 cannot go to 0 either
    moved = loss.moved_to("AV")
    assert (moved.lowered, moved.shown) == ("AV", "ST cannot go to 0: -1 AV instead (R29)")
    with pytest.raises(ValueError):
        loss.moved_to("AG")
    # ... but never one already at -2 (R41): with none left, nothing is lowered.
    stuck = injuries.stat_loss("ST", base=GOBLIN, current={"MA": 4, "ST": 1, "AG": 1, "AV": 5}, limit=2)
    assert (stuck.lowered, stuck.choose_from, stuck.shown) == (None, (), "no stat can be lowered further")


@pytest.mark.parametrize(
    ("base", "current", "change", "allowed"),
    [(5, 6, 1, True), (5, 7, 1, False), (3, 2, -1, True), (3, 1, -1, False)],
)
def test_a_characteristic_stays_within_2_of_the_position_both_ways_r41(base, current, change, allowed):
    # R41 (nor more than 2 above), as R29's development roll asks it: +1 at +1 yes, at +2 no; -1 at -2 no.
    assert R.stat_change_allowed(base, current, change) is allowed


# --- issue 25: an injury's -1, the whole outcome at each edge of R41's band and of the book's 0 rule ----
# The book's "Karakteristikker": "Hvis en spiller blir skadet og får redusert en stat til 0, vil han isteden
# få reduksjon i en annen stat, tilfeldig valgt. En stat kan ikke økes eller minskes med mer en +/-2 fra den
# opprinnelige verdien." R41: at -2 nothing is lowered, and the loss is never moved for it; R29 keeps the 0 rule.
TREEMAN = {"MA": 2, "ST": 6, "AG": 1, "AV": 10}  # the Big Guys' table: Treeman 2 6 1 10
AT_RANDOM = "%s cannot go to 0: -1 to another at random (R29)"
NOT_LOWERED = "%s is already 2 below the position's value: not lowered (R41)"


@pytest.mark.parametrize(
    ("stat", "base", "current", "expected"),
    [
        # R41's band for a Lineman's MA 6: 8 (+2) down to 5 (-1) lose 1; 4 (-2) is its end: nothing lowered.
        ("MA", LINEMAN, _at(ma=2), StatLoss("MA", "MA", "-1 MA")),
        ("MA", LINEMAN, _at(ma=-1), StatLoss("MA", "MA", "-1 MA")),
        ("MA", LINEMAN, _at(ma=-2), StatLoss("MA", None, NOT_LOWERED % "MA")),
        # The 0 rule's edge: a Goblin's ST 2 at 2 loses 1 (to 1); at 1 the loss goes to another characteristic,
        # and AG 2 (-1 from 3) is one of them: it ends at 1 and at -2, both still allowed.
        ("ST", GOBLIN, GOBLIN, StatLoss("ST", "ST", "-1 ST")),
        ("ST", GOBLIN, {**GOBLIN, "ST": 1, "AG": 2}, StatLoss("ST", None, AT_RANDOM % "ST", ("MA", "AG", "AV"))),
        # A Treeman at MA 1 (-1): MA cannot go to 0, and neither can his AG 1 (the position's own value).
        ("MA", TREEMAN, {**TREEMAN, "MA": 1}, StatLoss("MA", None, AT_RANDOM % "MA", ("ST", "AV"))),
        ("AG", TREEMAN, {**TREEMAN, "MA": 1}, StatLoss("AG", None, AT_RANDOM % "AG", ("ST", "AV"))),
        # Every other characteristic at -2 (R41) or at 1: nothing is lowered at all.
        ("ST", GOBLIN, {"MA": 4, "ST": 1, "AG": 1, "AV": 5}, StatLoss("ST", None, "no stat can be lowered further")),
    ],
)
def test_an_injurys_minus_1_at_the_edges_of_r41_and_the_books_0_rule_r29(stat, base, current, expected):
    assert R.stat_loss(stat, base, current) == expected


def test_the_die_picks_among_the_others_and_the_loss_names_both_r29():
    loss = R.stat_loss("MA", TREEMAN, {**TREEMAN, "MA": 1})
    assert loss.moved_to("AV") == StatLoss("MA", "AV", "MA cannot go to 0: -1 AV instead (R29)")
    for refused in ("MA", "AG"):  # the one that cannot go to 0 itself, and AG 1 that cannot either
        with pytest.raises(ValueError, match=f"'{refused}' is not one of"):
            loss.moved_to(refused)


def _within_the_band(stats: st.SearchStrategy[int]) -> st.SearchStrategy[tuple[dict[str, int], dict[str, int]]]:
    """A position's characteristics and a player's, each within R41's ±2 and at least 1."""

    def player(base: dict[str, int]) -> st.SearchStrategy[tuple[dict[str, int], dict[str, int]]]:
        current = st.fixed_dictionaries({s: st.integers(max(1, base[s] - 2), base[s] + 2) for s in STATS})
        return current.map(lambda c: (base, c))

    return st.fixed_dictionaries({s: stats for s in STATS}).flatmap(player)


@settings(max_examples=150, deadline=None)
@given(position=_within_the_band(st.integers(1, 10)), stat=st.sampled_from(STATS))
def test_whatever_the_die_picks_no_characteristic_goes_to_0_or_past_minus_2_r41_r29(position, stat):
    base, current = position
    loss = R.stat_loss(stat, base, current)

    def may_lose(s: str) -> bool:  # the book: not to 0; R41: not past -2
        return current[s] - 1 >= 1 and current[s] - 1 - base[s] >= -2

    at_minus_2 = current[stat] - base[stat] <= -2
    if may_lose(stat):
        assert (loss.lowered, loss.choose_from) == (stat, ())
    elif at_minus_2:  # R41: nothing lowered, never moved
        assert (loss.lowered, loss.choose_from) == (None, ())
    else:  # at 1 within the band: the book's 0 rule offers exactly the others that may lose 1
        assert loss.lowered is None
        assert set(loss.choose_from) == {s for s in STATS if s != stat and may_lose(s)}
    for other in loss.choose_from:
        assert loss.moved_to(other).lowered == other and may_lose(other)
