"""A ruling as chat lines: what VASSAL shows, logs and sends to the opponent.

The Adjudicator extension inside every module posts these lines to VASSAL's chat, and the
players' pages write them into a `.vlog` that continues an uploaded game; both take them from
the service (`?transcript=1` on a check), so a ruling reads the same wherever it was asked and
the text is composed in one place. Every line starts with a tag naming the ruling,

    [ADJ <game id>#<seq>]   a recorded ruling: record <seq> of the game's ledger
    [ADJ compute]           a calculation with the players' own dice; nothing recorded

so a log can be read back (`parse_transcript`) and each recorded ruling checked against the
ledger: the lines `chat_lines` renders from the ledger record must be the lines in the log,
except the `verify:` line, whose address depends on the server name the players used.

A ruling reads as it lands in VASSAL's chat pane, which shows about nine lines (version 3, the
lines `chat_lines` writes now): at most SHORT_LINES lines, so the headline is still in view when
the ruling ends:

    [ADJ g#4] RULING » Combat for Communist: NK 83 attacks US 27/25 at 1:3, rolled 2: AD (attacker depleted)
    [ADJ g#4] notice: US 27/25 was eliminated by record #3            the record's notices, if any (never cut)
    [ADJ g#4] NK 83 depleted                                          one line per unit the ruling changes
    [ADJ g#4] dice: combat (CRT) d6 2                                 the dice by purpose
    [ADJ g#4] receipt: record 4 hash 0123456789abcdef signed k1       (or "not recorded: ...")
    [ADJ g#4] verify: https://server/games/g#record-4                 the whole ruling: steps, rules, details

The notices are the record's (`adjudicator.ledger.board`: a unit the ledger eliminated named again,
a step it contradicts, the same situation asked again); one about a unit the fog of war hides says
only whose unit it is and where (`notice_texts`). A supply report's headline is its totals
("Supply for Communist: in supply 41, out of supply 2"), then a line per unit out of supply or
isolated (never one per unit in supply). Units past the room left are counted on one line ("and 5
more units out of supply"). The dice and the result are in these lines and the receipt binds them
to the ledger record, so the opponent's log check compares them as it compares the whole; the
steps with their rules, the outcome's details and the warnings are the ruling's page (the verify
address) and, for the asker, `detail_lines` (the `details` of a check's answer: the extension's
ruling window).

Units are named as their counters read ("NK 83", from the game's units; identical counters, such
as KWB's four "NK SC", share that name: never an id no counter prints). Stand-in data
(``stand_ins``) is not repeated under every ruling: the extension states it once per game.
Rulings written by earlier versions are still read and compared against their own rendering
(`comparable_lines(..., version=entry.version)`), so older logs keep verifying: version 2 (its
first line ``RULING <headline>``; then the record's notices, every step with its rule, the
outcome's details, the dice, warnings that are not stand-ins; long lines wrapped, ``… ``
continuing a line; a record from before notices has none, so its lines are as they were) and
version 1 (the first line "<game>: <check> (<rules>)", outcome lines first, every warning). Logs of
versions 2 and 3 written when identical counters were still named with their ids verify too
(`written_lines`).

Lines are plain text without control characters (a VASSAL command string cannot carry newlines
or ESC). Everything a line says is read from the outcome in sorted key order at every level: the
ledger stores results as canonical JSON (sorted keys), and a ruling must read the same from the
live response and from the ledger.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Iterable

from adjudicator.checks import side_label
from adjudicator.fog import fog_of
from adjudicator.unit_changes import (  # canonical order lives with the description; kept importable from here
    BROKEN_DOWN, MARKED, MOVED, RECOMBINED, REPLACED, RETREAT, RETURNED, TO_CHOOSE, UnitChange, canonical as _canonical,
    canonical_outcome,
    ruled_changes,
)

COMPUTE_TAG = "[ADJ compute]"
HASH_PREFIX_LENGTH = 16
#: The version `chat_lines` writes: 3, the short ruling; 2 the whole ruling; 1 the rendering before
#: rulings had a headline.
VERSION = 3
#: A version-3 ruling's first line starts with this.
RULING_MARK = "RULING » "
#: A version-2 ruling's first line starts with this (version 1's starts with the game's name).
RULING_MARK_V2 = "RULING "
#: The most chat lines a ruling takes (version 3): VASSAL's chat pane shows about nine.
SHORT_LINES = 8
#: A line longer than this is wrapped (at "; " between list items, else between words).
WRAP = 160
#: At most this many unit changes in a headline ("and 4 more").
HEADLINE_CHANGES = 6

_TAG_RE = re.compile(r"\[ADJ (?:compute|(?P<game>[A-Za-z0-9_-]{1,64})#(?P<seq>\d{1,9}))\] ?")
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f]+")
_SPACES_RE = re.compile(r" {2,}")
_VERIFY_PREFIX = "verify: "
NOTICE_PREFIX = "notice: "
_RECEIPT_PREFIX = "receipt: "
_NOT_RECORDED = "not recorded: "
_CONTINUED = "… "
_STAND_IN_RE = re.compile(r"\bstand-in\b", re.IGNORECASE)

#: Outcome members that say what a check decided, in the order a headline gives them (each game
#: names its results differently; the first few present are the headline when no attack is).
HEADLINE_FACTS = (
    "winner", "spread", "victory", "level", "result", "weather", "intervenes", "intervened", "success", "hit",
    "legal", "allowed", "cleared", "shortage_ended", "in_force", "compliant", "denied", "fits",
    "moves_normally", "cancelled", "in_supply", "out_of_supply", "with_loc", "without_loc", "effect",
    "text", "max_markers", "markers", "rebuilt", "occupies_port", "to_pusan", "total",
)
HEADLINE_FACT_COUNT = 3


def tag_for(result: dict[str, Any]) -> str:
    """The tag of a check response: recorded (game mode) or compute."""
    if result.get("game_id") and result.get("seq") is not None:
        return f"[ADJ {result['game_id']}#{result['seq']}]"
    return COMPUTE_TAG


def chat_lines(result: dict[str, Any], *, system_name: str = "", verify_url: str = "",
               version: int = VERSION, names: UnitNames | None = None) -> list[str]:
    """The ruling of a check response (compute or game mode) as tagged chat lines, as `version`
    renders it (the current one unless an older log is being compared); `names`: the units' names
    (the counters' names by default)."""
    tag = tag_for(result)
    if version == 1:
        body = _lines_v1(result, system_name)
    elif version == 2:
        body = _lines_v2(result, (names or UnitNames.of(result.get("system", ""))).as_written_in_version_2())
    else:
        body = _lines_v3(result, tail=2 if tag != COMPUTE_TAG else 1, names=names)
    if tag != COMPUTE_TAG:
        receipt = result.get("receipt") or {}
        signed = f" signed {receipt['kid']}" if isinstance(receipt, dict) and receipt.get("kid") else ""
        body.append(f"{_RECEIPT_PREFIX}record {result['seq']} hash {str(result.get('hash', ''))[:HASH_PREFIX_LENGTH]}"
                    f"{signed}")
        if verify_url:
            body.append(f"{_VERIFY_PREFIX}{verify_url}")
    else:
        body.append(f"{_NOT_RECORDED}computed from the players' own dice")
    return [f"{tag} {_clean(line)}" for line in body]


def _lines_v1(result: dict[str, Any], system_name: str) -> list[str]:
    """The rendering before version 2: a title, the outcome's fields, dice, steps, every warning."""
    who = f" for {side_label(result['side'])}" if result.get("side") else ""
    title = system_name or result.get("system", "")
    rule = f" ({result['rule']})" if result.get("rule") else ""
    body = [f"{title}: {_words(result.get('check', ''))}{rule}{who}"]
    outcome = result.get("outcome") or {}
    body += [f"= {_words(key)}: {readable(outcome[key])}" for key in sorted(outcome) if not _empty(outcome[key])]
    dice = dice_text(result.get("dice_used") or [])
    if dice:
        body.append(f"dice: {dice}")
    for number, step in enumerate(result.get("steps") or [], start=1):
        rule = f" [{step['rule']}]" if step.get("rule") else ""
        body.append(f"{number}. {step.get('text', '')}{rule}")
    body += [f"warning: {warning}" for warning in result.get("warnings") or []]
    return body


def _lines_v2(result: dict[str, Any], names: UnitNames) -> list[str]:
    """A headline, the steps with their rules, the outcome's details, dice, warnings that are not
    stand-ins; units named as their counters read, long lines wrapped."""
    body = [RULING_MARK_V2 + headline(result, names)]
    for notice in notice_texts(result):
        body += _wrap(NOTICE_PREFIX + notice)
    for number, step in enumerate(result.get("steps") or [], start=1):
        rule = f" [{step['rule']}]" if step.get("rule") else ""
        body += _wrap(names.text(f"{number}. {step.get('text', '')}{rule}"))
    outcome = _canonical(result.get("outcome") or {})
    shown = [key for key in sorted(outcome) if not _empty(outcome[key])]
    plain = [f"{_words(key)}: {readable(outcome[key])}" for key in shown if not isinstance(outcome[key], (dict, list))]
    if plain:
        body += _wrap(names.text("= " + "; ".join(plain)))
    for key in shown:
        if isinstance(outcome[key], (dict, list)):
            body += _wrap(names.text(f"= {_words(key)}: {readable(outcome[key])}"))
    dice = dice_text(result.get("dice_used") or [])
    if dice:
        body += _wrap(names.text(f"dice: {dice}"))
    for warning in result.get("warnings") or []:
        if not is_stand_in(warning):
            body += _wrap(names.text(f"warning: {warning}"))
    return body


def _lines_v3(result: dict[str, Any], tail: int, names: UnitNames | None = None) -> list[str]:
    """The short ruling: the headline, the notices, a line per unit the ruling changes (a supply
    report: per unit out of supply or isolated), the dice; at most SHORT_LINES with the `tail`
    lines `chat_lines` adds (the receipt and the verify address, or "not recorded")."""
    names = names or UnitNames.of(result.get("system", ""))
    units = affected_units(result, names)
    body = [RULING_MARK + first_line(result)]
    body += [_clean(NOTICE_PREFIX + notice) for notice in notice_texts(result)]
    dice = dice_text(result.get("dice_used") or [])
    room = SHORT_LINES - len(body) - tail - (1 if dice else 0)
    if len(units) > room:
        shown = max(room - 1, 0)
        left = len(units) - shown
        units = units[:shown] + [f"and {left} more unit{'s' if left != 1 else ''} {_overflow_words(result)}"]
    body += [_clean(line) for line in units]
    if dice:
        body.append(_clean(names.text(f"dice: {dice}")))
    return body


def first_line(result: dict[str, Any]) -> str:
    """The sentence a ruling's chat opens with (after its tag and mark): its headline, with what it
    does to units when those have no lines of their own. The ruling's page and the game's ledger open
    with it too."""
    names = UnitNames.of(result.get("system", ""))
    return _clean(headline(result, names, changes=not affected_units(result, names)))


def detail_lines(result: dict[str, Any]) -> list[str]:
    """The whole ruling as lines a player reads (no tags): the headline, every step with its rule,
    the outcome's details, the dice, the warnings that are not stand-ins. What the ruling's page
    shows, for the asker's ruling window; never posted to the chat."""
    return _lines_v2(result, UnitNames.of(result.get("system", "")))


def affected_units(result: dict[str, Any], names: UnitNames) -> list[str]:
    """A line per unit the ruling changes ("NK 83 depleted"), or, for a report of units' supply,
    per unit out of supply or isolated ("NK 3 (2104) out of supply")."""
    outcome = _canonical(result.get("outcome") or {})
    request = _canonical(result.get("request") or {})
    supply = [line for item in _supply_items(outcome) if (line := _supply_line(item, names, outcome))]
    return supply + _changed_units(outcome, request, names)


def _supply_items(outcome: dict) -> list[dict]:
    """The units a supply report rules on: its `units` whose items say `in_supply`."""
    units = outcome.get("units")
    if not isinstance(units, list):
        return []
    return [u for u in units if isinstance(u, dict) and isinstance(u.get("in_supply"), bool)]


def _supply_line(item: dict, names: UnitNames, outcome: dict) -> str:
    """ "NK 3 (2104) out of supply", "... isolated"; "" for a unit in supply and not isolated."""
    states = []
    if item.get("in_supply") is False:
        states.append("without LoC" if "without_loc" in outcome else "out of supply")
    if item.get("isolated") is True:
        states.append("isolated")
    if not states:
        return ""
    unit = item.get("unit") or item.get("block")
    who = names.name(unit) if isinstance(unit, str) else readable(item if item.get("hidden") else "a unit")
    where = f" ({item['hex']})" if isinstance(item.get("hex"), str) and isinstance(unit, str) else ""
    return f"{who}{where} {' and '.join(states)}"


def _overflow_words(result: dict[str, Any]) -> str:
    outcome = result.get("outcome") or {}
    if _supply_items(outcome):
        return "without LoC" if "without_loc" in outcome else "out of supply"
    return "changed"


# -- the headline --------------------------------------------------------------------------------

def headline(result: dict[str, Any], names: UnitNames | None = None, changes: bool = True) -> str:
    """One sentence saying what happened: "Combat for Communist: NK 83 attacks US 27/25 at 1:3,
    rolled 2: AD — NK 83 depleted"; for other checks their deciding facts ("Weather: weather
    snow, roll 5"). Without `changes`, what it does to units is left to lines of their own."""
    names = names or UnitNames.of(result.get("system", ""))
    outcome = _canonical(result.get("outcome") or {})
    request = _canonical(result.get("request") or {})
    check = _words(result.get("check", "")) or "ruling"
    side = result.get("side") or (outcome.get("side") if isinstance(outcome.get("side"), str) else "")
    who = f" for {side_label(side)}" if side else ""  # the side asking; a calculation: the side reported on
    attack = _attack(outcome, request, names)
    summary = attack if attack else _facts(outcome)
    said = "; ".join(text for text in (_revealed_text(outcome, names),
                                       _changes_text(outcome, request, names) if changes else "") if text)
    if said:
        summary = f"{summary} — {said}" if summary else said
    title = check[:1].upper() + check[1:] + who
    return f"{title}: {summary}" if summary else title


def _attack(outcome: dict, request: dict, names: UnitNames) -> str:
    """ "NK 83 attacks US 27/25 at 1:3, rolled 2: AD (attacker depleted)", or "" for a check that
    is no attack of units on units. An outcome naming the one unit that declared and the one that
    defended, with their hexes (Fire and Ice), says it so: "NK 2 (3042) attacks ROK 6 (3043): ..."."""
    declaring, defending = outcome.get("declaring_unit"), outcome.get("defending_unit")
    if isinstance(declaring, dict) and isinstance(defending, dict):
        text = f"{_placed(declaring, names)} attacks {_placed(defending, names)}"
        decided = outcome.get("result")
        return f"{text}: {decided}" if isinstance(decided, str) and decided else text
    attackers = unit_ids(outcome.get("attackers")) or unit_ids(request.get("attackers"))
    defenders = (unit_ids(outcome.get("defenders")) or unit_ids(outcome.get("defender"))
                 or unit_ids(request.get("defenders")) or unit_ids(request.get("defender")))
    face_down = {item.get("revealed_as"): item.get("unit") for item in outcome.get("revealed") or []
                 if isinstance(item, dict)}
    defenders = [face_down.get(unit, unit) for unit in defenders]  # attacked as they stood: face down
    target = next((request[k] for k in ("target_hex", "defender_hex", "combat_hex") if isinstance(request.get(k), str)), "")
    if not attackers or not (defenders or target):
        return ""
    verb = "attacks" if len(attackers) == 1 else "attack"
    text = f"{names.join(attackers)} {verb} {names.join(defenders) if defenders else 'hex ' + target}"
    odds, column = outcome.get("odds"), outcome.get("column")
    if isinstance(odds, str) and odds:
        text += f" at {odds}" + (f" (column {column})" if isinstance(column, str) and column and column != odds else "")
    elif isinstance(column, str) and column:
        text += f" on column {column}"
    roll = outcome.get("roll")
    if isinstance(roll, int) and not isinstance(roll, bool):
        text += f", rolled {roll}"
    elif isinstance(outcome.get("attacker_rolls"), list) and isinstance(outcome.get("defender_rolls"), list):
        text += (f", rolled {' '.join(map(str, outcome['attacker_rolls'])) or 'nothing'} against "
                 f"{' '.join(map(str, outcome['defender_rolls'])) or 'nothing'}")
    decided = outcome.get("result")
    if isinstance(decided, str) and decided:
        meaning = outcome.get("meaning")
        text += f": {decided}" + (f" ({meaning})" if isinstance(meaning, str) and meaning and meaning != decided else "")
    else:
        hits = [f"{_words(k)} {outcome[k]}" for k in ("hits_on_defender", "hits_on_attackers")
                if isinstance(outcome.get(k), int) and not isinstance(outcome.get(k), bool)]
        if hits:
            text += ": " + ", ".join(hits)
    return text


def _placed(item: dict, names: UnitNames) -> str:
    """ "NK 2 (3042)": a unit object named as its counter reads, with its hex when it has one."""
    where = item.get("hex")
    return names.name(str(item.get("unit"))) + (f" ({where})" if isinstance(where, str) and where else "")


def _facts(outcome: dict) -> str:
    """The deciding facts of a check that is no attack: the first few of HEADLINE_FACTS present,
    else the first plain values of the outcome."""
    keys = [k for k in HEADLINE_FACTS if _plain(outcome.get(k))]
    if not keys:
        keys = [k for k in sorted(outcome) if _plain(outcome[k])]
    if "roll" in outcome and _plain(outcome["roll"]) and "roll" not in keys[:HEADLINE_FACT_COUNT]:
        keys = keys[:HEADLINE_FACT_COUNT - 1] + ["roll"]
    return ", ".join(f"{_words(k)} {readable(outcome[k])}" for k in keys[:HEADLINE_FACT_COUNT])


def _revealed_text(outcome: dict, names: UnitNames) -> str:
    """The face-down pieces the ruling turned face up (an outcome's `revealed`: KWB's Scratch Units,
    adjudicator.ledger.draws): "turned face up: NK Scratch Unit 2-2-4", each named when several."""
    pairs = [(item["unit"], item["revealed_as"]) for item in outcome.get("revealed") or []
             if isinstance(item, dict) and isinstance(item.get("unit"), str) and isinstance(item.get("revealed_as"), str)]
    if len(pairs) == 1:
        return f"turned face up: {names.name(pairs[0][1])}"
    return ", ".join(f"{names.name(unit)} turned face up: {names.name(counter)}" for unit, counter in pairs)


def _changes_text(outcome: dict, request: dict, names: UnitNames) -> str:
    """What the ruling does to units in one phrase: "NK 83 depleted, US 24 eliminated (replaced by NK 7)"."""
    said = _changed_units(outcome, request, names)
    if len(said) > HEADLINE_CHANGES:
        said = said[:HEADLINE_CHANGES] + [f"and {len(said) - HEADLINE_CHANGES} more"]
    return ", ".join(said)


def _changed_units(outcome: dict, request: dict, names: UnitNames) -> list[str]:
    """What the ruling does to each unit ("NK 83 depleted", "US 24 eliminated (replaced by NK 7)");
    a unit shown at full strength, or at the step or strength it had (the request says, in a
    recorded game), is left out, and so is the unit that replaces another."""
    before = {**_states_before(request), **_sp_before(outcome)}
    said = []
    replacements = set()
    crt_retreats = "attacker_retreat_hexes" in outcome  # KWB's CRT (SPI's Pursuit retreats were always lines)
    for change in ruled_changes(outcome):
        if change.unit in replacements and change.kind != RETREAT:
            continue
        if not names.orders and (change.kind == MARKED or (change.kind == RETREAT and crt_retreats)):
            continue  # as rulings were written before these orders were changes
        text = _change_text(change, before, names)
        if text:
            said.append(text)
        if change.replaced_by:
            replacements.add(change.replaced_by)
    return said


def _change_text(change: UnitChange, before: dict[str, int], names: UnitNames) -> str:
    if change.revealed_as:
        return ""  # a placeholder turned face up: `_revealed_text` says it
    name = names.name(change.unit)
    if change.kind == RETURNED:
        return ""  # the check's own facts say it ("rebuilt ...")
    if change.kind == MOVED:
        return f"{name} to {change.hex}" + (f", {change.step}" if change.step else "")
    if change.kind == BROKEN_DOWN:
        lost = f", {names.join(list(change.lost))} lost" if change.lost else ""
        return f"{name} broken down ({names.join([p.unit for p in change.replacements]) or 'no counter'} in its place{lost})"
    if change.kind == RECOMBINED:
        return f"{names.join(list(change.parts))} recombined into {name} in {change.hex}"
    if change.kind == RETREAT:
        return f"{name} retreats {change.hexes} hex{'es' if change.hexes != 1 else ''}"
    if change.kind == TO_CHOOSE:
        return (f"the {side_label(change.applied_by)} player chooses which of {names.join(list(change.choices))} lose "
                f"{change.regiments} regiment{'s' if change.regiments != 1 else ''}")
    if change.kind == MARKED:
        markers = " and ".join(_words(m).title() for m in change.markers)
        if len(change.choices) > 1:
            return f"{markers} marker on one of {names.join(list(change.choices))}"
        if not change.unit:
            return f"{markers} marker on one of the {side_label(change.applied_by)} player's participating units"
        return f"{name}: {markers} marker{'s' if len(change.markers) > 1 else ''}"
    swapped = [p.sp for p in change.replacements if p.sp is not None]
    if change.kind == REPLACED and swapped and len(swapped) == len(change.replacements):
        return "" if before.get(change.unit) == swapped[-1] else f"{name} to {swapped[-1]} SP"  # a block swapped
    if change.eliminated:
        replaced = f" (replaced by {names.name(change.replaced_by)})" if change.replaced_by else ""
        return f"{name} eliminated{replaced}"
    if change.sp is not None:
        if before.get(change.unit) == change.sp:
            return ""
        return f"{name} to {change.sp} SP"
    if change.step and change.step != before.get(change.unit, names.full_step(change.unit)):
        return f"{name} {change.step}"
    if change.step == "" and names.orders and before.get(change.unit) != names.full_step(change.unit):
        return f"{name} back to full strength"  # a step restored ("undepleted"): it was not at full strength
    return ""


def _states_before(request: Any) -> dict[str, Any]:
    """The step (or SP) each unit of a request stood at when the check was asked: unit -> state."""
    def state(unit: dict) -> Any:
        if isinstance(unit.get("step"), str):
            return unit["step"] or None
        sp = unit.get("sp")
        return sp if isinstance(sp, int) and not isinstance(sp, bool) else None
    return _per_unit(request, state)


def _sp_before(outcome: Any) -> dict[str, int]:
    """Block games name a block's SP before and after: unit -> SP before."""
    return {u: sp for u, sp in _per_unit(outcome, lambda unit: unit.get("sp_before")).items() if isinstance(sp, int)}


def _per_unit(tree: Any, value_of: Callable[[dict], Any]) -> dict[str, Any]:
    """unit -> value_of(its object), for every object naming a unit (`unit` or `block`) anywhere
    in `tree` where that is not None; a unit named again later keeps the later value."""
    found: dict[str, Any] = {}
    if isinstance(tree, list):
        for item in tree:
            found.update(_per_unit(item, value_of))
    elif isinstance(tree, dict):
        unit = tree.get("unit") or tree.get("block")
        if isinstance(unit, str) and (value := value_of(tree)) is not None:
            found[unit] = value
        for child in tree.values():
            if isinstance(child, (dict, list)):
                found.update(_per_unit(child, value_of))
    return found


def unit_ids(value: Any) -> list[str]:
    """The units a request or outcome member names: an id, an object's ``unit`` (or ``block``), a list of either."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        unit = value.get("unit") or value.get("block")
        return [unit] if isinstance(unit, str) else []
    if isinstance(value, list):
        return [u for item in value for u in unit_ids(item)]
    return []


def notice_texts(result: dict[str, Any], system: str = "") -> list[str]:
    """A ruling's notices (its record's `notices`, adjudicator.ledger.board) as everyone may read
    them: a sealed one (about a unit the fog of war hides) says only whose unit it is and where
    ("about a UN block in 0518")."""
    out = []
    for notice in result.get("notices") or []:
        if isinstance(notice, dict) and isinstance(notice.get("hidden"), str):
            out.append(f"about {hidden_unit_words(system or result.get('system', ''), notice)}: sealed until the "
                       "game closes (its owner reads it)")
        elif isinstance(notice, dict) and isinstance(notice.get("text"), str):
            out.append(notice["text"])
    return out


def hidden_unit_words(system: str, sealed: dict[str, Any]) -> str:
    """A unit the fog of war hides, as the viewer may see it: its side, what the game calls it and
    where it stands ("a UN block in 0518"), never its commitment."""
    fog = fog_of(system)
    noun = fog.noun if fog is not None else "unit"
    side = f"{side_label(sealed['side'])} " if isinstance(sealed.get("side"), str) else ""
    where = f" in {sealed['hex']}" if isinstance(sealed.get("hex"), str) and sealed["hex"] else ""
    return f"a {side}{noun}{where}"


# -- units as their counters read ------------------------------------------------------------------

class UnitNames:
    """A game's unit ids and the names their counters read: nationality and designation ("NK 83",
    "US 27/25"), with the size where that alone is ambiguous, and the long name (or the id) where
    that still is."""

    def __init__(self, names: dict[str, str], full_steps: dict[str, str], parts: bool = True,
                 game: Any = None, orders: bool = True):
        self.names = names
        self.full_steps = full_steps
        self.parts = parts
        self.game = game
        self.orders = orders  # a line for every order (`as_written_before_every_order_was_a_change`)
        ids = sorted(names, key=len, reverse=True)
        self.pattern = re.compile(r"(?<![\w/-])(" + "|".join(map(re.escape, ids)) + r")(/[\w-]+)?(?![\w-])") if ids else None

    @staticmethod
    @lru_cache(maxsize=None)
    def of(system: str) -> UnitNames:
        try:
            from scenarios import load_game

            game = load_game(system)
        except Exception:  # an unknown system (a probe check): ids stay ids
            return UnitNames({}, {})
        return UnitNames(counter_names(game), {u.id: u.steps[0].name for u in game.units.values() if u.steps},
                         game=game)

    def as_written_in_version_2(self) -> UnitNames:
        """These names as version 2 of the rendering wrote them (a part of a broken-down unit as
        "US 2/5-3"), so a version-2 log still compares equal."""
        return UnitNames(self.names, self.full_steps, parts=False, game=self.game, orders=self.orders)

    def with_ids_of_identical_counters(self) -> UnitNames:
        """These names as versions 2 and 3 first wrote them: identical counters each with its id
        ("NK SC (nk-sc-1)"), so the logs they wrote still compare equal."""
        if self.game is None:
            return self
        return UnitNames(counter_names(self.game, ids_of_identical=True), self.full_steps, self.parts, self.game,
                         self.orders)

    def as_written_before_every_order_was_a_change(self) -> UnitNames:
        """These names rendering a ruling as logs written before every order a ruling gives was a
        change (issue 49) did: no unit line for a KWB retreat of the CRT, a marker, or a step
        restored to full strength; so the logs they wrote still compare equal."""
        return UnitNames(self.names, self.full_steps, self.parts, self.game, orders=False)

    def name(self, unit_id: str) -> str:
        """The counter's name; a part left by breaking a unit down ("us-d2/5-3", SPI) as "5-3 of US 2"."""
        if self.parts and unit_id not in self.names and "/" in unit_id:
            root, part = unit_id.split("/", 1)
            if root in self.names:
                return f"{part} of {self.names[root]}"
        return self.names.get(unit_id, unit_id)

    def full_step(self, unit_id: str) -> str:
        return self.full_steps.get(unit_id, "")

    def join(self, unit_ids: list[str]) -> str:
        return ", ".join(self.name(u) for u in unit_ids)

    def text(self, line: str) -> str:
        """`line` with every unit id in it replaced by its counter's name."""
        if self.pattern is None:
            return line
        if not self.parts:
            return self.pattern.sub(lambda m: self.names[m.group(1)] + (m.group(2) or ""), line)
        return self.pattern.sub(lambda m: self.name(m.group(1) + (m.group(2) or "")), line)


