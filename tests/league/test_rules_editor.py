"""The board's rules editor outside the admin: tables as tables, versions, diff, preview (issue 13)."""

import json

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from league import rules
from league.models import Ruleset
from league.views.ruleset_editor.cells import parse_number
from league.views.ruleset_editor.changes import differences
from league.views.ruleset_editor.form import RulesetEditorForm

pytestmark = pytest.mark.django_db

WINNINGS_CELL = "t-winnings-cells-2-1"  # Kampbonus row 40,001–60,000, column 100–125: +2 in the book (R21)
BEAST_EFFECT = "t-handicap_results-3-effect"  # Handicap tabell 2, 21–22: Æ e bæst


def default() -> Ruleset:
    return Ruleset.objects.get(name="Torshov 2006")


def draft_of(source: Ruleset | None = None, name: str = "Torshov 2027") -> Ruleset:
    return (source or default()).copy_as_draft(name)


def fresh(ruleset: Ruleset) -> Ruleset:
    """From the database again (`rules` is cached on the instance)."""
    return Ruleset.objects.get(pk=ruleset.pk)


def editor_post(ruleset: Ruleset, **changes: object) -> dict[str, object]:
    """What the editor's form posts unchanged, with some fields typed over."""
    form = RulesetEditorForm(ruleset=ruleset)
    post: dict[str, object] = {}
    for name, field in form.fields.items():
        value = field.initial
        if isinstance(value, bool):
            if value:
                post[name] = "on"
            continue
        post[name] = "" if value is None else str(value)
    post.update(changes)
    return post


def login(client, who, coach, board_member):
    if who == "coach":
        client.force_login(coach)
    elif who == "board":
        client.force_login(board_member)


# --- reading numbers as people type them -----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [("8", 8), ("+2", 2), ("-1", -1), ("\u22121", -1), ("10 000", 10000), ("10.000", 10000), ("10,000", 10000)],
)
def test_numbers_are_read_as_typed(text, value):
    assert parse_number(text) == value


@pytest.mark.parametrize("text", ["åtte", "", "1.5", "2,5", "3+"])
def test_what_is_not_a_whole_number(text):
    assert parse_number(text) is None


# --- the editor -----------------------------------------------------------------------------------


def test_the_editor_shows_settings_with_labels_units_rulings_and_tables_as_grids(client, board_member):
    draft = draft_of()
    client.force_login(board_member)
    with translation.override("nb"):
        html = client.get(reverse("rules_version_edit", args=[draft.pk]), HTTP_ACCEPT_LANGUAGE="nb").content.decode()
    # Norwegian labels, units, rulings and the rulebook's section beside each setting
    assert "Lagdannelse og stab" in html and "Kampbonus" in html
    assert "Lagverdi: total verdi delt på" in html and "R1 · Regelboka: Lagene – Team Rating" in html
    # the winnings table: its row and column headers as the book prints them, one input a cell, its
    # numbers written the Norwegian way
    assert "40\u00a0001–60\u00a0000" in html and "100–125" in html
    assert f'name="{WINNINGS_CELL}" value="2"' in html
    # the FFM table, 30 × 30 inputs; vandalism; both handicap tables; serious injury and revival
    assert 'name="t-fan_factor_modifier-cells-29-29"' in html
    for key in ("vandalism", "handicap_count", "handicap_results", "serious_injury", "revival", "development"):
        assert f'id="table-{key}"' in html


def test_saving_the_editor_unchanged_keeps_the_data_exactly(client, board_member):
    draft = draft_of()
    client.force_login(board_member)
    response = client.post(reverse("rules_version_edit", args=[draft.pk]), editor_post(draft))
    assert response.status_code == 302
    draft.refresh_from_db()
    assert {**draft.data, "name": ""} == {**default().data, "name": ""}


def test_a_changed_cell_and_setting_are_saved_and_change_the_winnings(client, board_member):
    draft = draft_of()
    client.force_login(board_member)
    post = editor_post(draft, **{WINNINGS_CELL: "+3", "s-winnings_home_bonus": "2", "notes": "Mer penger hjemme"})
    assert client.post(reverse("rules_version_edit", args=[draft.pk]), post).status_code == 302
    draft.refresh_from_db()
    # EXAMPLES.md: home win, TR 112, attendance 49,000, D6 4 → 4 + 1 + 1 + 2 = 8 → 80,000 in the book;
    # now 4 + 1 + 2 (home) + 3 (cell) = 10 → 100,000.
    kwargs = dict(team_rating=112, attendance=49_000, capacity=60_000, won=True, home=True)
    assert default().rules.winnings(4, **kwargs) == 80_000
    assert fresh(draft).rules.winnings(4, **kwargs) == 100_000
    assert draft.notes == "Mer penger hjemme"


