"""The post-match sequence for one team, step by step in the order of R24.

Each step takes its dice (entered at the table or rolled by the server, recorded either way), works
out its result with league.rules, keeps the table cells it used, and is applied whole and once: the
PostMatch row is locked while a step runs, `done` marks progress, and money carries an idempotency
key in the ledger. The match's SPP were added when the report was confirmed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from league import rules, stats
from league.numbers import money
from league.refusals import Refusal
from matches import dice
from matches.models import (
    ApothecaryUse,
    DevelopmentRoll,
    DiceRoll,
    Match,
    PlayerMatch,
    PostMatch,
    PreMatch,
    SquadEntry,
)
from teams.models import Player, PlayerSkill, Skill, StatChange, Team, TreasuryEntry

Step = PostMatch.Step
STATS = ("MA", "ST", "AG", "AV")


class PostMatchError(Refusal):
    pass


def get_postmatch(match: Match, team: Team) -> PostMatch:
    postmatch, _created = PostMatch.objects.get_or_create(
        match=match, team=team, defaults={"ruleset": match.season.ruleset}
    )
    return postmatch


def _lock(match: Match, team: Team, step: int) -> tuple[Match, Team, PostMatch]:
    match = Match.objects.select_related("season__ruleset", "home__stadium", "away__stadium").get(pk=match.pk)
    if match.status != Match.Status.CONFIRMED:
        raise PostMatchError([_("The post-match sequence starts once the report is confirmed.")])
    if team.pk not in (match.home_id, match.away_id):
        raise PostMatchError([_("That team did not play this match.")])
    if match.forfeited_by_id == team.pk:
        raise PostMatchError([_("A team that forfeits gets no winnings, MVP or SPP (R35).")])
    postmatch = PostMatch.objects.select_for_update().filter(match=match, team=team).first()
    if postmatch is None:
        get_postmatch(match, team)
        postmatch = PostMatch.objects.select_for_update().get(match=match, team=team)
    if postmatch.ruleset_id == match.season.ruleset_id:
        postmatch.ruleset = match.season.ruleset  # already read with the match
    if postmatch.done >= step:
        raise PostMatchError([_("This step is already done.")])
    if postmatch.done < step - 1:
        raise PostMatchError([_("Finish the steps before this one first.")])
    team = Team.objects.select_for_update(of=("self",)).select_related("race", "stadium", "ruleset").get(pk=team.pk)
    return match, team, postmatch


def _finish(postmatch: PostMatch, step: int, key: str, lines: Sequence[str]) -> PostMatch:
    postmatch.explanations = {**postmatch.explanations, key: list(lines)}
    postmatch.done = step
    postmatch.save()
    return postmatch


def _side(match: Match, team: Team) -> str:
    return "home" if team.pk == match.home_id else "away"


def _prematch(match: Match) -> PreMatch | None:
    return PreMatch.objects.filter(match=match).first()


def _caused(match: Match, team: Team) -> int:
    """Casualties the team caused, as they happened (R38)."""
    return match.home_casualties if team.pk == match.home_id else match.away_casualties


def _facilities(team: Team) -> set[str]:
    return set(team.stadium.facilities.values_list("key", flat=True))


# --- 1. winnings (R17, R19-R21) -----------------------------------------------------------------


@transaction.atomic
def winnings(
    match: Match, team: Team, *, roll: Sequence[int] | None, kiosk: Sequence[int] | None = None, by: Any
) -> PostMatch:
    from matches.prematch import division_die
    from teams.services import post_entry

    match, team, postmatch = _lock(match, team, Step.WINNINGS)
    r = postmatch.ruleset.rules
    pre = _prematch(match)
    forfeit = match.forfeited_by_id is not None
    if not forfeit and (pre is None or pre.home_gate is None):
        raise PostMatchError([_("The winnings need the gate: walk the pre-match sequence first.")])
    side = _side(match, team)
    home = side == "home"
    rating = getattr(pre, f"{side}_rating") if pre else None
    if rating is None and forfeit:
        from teams.selectors import roster_sheet

        rating = roster_sheet(team.pk).team_rating.value
    elif rating is None:
        from matches.prematch import squad_rating

        rating = squad_rating(match, team, pre).value
    die = division_die(match, team)
    d = dice.roll(match, f"winnings:{team.pk}", step="winnings", sides=die, entered=roll, by=by, team=team)
    score = match.home_score if home else match.away_score
    # R35: a forfeit is not played: no gate, no home crowd, no facilities; the winner rolls with its +1
    neutral = match.neutral or forfeit
    attendance = 0 if forfeit else pre.home_gate + pre.away_gate
    facilities = set(pre.home_facilities) if home and not neutral else set()  # R19: at home, as at the gate
    vip = "vip_lounge" in facilities and r.vip_lounge_applies(touchdowns=score, casualties=_caused(match, team))
    explained = r.explain_winnings(
        d.values[0],
        team_rating=rating,
        attendance=attendance,
        capacity=r.settings.neutral_capacity if forfeit else pre.capacity,
        won=match.winner_id == team.pk,
        home=home,
        ticket="ordinary" if forfeit else pre.ticket,
        neutral=neutral,
        vip=vip,
        die=die,
    )
    lines = [
        _("D%(die)s %(roll)s, TR %(tr)s, attendance %(att)s")
        % {"die": die, "roll": d.shown, "tr": rating, "att": money(attendance)}
    ]
    if forfeit:
        lines.append(_("Won by a forfeit: no gate, no home bonus (R35)."))
    lines += [str(c) for c in explained.cells] + list(explained.steps)
    postmatch.winnings = explained.value
    if explained.value:
        post_entry(
            team,
            explained.value,
            kind=TreasuryEntry.Kind.WINNINGS,
            description=_("Winnings: %(match)s") % {"match": match},
            by=by,
            cause=match,
            idempotency_key=f"winnings:{match.pk}:{team.pk}",
        )
    postmatch.kiosk = 0
    if "kiosk" in facilities:
        k = dice.roll(match, f"kiosk:{team.pk}", step="winnings", entered=kiosk, by=by, team=team)
        postmatch.kiosk = r.kiosk_income(k.values[0])
        lines.append(
            _("Kiosk: D6 %(roll)s → %(income)s (3+, R19)") % {"roll": k.shown, "income": money(postmatch.kiosk)}
        )
        if postmatch.kiosk:
            post_entry(
                team,
                postmatch.kiosk,
                kind=TreasuryEntry.Kind.WINNINGS,
                description=_("Kiosk"),
                by=by,
                cause=match,
                idempotency_key=f"kiosk:{match.pk}:{team.pk}",
            )
    return _finish(postmatch, Step.WINNINGS, "winnings", lines)


# --- 2. injuries (R25, R26, R37, R9) -------------------------------------------------------------


def _skills(player: Player) -> set[str]:
    return {s.name for s in player.position.skills.all()} | {g.skill.name for g in player.gained_skills.all()}


def injured_lines(match: Match, team: Team) -> list[PlayerMatch]:
    return list(
        PlayerMatch.objects.filter(match=match, team=team)
        .exclude(injury="")
        .select_related("player__position")
        .prefetch_related("player__position__skills", "player__gained_skills__skill")
    )


def _lose_stat(player: Player, stat: str, r: rules.Ruleset, note: str, match: Match) -> str:
    """-1 to a stat; never past -2 from the position's value; a stat at 0 hits another at random (R29)."""
    base = getattr(player.position, stat.lower())
    current = base + getattr(player, f"{stat.lower()}_change")
    if current - 1 <= 0 or not r.stat_change_allowed(base, current, -1):
        others = [
            s
            for s in STATS
            if s != stat
            and r.stat_change_allowed(getattr(player.position, s.lower()), getattr(player, s.lower()), -1)
            and getattr(player, s.lower()) > 1
        ]
        if not others:
            return _("no stat can be lowered further")
        stat = others[dice.randbelow(len(others))]
    field = f"{stat.lower()}_change"
    setattr(player, field, getattr(player, field) - 1)
    StatChange.objects.create(
        player=player, stat=stat, change=-1, reason=StatChange.Reason.INJURY, note=note, match_id=match.pk
    )
    return f"-1 {stat}"