def counter_names(game, ids_of_identical: bool = False) -> dict[str, str]:
    """unit id -> the name its counter reads: its nationality and designation, with its size where
    that alone is ambiguous, its long name where that still is. Counters that read alike even so
    (the identical counters of a game: KWB's four "NK SC", SPI's Chinese regiments) share their
    name: a player tells them apart by where they stand, never by an id no counter prints
    (`ids_of_identical`: with the id in brackets, as rulings first named them)."""

    def nationality(unit) -> str:
        nat = game.nationalities.get(unit.nationality)
        return (nat.letter or nat.id.upper()) if nat else unit.nationality.upper()

    def plain(unit) -> str:
        if unit.designation.strip() in ("", "-", "?"):
            return unit.name or unit.id
        return f"{nationality(unit)} {unit.designation}"

    def sized(unit) -> str:
        return f"{plain(unit)} {unit.size}".strip()

    out: dict[str, str] = {}
    def long(unit) -> str:
        return unit.name or sized(unit)

    for attempt in (plain, sized, long):
        counts: dict[str, int] = {}
        for unit in game.units.values():
            if unit.id not in out:
                counts[attempt(unit)] = counts.get(attempt(unit), 0) + 1
        for unit in game.units.values():
            if unit.id not in out and counts[attempt(unit)] == 1:
                out[unit.id] = attempt(unit)
    for unit in game.units.values():
        if unit.id not in out:
            out[unit.id] = f"{plain(unit)} ({unit.id})" if ids_of_identical and plain(unit) != unit.id else plain(unit)
    return out