@pytest.mark.parametrize(
    ("field", "typed", "message"),
    [
        (
            WINNINGS_CELL,
            "åtte",
            "Kampbonus, rad 40\u00a0001–60\u00a0000, kolonne 100–125: «åtte» er ikke et helt tall.",
        ),
        (
            "t-fan_factor_modifier-cells-16-10",
            "x",
            "Fan Factor-modifier, rad 85, kolonne 55: «x» er ikke et helt tall.",
        ),
        ("t-vandalism-1-target", "1", "Vandalisering, rad 10\u00a0000–19\u00a0999, kolonne D6 for å unngå"),
        ("t-serious_injury-0-miss", "-1", "Alvorlig skade-tabell, rad 11–13, kolonne Står over kamper: -1 er under"),
        ("s-tr_divisor", "ti tusen", "Lagverdi: total verdi delt på: «ti tusen» er ikke et helt tall."),
        (
            "t-handicap_count-0-bands-2",
            "27–50",
            "Handicap tabell 1, rad TR ≤149, kolonne 2: hull mellom 11–25 og 27–50",
        ),
        # issue 26: the Norwegian effect is required (the English beside it is not)
        (BEAST_EFFECT, " ", "Handicap tabell 2, rad 21–22, kolonne Virkning: skriv en tekst."),
    ],
)
def test_an_invalid_cell_is_marked_in_place_in_norwegian_and_nothing_is_saved(
    client, board_member, field, typed, message
):
    draft = draft_of()
    before = draft.data
    client.force_login(board_member)
    response = client.post(
        reverse("rules_version_edit", args=[draft.pk]), editor_post(draft, **{field: typed}), HTTP_ACCEPT_LANGUAGE="nb"
    )
    html = response.content.decode()
    assert response.status_code == 422
    assert message in html
    assert "Ingenting ble lagret" in html
    assert 'class="invalid"' in html or "setting--invalid" in html
    draft.refresh_from_db()
    assert draft.data == before


def test_the_board_writes_a_handicap_effect_in_norwegian_and_in_english(client, board_member):
    """Issue 26: both texts are cells of handicap table 2; the English may be left empty."""
    draft = draft_of()
    client.force_login(board_member)
    changes = {
        BEAST_EFFECT: "Bare én av to tilfeldige motspillere per drive.",
        BEAST_EFFECT + "_en": "Only one of two.",
    }
    assert client.post(reverse("rules_version_edit", args=[draft.pk]), editor_post(draft, **changes)).status_code == 302
    row = fresh(draft).data["tables"]["handicap_results"][3]
    assert (row["effect"], row["effect_en"]) == ("Bare én av to tilfeldige motspillere per drive.", "Only one of two.")
    assert fresh(draft).rules.tables.handicap_results.lookup(21).value.effect_en == "Only one of two."
    with translation.override("en"):
        labels = [(c.label, c.old, c.new) for c in differences(default().data, fresh(draft).data)]
    assert (
        "Handicap tabell 2, row 21–22, column Effect (English)",
        default().data["tables"]["handicap_results"][3]["effect_en"],
        "Only one of two.",
    ) in labels
    # emptied: no English, so English readers see the Norwegian
    post = editor_post(fresh(draft), **{BEAST_EFFECT + "_en": ""})
    assert client.post(reverse("rules_version_edit", args=[draft.pk]), post).status_code == 302
    assert fresh(draft).rules.tables.handicap_results.lookup(21).value.effect_en == ""


def test_an_effect_with_no_english_stays_without_one_when_saved(client, board_member):
    draft = draft_of()
    del draft.data["tables"]["handicap_results"][3]["effect_en"]  # a text the board wrote before issue 26
    draft.save()
    before = fresh(draft).data
    client.force_login(board_member)
    assert client.post(reverse("rules_version_edit", args=[draft.pk]), editor_post(fresh(draft))).status_code == 302
    assert fresh(draft).data == before


def test_a_new_version_copies_both_texts(client, board_member):
    client.force_login(board_member)
    client.post(reverse("rules_version_copy", args=[default().pk]))
    copy = Ruleset.objects.get(based_on=default())
    rows = copy.data["tables"]["handicap_results"]
    assert rows == default().data["tables"]["handicap_results"] and all(r["effect_en"] for r in rows)
    assert copy.data["source_en"] == default().data["source_en"]


