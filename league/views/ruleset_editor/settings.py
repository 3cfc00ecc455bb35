"""The rules editor's settings: every setting of a version as a labelled field, grouped as the rulebook is:
here the team, the gate and the fans, the stadium and the winnings; the rest in `settings_after`."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from league.views.ruleset_editor.fields import (
    AFTER,
    GAME,
    GP,
    PER_DIE,
    PERCENT,
    SEATS,
    STADIUM,
    STAFF,
    TEAMS,
    TICKETS,
    Setting,
)
from league.views.ruleset_editor.settings_after import AFTER_THE_MATCH

BEFORE_THE_MATCH: tuple[tuple[str, str | Promise, tuple[Setting, ...], tuple[str, ...]], ...] = (
    (
        "team",
        _("Team creation and staff"),
        (
            Setting(
                ("tr_divisor",), _("Team rating: total value divided by"), GP, 1, None, "R1", TEAMS + " – Team Rating"
            ),
            Setting(("max_squad",), _("Players counted in the team rating"), _("players"), 1, 25, "R3", TEAMS),
            Setting(("starting_treasury",), _("Starting treasury"), GP, 0, None, "R5", TEAMS),
            Setting(("min_players_creation",), _("Players at least, at creation"), _("players"), 0, 25, "R5", TEAMS),
            Setting(("max_players",), _("Players at most on a roster"), _("players"), 1, 99, "R5", TEAMS),
            Setting(("max_rerolls",), _("Team re-rolls at most"), _("re-rolls"), 0, 99, "R5", STAFF),
            Setting(("reroll_percent", "creation"), _("Re-roll price at creation"), PERCENT, 1, 1000, "R7", STAFF),
            Setting(("reroll_percent", "season"), _("Re-roll price during a season"), PERCENT, 1, 1000, "R7", STAFF),
            Setting(
                ("reroll_percent", "offseason"), _("Re-roll price between seasons"), PERCENT, 1, 1000, "R7, R33", STAFF
            ),
            Setting(("fan_factor_price",), _("Fan factor price at creation"), GP, 0, None, "R5", TEAMS),
            Setting(("fan_factor_value",), _("Fan factor's value in the team rating"), GP, 0, None, "R2", TEAMS),
            Setting(("max_fan_factor_creation",), _("Fan factor at most at creation"), "", 0, 99, "R5", TEAMS),
            Setting(("apothecary_price",), _("Apothecary price"), GP, 0, None, "R5", STAFF),
            Setting(("apothecary_value",), _("Apothecary's value in the team rating"), GP, 0, None, "R2", STAFF),
            Setting(("assistant_coach_price",), _("Assistant coach price"), GP, 0, None, "R5", STAFF),
            Setting(("cheerleader_step",), _("Cheerleaders: the n-th costs n ×"), GP, 0, None, "R6", STAFF),
            Setting(("big_guy_limit",), _("Big Guys at most per team"), "", 0, 16, "R5", TEAMS),
            Setting(("master_chef_die_price",), _("Master Chef: price of a die"), GP, 0, None, "R9", STAFF),
            Setting(
                ("retire_gives_assistant_coach",),
                _("A retired player becomes a free assistant coach"),
                "",
                None,
                None,
                "R8",
                STAFF,
                "bool",
            ),
        ),
        (),
    ),
    (
        "gate",
        _("Gate and fans"),
        (
            Setting(("gate_unit",), _("Gate: each point of the dice is"), _("spectators"), 1, None, "R12", GAME),
            Setting(("division_dice", "1"), _("Gate and winnings die, 1st division"), _("sides"), 2, 20, "R12", GAME),
            Setting(("division_dice", "2"), _("Gate and winnings die, 2nd division"), _("sides"), 2, 20, "R12", GAME),
            Setting(("home_gate_modifier",), _("Home team's gate modifier"), PER_DIE, -6, 6, "R13", STADIUM),
            Setting(("away_gate_modifier",), _("Away team's gate modifier"), PER_DIE, -6, 6, "R13", STADIUM),
            Setting(
                ("ticket_gate_modifier", "cheap"), _("Cheap tickets: gate modifier"), PER_DIE, -6, 6, "R13", TICKETS
            ),
            Setting(
                ("ticket_gate_modifier", "ordinary"),
                _("Ordinary tickets: gate modifier"),
                PER_DIE,
                -6,
                6,
                "R13",
                TICKETS,
            ),
            Setting(
                ("ticket_gate_modifier", "expensive"),
                _("Expensive tickets: gate modifier"),
                PER_DIE,
                -6,
                6,
                "R13",
                TICKETS,
            ),
            Setting(("fan_factor_change", "win"), _("Fan factor roll: a win"), "", -6, 6, "R30", AFTER),
            Setting(("fan_factor_change", "draw"), _("Fan factor roll: a draw"), "", -6, 6, "R30", AFTER),
            Setting(("fan_factor_change", "loss"), _("Fan factor roll: a loss"), "", -6, 6, "R30", AFTER),
            Setting(("fan_factor_change", "touchdowns_needed"), _("Touchdowns for the bonus"), "", 0, 99, "R30", AFTER),
            Setting(("fan_factor_change", "touchdowns_bonus"), _("Bonus for the touchdowns"), "", -6, 6, "R30", AFTER),
            Setting(
                ("fan_factor_change", "casualties_needed"),
                _("Casualties caused for the bonus"),
                "",
                0,
                99,
                "R30, R38",
                AFTER,
            ),
            Setting(("fan_factor_change", "casualties_bonus"), _("Bonus for the casualties"), "", -6, 6, "R30", AFTER),
            Setting(
                ("fan_factor_change", "crowd_casualty_bonus"),
                _("Your crowd caused a casualty"),
                "",
                -6,
                6,
                "R30",
                AFTER,
            ),
            Setting(
                ("fan_factor_change", "per_fan_factor"), _("For each … points of fan factor"), "", 1, 99, "R30", AFTER
            ),
            Setting(("fan_factor_change", "per_fan_factor_modifier"), _("… the roll gets"), "", -6, 6, "R30", AFTER),
            Setting(
                ("fan_factor_change", "down_below"),
                _("Fan factor goes down when the total is below"),
                "",
                -20,
                20,
                "R30",
                AFTER,
            ),
            Setting(
                ("fan_factor_change", "up_above"),
                _("Fan factor goes up when the total is above"),
                "",
                -20,
                20,
                "R30",
                AFTER,
            ),
            Setting(
                ("tv_station_fan_factor_bonus",), _("TV station: fan factor roll bonus"), "", -6, 6, "R19", STADIUM
            ),
        ),
        ("fan_factor_modifier",),
    ),
    (
        "stadium",
        _("Stadium"),
        (
            Setting(("start_capacity",), _("Starting capacity"), SEATS, 0, None, "R16", STADIUM),
            Setting(
                ("start_capacity_first_division",),
                _("Starting capacity, 1st division teams when stadium rules begin"),
                SEATS,
                0,
                None,
                "R16",
                STADIUM,
            ),
            Setting(("expansion_step",), _("An expansion adds"), SEATS, 1, None, "R16", STADIUM),
            Setting(("expansion_rounding",), _("Expansion cost rounded down to whole"), GP, 1, None, "R16", STADIUM),
            Setting(
                ("roof_price_per_new_seat",), _("With a roof, each new seat costs extra"), GP, 0, None, "R16", STADIUM
            ),
            Setting(("roof_price_per_seat",), _("A roof costs per current seat"), GP, 0, None, "R16", STADIUM),
            Setting(
                ("overcrowding_percent",),
                _("Attendance counts up to"),
                _("percent of capacity"),
                100,
                1000,
                "R17",
                STADIUM + " – Underkapasitet",
            ),
            Setting(
                ("seats_destroyed_percent",),
                _("Vandalised: seats destroyed"),
                _("percent of the overflow"),
                0,
                100,
                "R18",
                STADIUM + " – Vandalisering",
            ),
            Setting(("caretakers_repair",), _("Caretakers repair up to"), SEATS, 0, None, "R18", "Stadion-fasiliteter"),
            Setting(
                ("neutral_capacity",),
                _("Neutral venue's capacity"),
                SEATS,
                0,
                None,
                "R14",
                "Spesielle bestemmelser om cupen",
            ),
            Setting(
                ("home_team_rerolls",),
                _("Home team's extra re-rolls"),
                _("re-rolls"),
                0,
                9,
                "R14",
                STADIUM + " – Hjemmebane",
            ),
        ),
        ("vandalism", "facilities"),
    ),
    (
        "winnings",
        _("Winnings"),
        (
            Setting(
                ("winnings_unit",), _("Each point of the winnings roll is"), GP, 1, None, "R20", AFTER + " – Premier"
            ),
            Setting(("winnings_win_bonus",), _("Winnings roll: the winner"), "", -6, 6, "R20", AFTER + " – Premier"),
            Setting(
                ("winnings_home_bonus",), _("Winnings roll: the home team"), "", -6, 6, "R20", AFTER + " – Premier"
            ),
            Setting(
                ("ticket_winnings_row_shift", "cheap"),
                _("Cheap tickets: rows moved in the winnings table"),
                _("rows"),
                -9,
                9,
                "R20",
                TICKETS,
            ),
            Setting(
                ("ticket_winnings_row_shift", "ordinary"),
                _("Ordinary tickets: rows moved in the winnings table"),
                _("rows"),
                -9,
                9,
                "R20",
                TICKETS,
            ),
            Setting(
                ("ticket_winnings_row_shift", "expensive"),
                _("Expensive tickets: rows moved in the winnings table"),
                _("rows"),
                -9,
                9,
                "R20",
                TICKETS,
            ),
            Setting(
                ("vip_lounge_bonus",), _("VIP lounge: winnings roll bonus"), "", -6, 6, "R19", "Stadion-fasiliteter"
            ),
            Setting(
                ("vip_lounge_threshold",),
                _("VIP lounge: touchdowns or casualties needed"),
                "",
                0,
                99,
                "R19, R38",
                "Stadion-fasiliteter",
            ),
            Setting(("kiosk_target",), _("Kiosk: income on"), _("or more on a D6"), 1, 7, "R19", "Stadion-fasiliteter"),
            Setting(("kiosk_income",), _("Kiosk income"), GP, 0, None, "R19", "Stadion-fasiliteter"),
        ),
        ("winnings",),
    ),
)

GROUPS = (*BEFORE_THE_MATCH, *AFTER_THE_MATCH)
