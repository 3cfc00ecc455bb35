"""The rules editor's settings of after the match and of the season: injuries and healers, the players'
development, the handicaps, the season and the cup."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from league.views.ruleset_editor.fields import AFTER, GAME, GP, INJURIES, STAFF, Setting

AFTER_THE_MATCH: tuple[tuple[str, str | Promise, tuple[Setting, ...], tuple[str, ...]], ...] = (
    (
        "injuries",
        _("Injuries and healers"),
        (
            Setting(("apothecary_ap",), _("Apothecary: ability points per match"), _("AP"), 0, 99, "R26", INJURIES),
            Setting(
                ("apothecary_target",),
                _("Apothecary: each attempt succeeds on"),
                _("or more on a D6"),
                1,
                7,
                "R26",
                INJURIES,
            ),
            Setting(("bandage_crew_fee",), _("Bandage Crew: fee per attempt"), GP, 0, None, "R25", INJURIES),
            Setting(
                ("bandage_crew_targets",),
                _("Bandage Crew: attempts need"),
                _("1st, 2nd, 3rd … attempt"),
                1,
                7,
                "R25",
                INJURIES,
                "ints",
            ),
            Setting(
                ("apprentice_fee",), _("Apprentice or Familiar: fee"), GP, 0, None, "R9", STAFF + " – Necromancers"
            ),
            Setting(
                ("apprentice_target",),
                _("Apprentice or Familiar: revives on"),
                _("or more on a D6"),
                1,
                7,
                "R9",
                STAFF + " – Necromancers",
            ),
            Setting(
                ("apprentice_players",),
                _("Apprentice: players per match"),
                _("players"),
                0,
                16,
                "R9",
                STAFF + " – Necromancers",
            ),
            Setting(
                ("familiar_players",),
                _("Nurgle Familiar: players per match"),
                _("players"),
                0,
                16,
                "R9",
                STAFF + " – Nurgle Familiar",
            ),
            Setting(
                ("regeneration_target",),
                _("Regeneration succeeds on"),
                _("or more on a D6"),
                1,
                7,
                "R25",
                "Regeneration",
            ),
            Setting(
                ("niggling_fails_on",),
                _("A niggling injury check fails on"),
                _("or less on a D6"),
                0,
                6,
                "R36",
                GAME + " – Sjekk spillere for NI",
            ),
            Setting(
                ("niggling_kept_between_seasons",),
                _("Niggling injuries kept between seasons"),
                "",
                0,
                9,
                "R33",
                "Sesongen",
            ),
        ),
        ("serious_injury", "revival", "apothecary_costs"),
    ),
    (
        "players",
        _("Players and development"),
        (
            Setting(
                ("stat_limit",),
                _("A stat changes at most"),
                _("from the position's value"),
                0,
                9,
                "R29",
                AFTER + " – STAT-økning",
            ),
            Setting(("mvp_limit",), _("MVPs a team receives"), _("matches"), 0, 999, "R27", AFTER + " – MVP"),
        ),
        ("development", "skill_points", "spp_awards"),
    ),
    (
        "handicap",
        _("Handicap"),
        (),
        ("handicap_count", "handicap_results"),
    ),
    (
        "season",
        _("Season and cup"),
        (
            Setting(("points", "win"), _("Points for a win"), _("points"), 0, 99, "R31", "Seriespillet"),
            Setting(("points", "draw"), _("Points for a draw"), _("points"), 0, 99, "R31", "Seriespillet"),
            Setting(("points", "loss"), _("Points for a loss"), _("points"), 0, 99, "R31", "Seriespillet"),
            Setting(("tiebreakers",), _("Tie-breakers, in order"), "", None, None, "R31", "Seriespillet", "words"),
            Setting(
                ("prizes", "1"), _("Prizes, 1st division (1st, 2nd, 3rd …)"), GP, 0, None, "R32", "Sesongen", "ints"
            ),
            Setting(
                ("prizes", "2"), _("Prizes, 2nd division (1st, 2nd, 3rd …)"), GP, 0, None, "R32", "Sesongen", "ints"
            ),
            Setting(("promotion_count",), _("Teams promoted and relegated"), _("teams"), 0, 16, "R32", "Sesongen"),
            Setting(("promotion_fan_factor",), _("Fan factor for a promoted team"), "", -9, 9, "R32", "Sesongen"),
            Setting(("trophy_rerolls",), _("Trophy re-rolls for next season"), _("re-rolls"), 0, 9, "R32", "Sesongen"),
            Setting(
                ("forfeit_fan_factor_loss",), _("A forfeit costs fan factor"), "", 0, 99, "R35", "Oberwald FAQ 3.7"
            ),
            Setting(
                ("forfeit_score",),
                _("A forfeit is scored"),
                _("home, away touchdowns"),
                0,
                99,
                "R35",
                "Oberwald FAQ 3.7",
                "ints",
            ),
        ),
        (),
    ),
)