def _revive(player: Player, match: Match, r: rules.Ruleset, by: Any, entered: Mapping[str, Sequence[int]]) -> str:
    """A revived player rolls on the revival table, and the dice for the matches he misses."""
    d = dice.roll(
        match,
        f"revival:{player.pk}",
        step="injuries",
        d66=True,
        entered=entered.get(f"revival:{player.pk}"),
        by=by,
        player=player,
    )
    result = r.revival(d.total)
    miss = result.plus
    if result.dice:
        m = dice.roll(
            match,
            f"revival_miss:{player.pk}",
            step="injuries",
            sides=result.die,
            count=result.dice,
            entered=entered.get(f"revival_miss:{player.pk}"),
            by=by,
            player=player,
        )
        miss = result.miss_matches(m.values)
    player.miss_matches = max(player.miss_matches, miss)
    parts = [
        _("revived: Gjenoppliving-tabell D66 %(d)s %(name)s, out %(miss)s matches")
        % {"d": d.shown, "name": result.name, "miss": miss}
    ]
    if result.niggling:
        player.niggling += 1
        parts.append("NI")
    if result.stat:
        parts.append(_lose_stat(player, result.stat, r, result.name, match))
    return ", ".join(parts)


def kiosk_applies(match: Match, team: Team) -> bool:
    """The kiosk pays at home, as the facilities stood at the gate (R19)."""
    pre = _prematch(match)
    return team.pk == match.home_id and not match.neutral and pre is not None and "kiosk" in pre.home_facilities


@dataclass
class InjuryFacts:
    """What the injuries step is decided from, read once: the injured lines, the dice rolled so far,
    the apothecary's treatments."""

    lines: list[PlayerMatch]
    stored: dict[str, DiceRoll]
    uses: dict[tuple[int, str], ApothecaryUse]


def injury_facts(match: Match, team: Team) -> InjuryFacts:
    return InjuryFacts(
        lines=injured_lines(match, team),
        stored={d.purpose: d for d in match.dice.filter(step="injuries").select_related("player")},
        uses={(u.player_id, u.action): u for u in match.apothecary_uses.filter(team=team)},
    )


def _regenerated(player: Player, stored: Mapping[str, Any], r: rules.Ruleset) -> bool | None:
    """True or False once the Regeneration die is rolled, None if it is not yet (or he has no Regeneration)."""
    if "Regeneration" not in _skills(player):
        return None
    d = stored.get(f"regeneration:{player.pk}")
    return None if d is None else r.regenerates(d.values[0])


def pending_injury_dice(match: Match, team: Team, facts: InjuryFacts | None = None) -> list[tuple[str, Player]]:
    """The Regeneration and serious injury dice not rolled yet, in R25's order: they decide who is dead
    before the Bandage Crew is ordered."""
    r = match.season.ruleset.rules
    facts = facts or injury_facts(match, team)
    pending = []
    for line in facts.lines:
        player = line.player
        regenerated = _regenerated(player, facts.stored, r)
        if "Regeneration" in _skills(player) and regenerated is None:
            pending.append((f"regeneration:{player.pk}", player))
        if regenerated:
            continue
        heal = facts.uses.get((player.pk, "heal_serious_injury"))
        healed = heal is not None and r.apothecary_succeeds(heal.roll or 1)
        serious = line.injury == PlayerMatch.Injury.SERIOUS and not healed
        if serious and f"serious_injury:{player.pk}" not in facts.stored:
            pending.append((f"serious_injury:{player.pk}", player))
    return pending