# -- stand-ins ---------------------------------------------------------------------------------------

def is_stand_in(warning: str) -> bool:
    """A warning that says the ruling used stand-in data (stated once per game, not per ruling)."""
    return bool(_STAND_IN_RE.search(warning))


def stand_ins(result: dict[str, Any]) -> list[str]:
    """The stand-ins a ruling used, each as a short label: "table crt (kwb/tables.toml:34)"."""
    names = UnitNames.of(result.get("system", ""))
    return list(dict.fromkeys(names.text(stand_in_label(w)) for w in result.get("warnings") or [] if is_stand_in(w)))


def stand_in_label(warning: str) -> str:
    """ "Stand-in table crt (kwb/tables.toml:34): the combat ..." -> "table crt (kwb/tables.toml:34)"."""
    text = _clean(warning)
    head, rest = _split_outside_brackets(text, ": ")
    head = re.sub(r"^(Uses a stand-in|Stand-in used|Stand-in)\s*", "", head, flags=re.IGNORECASE).strip()
    if head.startswith("(") and head.endswith(")"):
        inner = head[1:-1]
        what, _, where = inner.partition(", ")
        if where:  # "(table aircraft, fireandice/tables.toml:117)"
            head = f"{what} ({where})"
        else:  # "(holdfast/tables.toml:53): table weather: ..."
            head = f"{rest.partition(': ')[0]} ({inner})"
    return head or text[:80]


