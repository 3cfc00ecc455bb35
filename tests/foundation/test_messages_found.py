"""Every text the interface translates stays translated after `make messages` (issue 12).

`makemessages` finds a message only where it is written as a literal in a gettext call (or in a
template's translate tag): a message in a variable, or in an f-string, is not found, and the next
`make messages` turns its Norwegian translation obsolete although the committed catalogue still
has it today. Run in a copy of the project, so the checkout is left alone.
"""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def obsolete(po: Path) -> set[str]:
    return {line for line in po.read_text().splitlines() if line.startswith("#~ msgid ")}


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="GNU gettext is not installed")
def test_make_messages_keeps_every_translation(tmp_path):
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    for name in files:
        if (ROOT / name).is_file():
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, tmp_path / name)
    result = subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "nb", "--ignore=tests", "--ignore=.venv"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    po = "locale/nb/LC_MESSAGES/django.po"
    lost = obsolete(tmp_path / po) - obsolete(ROOT / po)
    assert not lost, f"messages makemessages no longer finds (write them as literals): {sorted(lost)}"


def test_no_norwegian_message_is_a_fuzzy_guess():
    """gettext's guess for a new message (marked fuzzy) is never compiled: the page shows the English
    ("3 fixtures" on the board's dates page). Every message but the catalogue's header has its own."""
    blocks = (ROOT / "locale/nb/LC_MESSAGES/django.po").read_text(encoding="utf-8").split("\n\n")
    fuzzy = [b.split("msgid ")[1].split("\n")[0] for b in blocks[1:] if "#, fuzzy" in b]
    assert fuzzy == []
