"""The rules' explanations read in the interface's language (league/templatetags/rules_text.py)."""

from django.utils import translation

from league.templatetags.rules_text import rules_text


def test_norwegian():
    with translation.override("nb"):
        assert rules_text("roll 4") == "kast 4"
        assert rules_text("winner +1") == "vinner +1"
        assert rules_text("Kampbonus: row 40,001–60,000, column 100–125: +2") == (
            "Kampbonus: rad 40,001–60,000, kolonne 100–125: +2"
        )
        assert rules_text("Torshov Trolls: FF 3 × D6. home +1 per die; expensive tickets -1 per die") == (
            "Torshov Trolls: FF 3 × D6. hjemme +1 per terning; dyre billetter -1 per terning"
        )
        assert rules_text("Vær: 2D6 3+4 = 7 → Fint vær") == "Vær: 2D6 3+4 = 7 → Fint vær"  # already Norwegian


def test_english_is_left_alone():
    with translation.override("en"):
        assert rules_text("roll 4") == "roll 4"