@transaction.atomic
def roll_injury_dice(
    match: Match, team: Team, *, entered: Mapping[str, Sequence[int]] | None = None, by: Any
) -> list[str]:
    """Roll (once) the Regeneration and serious injury dice, so the coach knows who is dead (R25)."""
    match, team, _postmatch = _lock(match, team, Step.INJURIES)
    r = match.season.ruleset.rules
    entered = entered or {}
    rolled = []
    for key, player in pending_injury_dice(match, team):
        stored = {d.purpose: d for d in match.dice.filter(purpose=f"regeneration:{player.pk}")}
        if key.startswith("serious_injury") and _regenerated(player, stored, r):
            continue
        d66 = key.startswith("serious_injury")
        dice.roll(match, key, step="injuries", d66=d66, entered=entered.get(key), by=by, player=player)
        rolled.append(key)
    return rolled


def injury_dice_shown(match: Match, team: Team, facts: InjuryFacts | None = None) -> list[str]:
    """The Regeneration and serious injury dice already rolled, read out before the Bandage Crew."""
    r = match.season.ruleset.rules
    facts = facts or injury_facts(match, team)
    shown = []
    for line in facts.lines:
        player = line.player
        d = facts.stored.get(f"regeneration:{player.pk}")
        if d is not None:
            result = _("regenerates") if r.regenerates(d.values[0]) else _("does not regenerate")
            shown.append(
                _("%(player)s: Regeneration D6 %(roll)s, %(result)s.")
                % {"player": player, "roll": d.shown, "result": result}
            )
        d = facts.stored.get(f"serious_injury:{player.pk}")
        if d is not None:
            shown.append(
                _("%(player)s: Alvorlig skade-tabell D66 %(d)s: %(name)s.")
                % {"player": player, "d": d.shown, "name": r.serious_injury(d.total).name}
            )
    return shown


def healer_limit(team: Team, r: rules.Ruleset) -> int:
    s = r.settings
    return {"bandage_crew": len(s.bandage_crew_targets), "apprentice": s.apprentice_players}.get(
        team.race.healer, s.familiar_players
    )


def healer_candidates(match: Match, team: Team, facts: InjuryFacts | None = None) -> list[Player]:
    """The dead the Bandage Crew (Apprentice, Familiar) may attempt (R25): killed in the match or on the
    serious injury table (66), and never one the apothecary treated or tried. Decided from the stored
    dice: a player whose fate waits on an unrolled die is not offered."""
    r = match.season.ruleset.rules
    facts = facts or injury_facts(match, team)
    candidates = []
    for line in facts.lines:
        player = line.player
        regenerated = _regenerated(player, facts.stored, r)
        if regenerated or (regenerated is None and "Regeneration" in _skills(player)):
            continue
        if line.injury == PlayerMatch.Injury.SERIOUS:
            d = facts.stored.get(f"serious_injury:{player.pk}")
            treated = (player.pk, "heal_serious_injury") in facts.uses
            if treated or d is None or not r.serious_injury(d.total).dead:
                continue
        else:
            apothecary = {(player.pk, "heal_dead"), (player.pk, "revive_dead")} & facts.uses.keys()
            if line.injury != PlayerMatch.Injury.DEAD or apothecary:
                continue
        if team.race.healer != "bandage_crew" and "Regeneration" in _skills(player):
            continue  # R9: the Apprentice cannot treat him
        candidates.append(player)
    return candidates


def revived_by_apothecary(match: Match, team: Team, facts: InjuryFacts | None = None) -> list[Player]:
    """The dead the apothecary revives (R26): they roll on the revival table."""
    r = match.season.ruleset.rules
    facts = facts or injury_facts(match, team)
    revived = []
    for line in facts.lines:
        if line.injury != PlayerMatch.Injury.DEAD or _regenerated(line.player, facts.stored, r):
            continue
        heal = facts.uses.get((line.player_id, "heal_dead"))
        revive = facts.uses.get((line.player_id, "revive_dead"))
        if heal and r.apothecary_succeeds(heal.roll or 1):
            continue
        if revive and r.apothecary_succeeds(revive.roll or 1):
            revived.append(line.player)
    return revived


