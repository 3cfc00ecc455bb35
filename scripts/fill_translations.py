"""Fill empty msgstr entries of a .po catalogue from a JSON dictionary {msgid: msgstr}.

Usage: python scripts/fill_translations.py locale/nb/LC_MESSAGES/django.po locale/nb/translations.json
Keeps the Norwegian wording in one reviewable JSON file; run `make messages` afterwards to compile.
"""

import json
import re
import sys
from pathlib import Path


def unquote(lines: list[str]) -> str:
    return "".join(json.loads(line.strip()[line.strip().index('"') :]) for line in lines)


def quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def fill(po_path: Path, table: dict[str, str]) -> list[str]:
    blocks = po_path.read_text(encoding="utf-8").split("\n\n")
    missing = []
    out = []
    for block in blocks:
        lines = block.split("\n")
        try:
            i_id = next(i for i, line in enumerate(lines) if line.startswith("msgid "))
            i_str = next(i for i, line in enumerate(lines) if line.startswith("msgstr"))
        except StopIteration:
            out.append(block)
            continue
        i_plural = next((i for i, line in enumerate(lines) if line.startswith("msgid_plural")), None)
        msgid = unquote(lines[i_id : i_plural if i_plural is not None else i_str])
        if i_plural is not None:
            # Plural forms: the dictionary holds [singular, plural].
            if isinstance(table.get(msgid), list):
                one, many = table[msgid]
                lines = [*lines[:i_str], f"msgstr[0] {quote(one)}", f"msgstr[1] {quote(many)}"]
                lines = [line for line in lines if line != "#, fuzzy" and not line.startswith("#| ")]
                lines = [re.sub(r"^#, fuzzy, ", "#, ", line) for line in lines]
            elif 'msgstr[0] ""' in lines or any(line.startswith("#, fuzzy") for line in lines):
                missing.append(msgid)  # a fuzzy guess is not a translation: compilemessages skips it
            out.append("\n".join(lines))
            continue
        if not msgid:
            out.append(block)
            continue
        if msgid in table:
            lines = [*lines[:i_str], f"msgstr {quote(table[msgid])}"]
            lines = [line for line in lines if line != "#, fuzzy" and not line.startswith("#| ")]
            lines = [re.sub(r"^#, fuzzy, ", "#, ", line) for line in lines]
        elif unquote(lines[i_str:]) == "" or any(line.startswith("#, fuzzy") for line in lines):
            missing.append(msgid)  # a fuzzy guess is not a translation: compilemessages skips it
        out.append("\n".join(lines))
    po_path.write_text("\n\n".join(out), encoding="utf-8")
    return missing


if __name__ == "__main__":
    po, source = Path(sys.argv[1]), Path(sys.argv[2])
    left = fill(po, json.loads(source.read_text(encoding="utf-8")))
    for msgid in left:
        print(f"untranslated: {msgid!r}")