def _split_outside_brackets(text: str, separator: str) -> tuple[str, str]:
    """`text` split at the first `separator` not inside parentheses."""
    depth = 0
    for i, char in enumerate(text):
        depth += (char == "(") - (char == ")")
        if depth == 0 and text.startswith(separator, i):
            return text[:i], text[i + len(separator):]
    return text, ""


# -- reading rulings back ---------------------------------------------------------------------------

def dice_text(dice: list[dict[str, Any]]) -> str:
    """Dice grouped by purpose, in the order rolled: "attacker combat dice d6 5 6 2; ..."."""
    groups: list[tuple[str, int, list[int]]] = []
    for die in dice:
        purpose, sides = die.get("purpose", ""), die.get("sides", 0)
        if groups and groups[-1][0] == purpose and groups[-1][1] == sides:
            groups[-1][2].append(die.get("value"))
        else:
            groups.append((purpose, sides, [die.get("value")]))
    return "; ".join(f"{purpose} d{sides} " + " ".join(str(v) for v in values) if purpose
                     else f"d{sides} " + " ".join(str(v) for v in values)
                     for purpose, sides, values in groups)


def readable(value: Any) -> str:
    """A nested JSON value as one line a player reads: no braces, no quotes, no Python reprs."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, dict) and isinstance(value.get("hidden"), str):  # fog of war (adjudicator.fog)
        where = f" at {value['hex']}" if value.get("hex") else ""
        return f"a hidden {side_label(value['side'])} unit{where}" if value.get("side") else "hidden"
    if isinstance(value, str) and value.startswith("hidden:"):
        return "hidden"
    if isinstance(value, dict):
        lead = value.get("unit") or value.get("id")
        parts = [f"{_words(k)} {readable(value[k])}" for k in sorted(value)
                 if not _empty(value[k]) and not (lead and k in ("unit", "id"))]
        inner = ", ".join(parts)
        if lead:
            return f"{lead} ({inner})" if inner else str(lead)
        return inner or "-"
    if isinstance(value, (list, tuple)):
        if not value:
            return "none"
        return "; ".join(readable(item) for item in value)
    return str(value)


@dataclass
class TranscriptEntry:
    """One ruling found in a log: its tag's game and record (None for compute) and its lines."""

    game_id: str | None
    seq: int | None
    lines: list[str] = field(default_factory=list)
    #: Where the ruling stands among the texts it was read from: its first and last text's index.
    first: int = 0
    last: int = 0

    @property
    def recorded(self) -> bool:
        return self.game_id is not None

    @property
    def version(self) -> int:
        """How the ruling was rendered: 3 (the short ruling, ``RULING » `` first), 2 (the whole
        ruling, ``RULING `` first) or 1 (older logs)."""
        first = self.lines[0] if self.lines else ""
        return 3 if first.startswith(RULING_MARK) else 2 if first.startswith(RULING_MARK_V2) else 1

    @property
    def hash_prefix(self) -> str:
        for line in self.lines:
            found = re.match(r"receipt: record \d+ hash ([0-9a-f]+)", line)
            if found:
                return found.group(1)
        return ""

    def comparable(self) -> list[str]:
        """The lines that must equal the ledger's rendering (everything but the verify address)."""
        return [line for line in self.lines if not line.startswith(_VERIFY_PREFIX)]