@transaction.atomic
def injuries(
    match: Match,
    team: Team,
    *,
    healer_targets: Sequence[int] = (),
    entered: Mapping[str, Sequence[int]] | None = None,
    raise_zombie: int | None = None,
    by: Any,
) -> PostMatch:
    """Regeneration, the serious injury table for the unhealed, the Bandage Crew (or the Apprentice /
    Familiar) on the dead, the revival table; fees from the treasury, this match's winnings included."""
    from teams.services import post_entry

    match, team, postmatch = _lock(match, team, Step.INJURIES)
    r = postmatch.ruleset.rules
    s = r.settings
    entered = entered or {}
    lines: list[str] = []
    # R37: a match to miss is served with every match the team plays.
    played = set(SquadEntry.objects.filter(match=match, team=team).values_list("player_id", flat=True))
    served = Player.objects.on_roster().filter(team=team, miss_matches__gt=0).exclude(pk__in=played)
    for p in served:  # saved one by one: each change leaves a history record
        p.miss_matches -= 1
        p.save(update_fields=["miss_matches"])
        lines.append(_("%(player)s has served a match (%(left)s left).") % {"player": p, "left": p.miss_matches})

    uses = {(u.player_id, u.action): u for u in match.apothecary_uses.filter(team=team)}
    dead: list[Player] = []
    for line in injured_lines(match, team):
        player = Player.objects.select_related("position").get(pk=line.player_id)
        if "Regeneration" in _skills(player):
            d = dice.roll(
                match,
                f"regeneration:{player.pk}",
                step="injuries",
                entered=entered.get(f"regeneration:{player.pk}"),
                by=by,
                player=player,
            )
            if r.regenerates(d.values[0]):
                lines.append(_("%(player)s regenerates: D6 %(roll)s (3+, R25).") % {"player": player, "roll": d.shown})
                continue
            lines.append(_("%(player)s does not regenerate: D6 %(roll)s.") % {"player": player, "roll": d.shown})
        if line.injury == PlayerMatch.Injury.BADLY_HURT:
            lines.append(_("%(player)s: badly hurt, back for the next match.") % {"player": player})
            continue
        if line.injury == PlayerMatch.Injury.SERIOUS:
            heal = uses.get((player.pk, "heal_serious_injury"))
            if heal and r.apothecary_succeeds(heal.roll or 1):
                lines.append(
                    _("%(player)s: the apothecary heals the serious injury (%(roll)s, R26).")
                    % {"player": player, "roll": heal.roll}
                )
                continue
            d = dice.roll(
                match,
                f"serious_injury:{player.pk}",
                step="injuries",
                d66=True,
                entered=entered.get(f"serious_injury:{player.pk}"),
                by=by,
                player=player,
            )
            si = r.serious_injury(d.total)
            parts = [f"{si.name}"]
            if si.dead:
                if heal:  # treated by the apothecary: no Bandage Crew after him (R25)
                    _bury(player.pk)
                else:
                    dead.append(player)
                lines.append(
                    _("%(player)s: Alvorlig skade-tabell D66 %(d)s: %(name)s.")
                    % {"player": player, "d": d.shown, "name": si.name}
                )
                continue
            player.miss_matches = max(player.miss_matches, si.miss_matches)
            if si.miss_matches:
                parts.append(_("misses %(n)s") % {"n": si.miss_matches})
            if si.niggling:
                player.niggling += 1
                parts.append("NI")
            if si.stat:
                parts.append(_lose_stat(player, si.stat, r, si.name, match))
            player.save()
            lines.append(
                _("%(player)s: Alvorlig skade-tabell D66 %(d)s: %(result)s.")
                % {"player": player, "d": d.shown, "result": ", ".join(parts)}
            )
            continue
        # dead (R25, R26): the apothecary's heal or revival comes first
        heal = uses.get((player.pk, "heal_dead"))
        if heal and r.apothecary_succeeds(heal.roll or 1):
            lines.append(
                _("%(player)s: the apothecary saves him (%(roll)s, R26).") % {"player": player, "roll": heal.roll}
            )
            continue
        revive = uses.get((player.pk, "revive_dead"))
        if revive and r.apothecary_succeeds(revive.roll or 1):
            lines.append(f"{player}: " + _revive(player, match, r, by, entered))
            player.save()
            continue
        if heal or revive:
            lines.append(_("%(player)s: the apothecary failed; no one else may treat him.") % {"player": player})
            _bury(player.pk)
            continue
        dead.append(player)

    healer = team.race.healer
    targets = [int(t) for t in healer_targets]
    dead_ids = {p.pk for p in dead}
    if len(set(targets)) != len(targets):
        raise PostMatchError([_("Each attempt must be on another player (R25).")])
    if not set(targets) <= dead_ids:
        raise PostMatchError([_("Only a dead player not treated by the apothecary can be attempted.")])
    if healer == "bandage_crew":
        limit, fee = len(s.bandage_crew_targets), s.bandage_crew_fee
    else:
        limit = s.apprentice_players if healer == "apprentice" else s.familiar_players
        fee = s.apprentice_fee
    if len(targets) > limit:
        raise PostMatchError([_("At most %(n)s attempts.") % {"n": limit}])
    by_id = {p.pk: p for p in dead}
    for attempt, pk in enumerate(targets, start=1):
        player = by_id[pk]
        if healer != "bandage_crew" and "Regeneration" in _skills(player):
            raise PostMatchError([_("The Apprentice cannot treat a player with Regeneration (R9).")])
        post_entry(
            team,
            -fee,
            kind=TreasuryEntry.Kind.FEE,
            description=_("%(healer)s: %(player)s") % {"healer": team.race.get_healer_display(), "player": player},
            by=by,
            cause=match,
            idempotency_key=f"healer:{match.pk}:{team.pk}:{attempt}",
        )
        d = dice.roll(
            match,
            f"healer:{team.pk}:{attempt}",
            step="injuries",
            entered=entered.get(f"healer:{team.pk}:{attempt}"),
            by=by,
            player=player,
            team=team,
        )
        if healer == "bandage_crew":
            ok = r.bandage_crew_succeeds(attempt, d.values[0])
            target = f"{r.bandage_crew_target(attempt)}+"
        else:
            ok = r.apprentice_outcome(d.values[0]) == "revived"
            target = f"{s.apprentice_target}+"
        if ok:
            lines.append(
                _("%(healer)s, attempt %(n)s on %(player)s: D6 %(roll)s (%(target)s) → %(result)s")
                % {
                    "healer": team.race.get_healer_display(),
                    "n": attempt,
                    "player": player,
                    "roll": d.shown,
                    "target": target,
                    "result": _revive(player, match, r, by, entered),
                }
            )
            player.save()
            dead_ids.discard(pk)
        else:
            lines.append(
                _("%(healer)s, attempt %(n)s on %(player)s: D6 %(roll)s (%(target)s) fails.")
                % {
                    "healer": team.race.get_healer_display(),
                    "n": attempt,
                    "player": player,
                    "roll": d.shown,
                    "target": target,
                }
            )
    for pk in dead_ids:
        _bury(pk)
        lines.append(_("%(player)s is dead. ✝") % {"player": by_id[pk]})
    lines += _raise_the_dead(match, team, r, raise_zombie)
    return _finish(postmatch, Step.INJURIES, "injuries", lines or [_("No injuries.")])


