"""Names for the demo league's players: Norwegian first names and nicknames, as a club's coaches
would name them ("Ola «Knusern»"), not "Lineorcs 7"."""

from __future__ import annotations

import random

FIRST_NAMES = (
    "Ola", "Kari", "Per", "Kåre", "Knut", "Ingrid", "Lars", "Sigrid", "Nils", "Astrid", "Odd", "Solveig",
    "Arne", "Ragnhild", "Bjørn", "Åse", "Geir", "Tone", "Terje", "Hege", "Trond", "Marte", "Rune", "Silje",
    "Svein", "Eirik", "Håkon", "Gunnar", "Torbjørn", "Øystein", "Ståle", "Jørgen", "Vegard", "Sindre",
    "Magnus", "Nora", "Henrik", "Jonas", "Tormod", "Halvard", "Gro", "Liv", "Randi", "Asbjørn", "Dagfinn",
)  # fmt: skip
NICKNAMES = (
    "Knusern", "Bulldoseren", "Lynet", "Slakteren", "Tordenbrak", "Bautaen", "Snøballen", "Vepsen", "Jerven",
    "Mjølner", "Draugen", "Stålkula", "Kverna", "Fjellet", "Råtassen", "Sleggja", "Bjønnen", "Gaupa",
    "Isbjørn", "Tussen", "Skrotten", "Ulven", "Trollet", "Hammeren", "Nøkken", "Lemen", "Raketten", "Kniven",
    "Brakar", "Svartebjørn", "Stormen", "Steinen", "Grisen", "Ørna", "Måken", "Ljåen", "Muldvarpen",
)  # fmt: skip


def player_names(team_name: str, count: int) -> list[str]:
    """`count` different names for a team's players, the same for the same team every time (a source
    of their own, so the demo's dice are those its seed gives whatever the names)."""
    rng = random.Random(team_name)
    firsts, nicknames = rng.sample(FIRST_NAMES, count), rng.sample(NICKNAMES, count)
    return [f"{first} «{nickname}»" for first, nickname in zip(firsts, nicknames, strict=True)]