def parse_transcript(texts: Iterable[str]) -> list[TranscriptEntry]:
    """The rulings in chat texts, in order; consecutive lines with the same tag are one ruling.

    A tag may stand anywhere in a text (VASSAL or a player may prefix a chat line); texts with
    no tag are not rulings and are skipped.
    """
    entries: list[TranscriptEntry] = []
    current_key: tuple[str | None, int | None] | None = None
    for index, text in enumerate(texts):
        found = _TAG_RE.search(text)
        if not found:
            current_key = None
            continue
        game, seq = found.group("game"), found.group("seq")
        key = (game, int(seq) if seq is not None else None)
        line = text[found.end():]
        if key != current_key or _closed(entries[-1].lines, line):
            entries.append(TranscriptEntry(game_id=key[0], seq=key[1], first=index))
            current_key = key
        entries[-1].lines.append(line)
        entries[-1].last = index
    return entries


def comparable_lines(result: dict[str, Any], *, system_name: str = "", version: int = VERSION,
                     names: UnitNames | None = None) -> list[str]:
    """What a log must show for this response (tags stripped, verify line left out), as `version`
    renders it: compare a ruling read from a log with ``version=entry.version``."""
    return TranscriptEntry(None, None, [_TAG_RE.sub("", line, count=1) for line in chat_lines(
        result, system_name=system_name, version=version, names=names)]).comparable()