def _bury(player_id: int) -> None:
    """Dead, saved with a history record (a bare UPDATE would leave none)."""
    player = Player.objects.get(pk=player_id)
    player.status, player.left_at = Player.Status.DEAD, timezone.now()
    player.save(update_fields=["status", "left_at"])


def opponents_dead(match: Match, team: Team) -> list[Player]:
    """Opponents killed in this match who stayed dead after their own injuries step."""
    opponent_id = match.away_id if team.pk == match.home_id else match.home_id
    return [
        line.player
        for line in PlayerMatch.objects.filter(
            match=match, team_id=opponent_id, injury=PlayerMatch.Injury.DEAD, player__status=Player.Status.DEAD
        )
        .select_related("player__position", "injured_by__position")
        .prefetch_related("player__position__skills")
    ]


def _new_player(team: Team, position_name: str, name: str, r: rules.Ruleset) -> Player | None:
    """A free player for the roster if the position's limit and the roster allow it (R25)."""
    from teams.models import Position
    from teams.services import next_number

    position = Position.objects.filter(race=team.race, name=position_name).first()
    if position is None:
        return None
    on_roster = team.players.on_roster()
    if on_roster.count() >= r.settings.max_players or on_roster.filter(position=position).count() >= position.max_count:
        return None
    return Player.objects.create(team=team, position=position, name=name, number=next_number(team))


def _raise_the_dead(match: Match, team: Team, r: rules.Ruleset, raise_zombie: int | None) -> list[str]:
    """The Necromancer raises one dead opponent (not Stunty, not a Big Guy) as a Zombie; a Beast of
    Nurgle's unhealed kill gives the Nurgle team a Rotter; each only within limits and roster room (R25)."""
    lines: list[str] = []
    opponent = match.away if team.pk == match.home_id else match.home
    necromancer = team.race.head_coach == "necromancer"
    rot = team.race.name == "Nurgle"
    if not (necromancer or rot):
        return lines
    killed = PlayerMatch.objects.filter(match=match, team=opponent, injury=PlayerMatch.Injury.DEAD)
    if rot:
        killed = killed.filter(injured_by__position__name="Beast of Nurgle")
    needs_opponent = (necromancer and raise_zombie) or (rot and killed.exists())
    if needs_opponent and not PostMatch.objects.filter(match=match, team=opponent, done__gte=Step.INJURIES).exists():
        raise PostMatchError(
            [_("Wait for %(team)s's injuries step: only the dead who stay dead can rise.") % {"team": opponent.name}]
        )
    dead = opponents_dead(match, team)
    if necromancer and raise_zombie:
        victim = next((p for p in dead if p.pk == raise_zombie), None)
        if victim is None:
            raise PostMatchError([_("Only an opponent who died in this match can be raised.")])
        traits = {s.name for s in victim.position.skills.all()}
        if "Stunty" in traits or victim.position.big_guy or "Big Guy" in traits:
            raise PostMatchError([_("Stunty players and Big Guys cannot be raised (R25).")])
        zombie = _new_player(team, "Zombies", _("%(name)s (Zombie)") % {"name": victim.name}, r)
        lines.append(
            _("The Necromancer raises %(player)s as a Zombie.") % {"player": victim}
            if zombie
            else _("No roster room for a new Zombie.")
        )
    if rot:
        for victim in dead:
            killer = (
                PlayerMatch.objects.filter(match=match, player=victim)
                .values_list("injured_by__position__name", flat=True)
                .first()
            )
            if killer == "Beast of Nurgle":
                rotter = _new_player(team, "Rotters", _("%(name)s (Rotter)") % {"name": victim.name}, r)
                lines.append(
                    _("Nurgle's Rot: %(player)s comes back as a Rotter.") % {"player": victim}
                    if rotter
                    else _("Nurgle's Rot: no roster room for a new Rotter.")
                )
    return lines


# --- 3. stadium (R18) -------------------------------------------------------------------------------


@transaction.atomic
def stadium(match: Match, team: Team, *, by: Any) -> PostMatch:
    match, team, postmatch = _lock(match, team, Step.STADIUM)
    pre = _prematch(match)
    lines = []
    if team.pk == match.home_id and pre and pre.vandalised and pre.seats_lost and not match.neutral:
        from teams.models import Stadium

        ground = Stadium.objects.select_for_update().get(team=team)
        ground.capacity = max(0, ground.capacity - pre.seats_lost)
        ground.save(update_fields=["capacity"])
        lines.append(
            _("Vandalism: %(n)s seats lost; capacity now %(c)s (R18).")
            % {"n": money(pre.seats_lost), "c": money(ground.capacity)}
        )
    return _finish(postmatch, Step.STADIUM, "stadium", lines or [_("The stadium is unharmed.")])


# --- 4. MVP (R27) -----------------------------------------------------------------------------------


def inspired_player_id(match: Match, team: Team) -> int | None:
    from matches.models import HandicapDraw

    return (
        HandicapDraw.objects.filter(match=match, team=team, key="inspiration")
        .values_list("player_id", flat=True)
        .first()
    )