def test_a_published_version_cannot_be_edited(client, board_member):
    client.force_login(board_member)
    url = reverse("rules_version_edit", args=[default().pk])
    assert client.get(url).status_code == 302
    response = client.post(url, editor_post(default(), **{WINNINGS_CELL: "9"}))
    assert response.status_code == 302
    assert default().rules.tables.winnings.cells[2][1] == 2


# --- versions -------------------------------------------------------------------------------------


def test_new_version_from_this_one_stores_the_parent(client, board_member):
    client.force_login(board_member)
    response = client.post(reverse("rules_version_copy", args=[default().pk]))
    copy = Ruleset.objects.get(name="Torshov 2006 (kopi)")
    assert response.url == reverse("rules_version_edit", args=[copy.pk])
    assert copy.based_on == default() and not copy.is_published and copy.data["tables"] == default().data["tables"]
    client.post(reverse("rules_version_copy", args=[default().pk]))
    assert Ruleset.objects.filter(name="Torshov 2006 (kopi 2)").exists()


def test_the_version_page_shows_each_difference_readably(client, board_member):
    draft = draft_of()
    data = json.loads(json.dumps(draft.data))
    data["tables"]["winnings"]["cells"][2][1] = 3
    data["settings"]["winnings_home_bonus"] = 2
    data["tables"]["weather"][0]["name"] = "Tropenatt"
    draft.data = data
    draft.save()
    with translation.override("en"):
        changes = differences(default().data, draft.data)
    assert [(c.label, c.old, c.new) for c in changes] == [
        ("Winnings roll: the home team", "1", "2"),
        ("Kampbonus, row 40,001–60,000, column 100–125", "2", "3"),
        ("0 > name", "Hetebølge", "Tropenatt"),
    ]
    client.force_login(board_member)
    html = client.get(reverse("rules_version", args=[draft.pk]), HTTP_ACCEPT_LANGUAGE="nb").content.decode()
    assert "Kampbonus, rad 40\u00a0001–60\u00a0000, kolonne 100–125" in html
    assert "Kampbonus: hjemmelaget" in html
    assert "Ny versjon fra denne" in html


def test_publishing_asks_for_confirmation_and_says_what_it_means(client, board_member, season_with):
    season, _teams = season_with(first=2, second=2)
    draft = draft_of()
    client.force_login(board_member)
    url = reverse("rules_version_publish", args=[draft.pk])
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="nb").content.decode()
    assert season.name in html and "Torshov 2006" in html
    assert "en sesong som er i gang beholder sin versjon" in html
    assert "kan aldri endres" in html
    response = client.post(url, {}, HTTP_ACCEPT_LANGUAGE="nb")  # not confirmed: nothing happens
    assert response.status_code == 422
    draft.refresh_from_db()
    assert not draft.is_published
    assert client.post(url, {"confirm": "on"}).status_code == 302
    draft.refresh_from_db()
    assert draft.is_published
    season.refresh_from_db()
    assert season.ruleset == default()  # a season keeps its version


def test_a_draft_is_the_boards_a_published_version_is_public(client, coach):
    draft = draft_of()
    assert client.get(reverse("rules_version", args=[default().pk])).status_code == 200
    assert client.get(reverse("rules_version", args=[draft.pk])).status_code == 404
    client.force_login(coach)
    assert client.get(reverse("rules_version", args=[draft.pk])).status_code == 404
    assert client.get(reverse("rules_version_export", args=[draft.pk])).status_code == 404


def test_the_public_can_compare_two_published_versions(client):
    draft = draft_of()
    draft.data["settings"]["mvp_limit"] = 0
    draft.save()
    draft.publish()
    html = client.get(reverse("rules_compare"), {"a": default().pk, "b": draft.pk}).content.decode()
    assert "MVPs a team receives" in html or "MVP-er et lag får" in html
    rules_page = client.get(reverse("rules"), {"version": draft.pk}).content.decode()
    assert reverse("rules_version", args=[draft.pk]) in rules_page


def test_a_seasons_page_links_to_its_version(client, season_with):
    season, _teams = season_with(first=2, second=2)
    html = client.get(reverse("season", args=[season.pk])).content.decode()
    assert reverse("rules_version", args=[season.ruleset_id]) in html and "Torshov 2006" in html


# --- advanced: the version as a file ----------------------------------------------------------------