def written_lines(result: dict[str, Any], *, system_name: str = "", version: int = VERSION) -> list[list[str]]:
    """Every way a log may rightly show this response as `version` wrote it (`comparable_lines`):
    versions 2 and 3 first named identical counters with their ids ("NK SC (nk-sc-1)"), as their
    logs still read; now they are named as the counters read ("NK SC"); and they first wrote no line
    for some orders (`UnitNames.as_written_before_every_order_was_a_change`)."""
    lines = [comparable_lines(result, system_name=system_name, version=version)]
    if version >= 2:
        names = UnitNames.of(result.get("system", ""))
        for older in (names.with_ids_of_identical_counters(), names.as_written_before_every_order_was_a_change(),
                      names.with_ids_of_identical_counters().as_written_before_every_order_was_a_change()):
            written = comparable_lines(result, system_name=system_name, version=version, names=older)
            if written not in lines:
                lines.append(written)
    return lines


def _closed(lines: list[str], next_line: str) -> bool:
    """Whether a ruling's lines are complete, so `next_line` with the same tag starts another.

    Two compute rulings in a row share a tag, and a recorded ruling may be posted twice (a
    replayed request); each ends with its closing line.
    """
    if not lines:
        return False
    last = lines[-1]
    if last.startswith(_NOT_RECORDED) or last.startswith(_VERIFY_PREFIX):
        return True
    return last.startswith(_RECEIPT_PREFIX) and not next_line.startswith(_VERIFY_PREFIX)