def _earned_this_match(match: Match, team: Team, r: rules.Ruleset) -> dict[int, tuple[Player, int]]:
    """Each player's SPP from this match: his report line, his MVP, and an Inspiration MVP (R23)."""
    earned = {
        line.player_id: (line.player, _match_spp(line, r))
        for line in PlayerMatch.objects.filter(match=match, team=team).select_related(
            "player__position", "player__team__ruleset"
        )
    }
    inspired = inspired_player_id(match, team)
    if inspired:
        player, spp = earned.get(inspired) or (
            Player.objects.select_related("position", "team__ruleset").get(pk=inspired),
            0,
        )
        earned[inspired] = (player, spp + r.spp_award("mvp"))
    return earned


def _match_spp(line: PlayerMatch, r: rules.Ruleset) -> int:
    return r.spp(
        completions=line.completions,
        touchdowns=line.touchdowns,
        interceptions=line.interceptions,
        casualties=line.block_casualties,
        fouls=line.foul_casualties,
        mvps=line.mvps,
    )


def _mvp_pools(match: Match, team: Team, r: rules.Ruleset) -> tuple[list[Player], list[Player]]:
    """Those on the roster who earned SPP in the match, and those who played; never the inspired (R23)."""
    earned = [
        line.player
        for line in PlayerMatch.objects.filter(match=match, team=team)
        .select_related("player")
        .order_by("player__number")
        if _match_spp(line, r) > 0
    ]
    played = [
        e.player
        for e in SquadEntry.objects.filter(match=match, team=team, status=SquadEntry.Status.PLAYING)
        .select_related("player")
        .order_by("player__number")
    ]
    inspired = inspired_player_id(match, team)  # R23: no player gets two MVPs in a match
    earned = [p for p in earned if p.pk != inspired and p.on_roster]
    played = [p for p in played if p.pk != inspired and p.on_roster]
    return earned, played


def mvp_candidates(match: Match, team: Team, r: rules.Ruleset | None = None) -> list[Player] | None:
    """The MVP's candidates in the die's order (face 1 is the first), or None when the team receives
    no more MVPs (R27)."""
    r = r or match.season.ruleset.rules
    if not r.receives_mvp(team.mvps_received):
        return None
    return r.mvp_candidates(*_mvp_pools(match, team, r))


@transaction.atomic
def mvp(match: Match, team: Team, *, roll: Sequence[int] | None = None, by: Any) -> PostMatch:
    """One player at random among those who earned SPP, else among those who played, while the team
    still receives MVPs (R27)."""
    match, team, postmatch = _lock(match, team, Step.MVP)
    r = postmatch.ruleset.rules
    if not r.receives_mvp(team.mvps_received):
        return _finish(
            postmatch,
            Step.MVP,
            "mvp",
            [_("%(team)s has received its %(n)s MVPs (R27).") % {"team": team.name, "n": r.settings.mvp_limit}],
        )
    earned, played = _mvp_pools(match, team, r)
    candidates = r.mvp_candidates(earned, played)
    if not candidates:
        return _finish(postmatch, Step.MVP, "mvp", [_("No player to receive the MVP.")])
    d = dice.roll(match, f"mvp:{team.pk}", step="mvp", sides=len(candidates), entered=roll, by=by, team=team)
    chosen = candidates[d.values[0] - 1]
    # Load, change, save (the team row is locked): each leaves a history record.
    chosen = Player.objects.get(pk=chosen.pk)
    chosen.mvps += 1
    chosen.save(update_fields=["mvps"])
    line, _created = PlayerMatch.objects.get_or_create(match=match, player=chosen, defaults={"team": team})
    line.mvps += 1
    line.save(update_fields=["mvps"])
    stats.count_mvp(match, player_id=chosen.pk, team_id=team.pk)  # kept counters (issue 16)
    team.mvps_received += 1
    team.save(update_fields=["mvps_received"])
    postmatch.mvp = chosen
    pool = _("earned SPP") if earned else _("played")
    line_text = _("D%(n)s %(roll)s among the %(n)s who %(pool)s: %(player)s (+%(spp)s SPP).") % {
        "n": len(candidates),
        "roll": d.shown,
        "pool": pool,
        "player": chosen,
        "spp": r.spp_award("mvp"),
    }
    return _finish(postmatch, Step.MVP, "mvp", [line_text])


# --- 5. SPP and development (R4, R28, R29) -----------------------------------------------------------


def pending_development(match: Match, team: Team) -> list[tuple[Player, int]]:
    """The development rolls the team's players have earned in this match and not rolled yet."""
    r = match.season.ruleset.rules
    rolled = set(DevelopmentRoll.objects.filter(match=match, player__team=team).values_list("player_id", "index"))
    pending = []
    for player, spp in _earned_this_match(match, team, r).values():
        after = player.spp
        for i in range(1, r.level_ups(after - spp, after) + 1):
            if (player.pk, i) not in rolled:
                pending.append((player, i))
    return pending


@transaction.atomic
def roll_development(
    match: Match, team: Team, *, by: Any = None, entered: Mapping[str, Sequence[int]] | None = None
) -> list[DevelopmentRoll]:
    """Roll the development dice, only when the development step is the next one."""
    match, team, _postmatch = _lock(match, team, Step.DEVELOPMENT)
    return development_rolls(match, team, by=by, entered=entered)