def test_export_and_import_a_version_as_a_file(client, board_member):
    client.force_login(board_member)
    response = client.get(reverse("rules_version_export", args=[default().pk]))
    assert response["Content-Disposition"] == 'attachment; filename="torshov-2006.json"'
    data = json.loads(response.content)
    data["settings"]["mvp_limit"] = 3
    draft = draft_of()
    upload = SimpleUploadedFile("r.json", json.dumps(data).encode(), content_type="application/json")
    assert client.post(reverse("rules_version_import", args=[draft.pk]), {"file": upload}).status_code == 302
    draft.refresh_from_db()
    assert draft.name == "Torshov 2027" and fresh(draft).rules.settings.mvp_limit == 3

    data["tables"]["vandalism"][1]["target"] = "to"
    upload = SimpleUploadedFile("r.json", json.dumps(data).encode(), content_type="application/json")
    response = client.post(reverse("rules_version_import", args=[draft.pk]), {"file": upload})
    assert response.status_code == 422 and "row 2 target" in response.content.decode()
    draft.refresh_from_db()
    assert draft.data["tables"]["vandalism"][1]["target"] == 2


# --- the preview ------------------------------------------------------------------------------------


def test_the_preview_computes_the_books_examples_under_both_versions(client, board_member, season_with):
    from matches.models import Match

    season, teams = season_with(first=2, second=2)
    match = Match.objects.create(
        season=season,
        division=season.divisions.get(level=1),
        round=1,
        home=teams[0],
        away=teams[1],
        status="confirmed",
        home_score=2,
        away_score=1,
    )
    draft = draft_of()
    data = json.loads(json.dumps(draft.data))
    data["settings"]["expansion_rounding"] = 10_000  # 60,000 → 70,000: half is 30,000, → 80,000: 35,000 → 30,000
    data["tables"]["winnings"]["cells"][1][0] = 5  # row 20,001–40,000, column ≤99
    draft.data = data
    draft.save()
    client.force_login(board_member)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"  # English only when chosen (issue 12)
    response = client.get(
        reverse("rules_version_preview", args=[draft.pk]),
        {"team": teams[0].pk, "match": match.pk, "roll": 3, "attendance": 40_000},
    )
    examples = {e.label: (e.draft, e.current) for e in response.context["examples"]}
    assert examples["Fan factor modifier, gates 85,000 and 55,000"] == ("+2", "+2")  # the book's example
    assert examples["Stadium 60,000 → 70,000 seats"] == ("30,000", "30,000")
    assert examples["Stadium 70,000 → 80,000 seats"] == ("30,000", "35,000")
    # Team A: 11 Linemen (550,000) → TR 55 under both; its winnings: attendance 40,000 → row
    # 20,001–40,000, column ≤99: D6 3 + 1 (win) + 1 (home) + 2 = 7 → 70,000; the draft's +5 → 100,000.
    tr = next(v for k, v in examples.items() if k.startswith("Team rating"))
    assert tr == ("55", "55")
    winnings = next(v for k, v in examples.items() if k.startswith("Winnings of"))
    assert winnings == ("100,000", "70,000")


# --- who may write ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("who", "allowed"), [("anonymous", False), ("coach", False), ("board", True)])
def test_permission_matrix_for_every_write(client, who, allowed, coach, board_member):
    draft = draft_of()
    login(client, who, coach, board_member)
    count = Ruleset.objects.count()

    client.post(reverse("rules_version_copy", args=[default().pk]))
    assert (Ruleset.objects.count() == count + 1) == allowed

    client.post(reverse("rules_version_edit", args=[draft.pk]), editor_post(draft, **{"s-mvp_limit": "0"}))
    assert (fresh(draft).rules.settings.mvp_limit == 0) == allowed

    data = rules.default_data()
    data["settings"]["mvp_limit"] = 4
    upload = SimpleUploadedFile("r.json", json.dumps(data).encode())
    client.post(reverse("rules_version_import", args=[draft.pk]), {"file": upload})
    assert (fresh(draft).rules.settings.mvp_limit == 4) == allowed

    client.post(reverse("rules_version_publish", args=[draft.pk]), {"confirm": "on"})
    draft.refresh_from_db()
    assert draft.is_published == allowed


@pytest.mark.parametrize("who", ["anonymous", "coach"])
def test_only_the_board_sees_the_editor_pages(client, who, coach, board_member):
    draft = draft_of()
    login(client, who, coach, board_member)
    for name in ("rules_version_edit", "rules_version_publish", "rules_version_preview", "rules_version_import"):
        assert client.get(reverse(name, args=[draft.pk])).status_code in {302, 403, 404}


def test_the_public_rules_page_names_each_setting_as_the_editor_does(client):
    html = client.get(reverse("rules"), HTTP_ACCEPT_LANGUAGE="nb").content.decode()
    assert "Lagverdi: total verdi delt på" in html and "10\u00a0000</td>" in html  # R1
    assert "Startkapasitet for lag i 1. divisjon når stadionreglene innføres" in html  # R16