# -- small helpers ----------------------------------------------------------------------------------

def _wrap(line: str) -> list[str]:
    """A line of at most WRAP characters, or several: cut after a "; " between list items, else
    between words; the continuations start with "… "."""
    line = _clean(line)
    out = []
    while len(line) > WRAP:
        cut = line.rfind("; ", WRAP // 2, WRAP)
        cut = cut + 1 if cut > 0 else line.rfind(" ", WRAP // 2, WRAP)
        if cut <= 0:
            cut = WRAP
        out.append(line[:cut].rstrip())
        line = _CONTINUED + line[cut:].strip()
    out.append(line)
    return out


def _plain(value: Any) -> bool:
    return isinstance(value, (str, int, float, bool)) and value != ""


def _words(name: str) -> str:
    return str(name).replace("_", " ")


def _empty(value: Any) -> bool:
    return value is None or value == "" or value == [] or value == {}


def _clean(text: str) -> str:
    return _SPACES_RE.sub(" ", _CONTROL_RE.sub(" ", text)).strip()


# -- log sessions ------------------------------------------------------------------------------------

SESSION_TAG = "[ADJ session "
#: A log session's id, as the API takes it (`adjudicator.checks.SESSION_ID_PATTERN`): at most 64.
SESSION_ID_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")
#: The most sessions a line may name before its own (the API's `file` bound).
MAX_CHAIN_SESSIONS = 100_000
_SESSION_RE = re.compile(r"\[ADJ session (?P<id>[A-Za-z0-9_-]{1,64})\]")
_LONG_SESSION_RE = re.compile(r"\[ADJ session ([A-Za-z0-9_-]{65,})\]")
_SESSION_FIELDS = {
    "game": re.compile(r"\bgame (?P<v>[A-Za-z0-9_-]{1,64})"),
    "file": re.compile(r"\bfile (?P<v>\d{1,6})"),
    "side": re.compile(r", played by (?P<v>[a-z][a-z0-9_]{0,31})(?=,|$)"),
    "start": re.compile(r"\bposition (?P<v>[0-9a-f]{16,64})"),
    "live": re.compile(r", live session (?P<v>[A-Za-z0-9_-]{1,64})(?=,|$)"),
    "after": re.compile(r"\bafter (?P<v>[A-Za-z0-9_ -]*)$"),
}


@dataclass(frozen=True)
class SessionLine:
    """The line a log begins with when the Adjudicator extension keeps it: which log session this
    file is, of which game, and the sessions (files) before it, oldest first."""

    id: str
    game_id: str | None = None
    file: int | None = None
    start: str | None = None
    chain: tuple[str, ...] = ()
    side: str | None = None  # the side that played the file (lines before sides were named: None)
    #: The live session the log was kept in (players at one board in a VASSAL server room; every
    #: player's log of it names the same id), None for a log kept alone (play by e-mail).
    live: str | None = None

    @property
    def parent(self) -> str | None:
        return self.chain[-1] if self.chain else None


def session_line(game_id: str, session: dict[str, Any], chain: list[str]) -> str:
    """The chat line naming a log session (what the extension posts when a log begins):

        [ADJ session k3f9x2] log of game G, file 3, played by un, begun at position 9a1b…, after k1a2b3 k2c4d5

    A log kept in live play names its live session before the sessions before it ("…, begun at
    position 9a1b…, live session m4n5p6, after …"); a log begun before the game went live says so
    in a second line of the same session when it does.
    """
    parts = [f"{SESSION_TAG}{session['id']}] log of game {game_id}"]
    if session.get("file"):
        parts.append(f"file {session['file']}")
    if session.get("side"):
        parts.append(f"played by {session['side']}")
    if session.get("start"):
        parts.append(f"begun at position {session['start']}")
    if session.get("live"):
        parts.append(f"live session {session['live']}")
    parts.append("after " + " ".join(chain) if chain else "after the setup")
    return _clean(", ".join(parts))


class SessionLineError(ValueError):
    """A session line naming sessions outside the documented bounds (ids of 1 to 64 of
    A-Za-z0-9_-, at most `MAX_CHAIN_SESSIONS` before it): no line the extension writes."""


def parse_session_line(text: str) -> SessionLine | None:
    """The session line `text` is, None when it is none; SessionLineError for one out of bounds."""
    found = _SESSION_RE.search(text)
    if not found:
        if (long := _LONG_SESSION_RE.search(text)) is not None:
            raise SessionLineError(f"A line names log session {long.group(1)[:24]}… of {len(long.group(1))} "
                                   "characters: ids are at most 64. No line the Adjudicator extension writes.")
        return None
    rest = text[found.end():]
    values = {name: (m.group("v") if (m := pattern.search(rest)) else None) for name, pattern in _SESSION_FIELDS.items()}
    chain = tuple(values["after"].split()) if values["after"] and values["after"].strip() != "the setup" else ()
    chain = tuple(c for c in chain if c not in ("the", "setup"))
    longest = max(chain, key=len, default="")
    if len(chain) > MAX_CHAIN_SESSIONS or (longest and not SESSION_ID_RE.fullmatch(longest)):
        raise SessionLineError(f"Log session {found.group('id')}'s line names {len(chain)} earlier sessions, the longest "
                               f"id of {len(longest)} characters: ids are at most 64, and at most "
                               f"{MAX_CHAIN_SESSIONS} sessions come before one. No line the Adjudicator extension writes.")
    return SessionLine(found.group("id"), values["game"], int(values["file"]) if values["file"] else None,
                       values["start"], chain, values["side"], values["live"])