def development_rolls(
    match: Match, team: Team, *, by: Any = None, entered: Mapping[str, Sequence[int]] | None = None
) -> list[DevelopmentRoll]:
    """Roll (once) the development dice the team's players earned in this match."""
    r = match.season.ruleset.rules
    entered = entered or {}
    rolls = []
    existing_rolls = {
        (d.player_id, d.index): d
        for d in DevelopmentRoll.objects.filter(match=match, player__team=team)
        .select_related("player__position", "dice")
        .prefetch_related("player__position__skills")
    }
    for player, spp in _earned_this_match(match, team, r).values():
        after = player.spp
        before = after - spp
        for i in range(1, r.level_ups(before, after) + 1):
            existing = existing_rolls.get((player.pk, i))
            if existing and existing.before_match:
                continue  # an Inspiration MVP's roll, made and chosen in the pre-match sequence (R23)
            if existing:
                rolls.append(existing)
                continue
            rolls.append(roll_one_development(match, team, player, i, r, entered=entered, by=by))
    return rolls


def roll_one_development(
    match: Match,
    team: Team,
    player: Player,
    index: int,
    r: rules.Ruleset,
    *,
    entered: Mapping[str, Sequence[int]],
    by: Any,
    before_match: bool = False,
) -> DevelopmentRoll:
    """The player's index-th development roll of the match (R29): the 2D6, recorded once."""
    d = dice.roll(
        match,
        f"development:{player.pk}:{index}",
        step="development",
        count=2,
        entered=entered.get(f"development:{player.pk}:{index}"),
        by=by,
        player=player,
        team=team,
    )
    options = r.development_options(*d.values)
    return DevelopmentRoll.objects.create(
        match=match,
        player=player,
        index=index,
        dice=d,
        result=options.result,
        is_double=options.is_double,
        before_match=before_match,
    )


def skill_specs() -> list[rules.SkillSpec]:
    return [rules.SkillSpec(s.name, s.letter, s.kind) for s in Skill.objects.all()]


def _gained_names(player: Player) -> set[str]:
    """The skills the player has gained, from the prefetch when the caller made one."""
    if "gained_skills" in getattr(player, "_prefetched_objects_cache", {}):
        return {gained.skill.name for gained in player.gained_skills.all()}
    return set(player.gained_skills.values_list("skill__name", flat=True))


def choices_for(
    roll: DevelopmentRoll, r: rules.Ruleset, *, taken: Sequence[str] = (), skills: list[rules.SkillSpec] | None = None
) -> list[str]:
    """The choices this roll allows the player now (R29); `skills` saves reading the catalogue again."""
    player = roll.player
    position = player.position
    owned = {s.name for s in position.skills.all()} | _gained_names(player) | set(taken)
    skills = skills if skills is not None else skill_specs()
    stat_allowed = {
        s: r.stat_change_allowed(getattr(position, s.lower()), getattr(player, s.lower()), 1)
        for s in ("MA", "AG", "ST")
    }
    return rules.development_choices(
        result=roll.result,
        is_double=roll.is_double,
        normal=position.normal_access,
        double=position.double_access,
        skills=skills,
        owned=owned,
        stat_allowed=stat_allowed,
        mutation_categories=r.mutation_categories(),
        always_mutates=r.may_always_mutate(position.name),
    )


def _mutation(
    match: Match,
    player: Player,
    index: int,
    category: str,
    r: rules.Ruleset,
    owned: set[str],
    entered: Mapping[str, Sequence[int]],
    by: Any,
) -> tuple[str, str]:
    """Roll a mutation: the Tzeentch 2D6 table for those who always mutate, else the category's D4.
    A mutation the player has is re-rolled once, and the last roll stands (R29)."""
    tzeentch = r.may_always_mutate(player.position.name)

    def throw(suffix: str) -> tuple[Any, str]:
        key = f"mutation:{player.pk}:{index}{suffix}"
        d = dice.roll(
            match,
            key,
            step="development",
            sides=6 if tzeentch else 4,
            count=2 if tzeentch else 1,
            entered=entered.get(key),
            by=by,
            player=player,
        )
        return d, r.tzeentch_mutation(*d.values) if tzeentch else r.mutation(category, d.values[0])

    d, name = throw("")
    thrown = f"Tzeentch 2D6 {d.shown}" if tzeentch else f"{category} D4 {d.shown}"
    if name in owned:
        d, name = throw(":reroll")
        thrown += f", re-rolled {d.shown}"
    return name, thrown


@transaction.atomic
def develop(
    match: Match, team: Team, *, choices: Mapping[int, str], entered: Mapping[str, Sequence[int]] | None = None, by: Any
) -> PostMatch:
    """Apply the coach's choice for every development roll at once (R29)."""
    match, team, postmatch = _lock(match, team, Step.DEVELOPMENT)
    r = postmatch.ruleset.rules
    rolls = development_rolls(match, team, by=by)
    lines = apply_development(match, rolls, r, choices=choices, entered=entered or {}, by=by)
    return _finish(postmatch, Step.DEVELOPMENT, "development", lines or [_("No player reached a new level.")])