@pytest.mark.parametrize(
    "typed", ["60000, 40000, 20000", "60000,40000,20000", "60,000, 40,000, 20,000", "60 000; 40 000; 20 000"]
)
def test_a_list_setting_is_read_as_typed(typed):
    from league.views.ruleset_editor.cells import convert

    prizes = next(s for g in rules.tables.SETTING_GROUPS for s in g.settings if s.path == ("prizes", "1"))
    assert convert(prizes, typed, "Premier") == [60_000, 40_000, 20_000]  # R32


def test_the_preview_uses_the_matchs_own_gate_and_tickets(client, board_member, season_with):
    from matches.models import Match, PreMatch

    season, teams = season_with(first=2, second=2)
    match = Match.objects.create(
        season=season, division=season.divisions.get(level=1), round=1, home=teams[0], away=teams[1],
        status="confirmed", home_score=2, away_score=1,
    )  # fmt: skip
    PreMatch.objects.create(
        match=match, ruleset=default(), home_gate=36_000, away_gate=13_000, capacity=60_000, ticket="expensive"
    )
    draft = draft_of()
    client.force_login(board_member)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"  # English only when chosen (issue 12)
    response = client.get(
        reverse("rules_version_preview", args=[draft.pk]),
        {"team": teams[0].pk, "match": match.pk, "roll": 4},
    )
    # EXAMPLES.md: gates 36,000 + 13,000 = 49,000, expensive tickets move one row down (R20) to
    # 60,001–80,000; TR 55 → column ≤99: +4. D6 4 + 1 (win) + 1 (home) + 4 = 10 → 100,000.
    winnings = next(e for e in response.context["examples"] if e.label.startswith("Winnings of"))
    assert "49,000" in winnings.label
    assert (winnings.draft, winnings.current) == ("100,000", "100,000")
    assert not winnings.differs


def test_the_version_list_shows_drafts_and_copy_buttons_to_the_board_only(client, board_member):
    draft = draft_of()
    public = client.get(reverse("rules_versions")).content.decode()
    assert "Torshov 2006" in public and draft.name not in public
    assert reverse("rules_version_copy", args=[default().pk]) not in public
    client.force_login(board_member)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"  # English only when chosen (issue 12)
    board = client.get(reverse("rules_versions")).content.decode()
    assert draft.name in board and "New version from this one" in board
    assert reverse("rules_version_copy", args=[draft.pk]) in board
    assert client.get(reverse("rules_version_edit", args=[draft.pk])).status_code == 200
    assert client.get(reverse("rules_compare")).status_code == 200


def test_the_admins_ruleset_pages_link_to_the_editor(client, board_member):
    client.force_login(board_member)
    change = client.get(reverse("admin:league_ruleset_change", args=[default().pk])).content.decode()
    assert reverse("rules_version", args=[default().pk]) in change
    changelist = client.get(reverse("admin:league_ruleset_changelist")).content.decode()
    assert reverse("rules_versions") in changelist


def test_a_name_another_version_has_is_refused_beside_the_field(client, board_member):
    draft = draft_of()
    before = (draft.name, draft.data)
    client.force_login(board_member)
    response = client.post(
        reverse("rules_version_edit", args=[draft.pk]),
        editor_post(draft, name="Torshov 2006"),  # the default's name
        HTTP_ACCEPT_LANGUAGE="nb",
    )
    assert response.status_code == 422
    html = response.content.decode()
    assert "Ingenting ble lagret" in html and 'value="Torshov 2006"' in html
    draft.refresh_from_db()
    assert (draft.name, draft.data) == before


def test_the_tiebreakers_are_typed_as_words_in_either_language_or_by_key():
    from league.views.ruleset_editor.cells import CellError, convert, unit_around

    specs = {s.path: s for g in rules.tables.SETTING_GROUPS for s in g.settings}
    tiebreakers = specs[("tiebreakers",)]
    with translation.override("nb"):
        assert convert(tiebreakers, "Poeng, poeng i innbyrdes kamper, tiebreak-kamp", "R31") == [
            "points",
            "head_to_head_points",
            "tiebreak_game",
        ]
        assert convert(tiebreakers, "touchdown difference, touchdowns_for", "R31") == [
            "touchdown_difference",
            "touchdowns_for",
        ]
        with pytest.raises(CellError, match="poeng i innbyrdes kamper"):
            convert(tiebreakers, "poeng, loddtrekning", "R31")
        # the unit around the editor's field: a die's sides after "D", players after the number
        assert unit_around(specs[("division_dice", "1")], 6) == ("D", "")
        assert unit_around(specs[("max_players",)], 25) == ("", "spillere")
        assert unit_around(specs[("apprentice_players",)], 1) == ("", "spiller")