def apply_development(
    match: Match,
    rolls: Sequence[DevelopmentRoll],
    r: rules.Ruleset,
    *,
    choices: Mapping[int, str],
    entered: Mapping[str, Sequence[int]],
    by: Any,
) -> list[str]:
    """The coach's choice for each roll, checked against R29 and applied; the team row is locked.
    The post-match development step and the Inspiration MVP's roll before the match (R23) share it."""
    missing = [roll for roll in rolls if not choices.get(roll.pk)]
    if missing:
        raise PostMatchError([_("Choose for every development roll.")])
    lines = []
    taken: dict[int, list[str]] = {}
    catalogue = {s.name: s for s in Skill.objects.all()}
    specs = [rules.SkillSpec(s.name, s.letter, s.kind) for s in catalogue.values()]
    # One object per player, read at once, so a second roll sees the first one's change (two +1 MA,
    # the ±2 limit) and the step's reads do not grow with the number of players.
    fresh: dict[int, Player] = (
        Player.objects.select_related("position")
        .prefetch_related("position__skills", "gained_skills__skill")
        .in_bulk({roll.player_id for roll in rolls})
    )
    for roll in rolls:
        roll.player = fresh[roll.player_id]
        choice = choices[roll.pk]
        allowed = choices_for(roll, r, taken=taken.get(roll.player_id, []), skills=specs)
        if choice not in allowed:
            raise PostMatchError(
                [
                    _("%(player)s cannot take %(choice)s with %(dice)s (R29).")
                    % {"player": roll.player, "choice": choice, "dice": roll.dice.shown}
                ]
            )
        player = roll.player  # the team row is locked for the whole step
        owned = {sk.name for sk in player.position.skills.all()} | _gained_names(player) | set(taken.get(player.pk, []))
        if choice.startswith(rules.STAT_CHOICE):
            stat = choice.removeprefix(rules.STAT_CHOICE)
            field = f"{stat.lower()}_change"
            setattr(player, field, getattr(player, field) + 1)
            player.save(update_fields=[field])
            StatChange.objects.create(
                player=player,
                stat=stat,
                change=1,
                reason=StatChange.Reason.DEVELOPMENT,
                note=f"2D6 {roll.dice.shown}",
                match_id=match.pk,
            )
            applied = f"+1 {stat}"
        else:
            name, how = choice, f"2D6 {roll.dice.shown}"
            if choice.startswith(rules.MUTATION_CHOICE):
                category = choice.removeprefix(rules.MUTATION_CHOICE)
                name, thrown = _mutation(match, player, roll.index, category, r, owned, entered, by)
                how += f", {thrown}"
                if name == "choice":  # Tzeentch 12: the coach picks on the player page, as at creation
                    player.mutation_choice_pending = True
                    player.save(update_fields=["mutation_choice_pending"])
                    roll.choice = _("Tzeentch 12: chosen on the player page")
                    roll.save(update_fields=["choice"])
                    lines.append(f"{player}: {how} → {roll.choice}")
                    continue
                if name in owned:
                    raise PostMatchError(
                        [
                            _("%(player)s already has %(skill)s: choose another mutation.")
                            % {"player": player, "skill": name}
                        ]
                    )
            PlayerSkill.objects.create(
                player=player,
                skill=catalogue[name],
                origin=PlayerSkill.Origin.MUTATION
                if choice.startswith(rules.MUTATION_CHOICE)
                else PlayerSkill.Origin.DEVELOPMENT,
                roll=how,
                match_id=match.pk,
            )
            applied = name
        taken.setdefault(player.pk, []).append(applied)
        roll.choice = applied
        roll.save(update_fields=["choice"])
        lines.append(
            _("%(player)s: 2D6 %(dice)s (%(result)s%(double)s) → %(choice)s")
            % {
                "player": player,
                "dice": roll.dice.shown,
                "result": roll.result,
                "double": _(", double") if roll.is_double else "",
                "choice": applied,
            }
        )
    return lines


# --- 6. fan factor (R30) ----------------------------------------------------------------------------


@transaction.atomic
def fan_factor(match: Match, team: Team, *, roll: Sequence[int] | None = None, by: Any) -> PostMatch:
    match, team, postmatch = _lock(match, team, Step.FAN_FACTOR)
    r = postmatch.ruleset.rules
    d = dice.roll(match, f"fan_factor:{team.pk}", step="fan_factor", entered=roll, by=by, team=team)
    home = team.pk == match.home_id
    scored = match.home_score if home else match.away_score
    winner = match.winner_id
    result = "win" if winner == team.pk else "loss" if winner is not None else "draw"
    crowd = PlayerMatch.objects.filter(match=match, team=team, crowd_casualties__gt=0).exists()
    pre = _prematch(match)
    # both teams, in the owner's home matches, with the facilities as they were for the match (R19)
    tv = not match.neutral and "tv_station" in (pre.home_facilities if pre else _facilities(match.home))
    explained = r.explain_fan_factor_change(
        d.values[0],
        fan_factor=team.fan_factor,
        result=result,
        touchdowns=scored,
        casualties=_caused(match, team),
        crowd_casualty=crowd,
        tv_station=tv,
    )
    postmatch.fan_factor_change = explained.value
    old = team.fan_factor
    team.fan_factor = old + explained.value  # the team row is locked: load, change, save keeps the history
    team.save(update_fields=["fan_factor"])
    lines = list(explained.steps) + [str(c) for c in explained.cells]
    lines.append(_("Fan factor %(old)s → %(new)s") % {"old": old, "new": team.fan_factor})
    return _finish(postmatch, Step.FAN_FACTOR, "fan_factor", lines)


# --- 7. purchases, 8. new team rating -----------------------------------------------------------------


@transaction.atomic
def purchases_done(match: Match, team: Team, *, by: Any) -> PostMatch:
    match, team, postmatch = _lock(match, team, Step.PURCHASES)
    return _finish(postmatch, Step.PURCHASES, "purchases", [_("Purchases made on the team page.")])


@transaction.atomic
def complete(match: Match, team: Team, *, by: Any) -> PostMatch:
    from teams.selectors import roster_sheet

    match, team, postmatch = _lock(match, team, Step.TEAM_RATING)
    sheet = roster_sheet(team.pk)
    postmatch.team_rating = sheet.team_rating.value
    postmatch.completed_at = timezone.now()
    return _finish(postmatch, Step.TEAM_RATING, "team_rating", list(sheet.team_rating.steps))
