"""A ruling as chat lines: what VASSAL shows, logs and sends to the opponent.

The Adjudicator extension inside every module posts these lines to VASSAL's chat, and the
players' pages write them into a `.vlog` that continues an uploaded game; both take them from
the service (`?transcript=1` on a check), so a ruling reads the same wherever it was asked and
the text is composed in one place. Every line starts with a tag naming the ruling,

    [ADJ <game id>#<seq>]   a recorded ruling: record <seq> of the game's ledger
    [ADJ compute]           a calculation with the players' own dice; nothing recorded

so a log can be read back (`adjudicator.logs.transcript`) and each recorded ruling checked against
the ledger: the lines `chat_lines` renders from the ledger record must be the lines in the log,
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

Units are named as their counters read ("NK 83"; `adjudicator.words.names`, the one place a unit id
becomes words: identical counters, such as KWB's four "NK SC", share that name). Stand-in data
(``stand_ins``) is not repeated under every ruling: the extension states it once per game.
Rulings written by earlier versions are still read and compared against their own rendering
(`adjudicator.logs.transcript.comparable_lines(..., version=entry.version)`), so older logs keep
verifying: version 2 (its first line ``RULING <headline>``; then the record's notices, every
step with its rule, the outcome's details, the dice, warnings that are not stand-ins; long lines
wrapped, ``… `` continuing a line; a record from before notices has none, so its lines are as
they were) and version 1 (the first line "<game>: <check> (<rules>)", outcome lines first, every warning). Logs of
versions 2 and 3 written when identical counters were still named with their ids verify too
(`adjudicator.logs.transcript.written_lines`).

Lines are plain text without control characters (a VASSAL command string cannot carry newlines
or ESC). Everything a line says is read from the outcome in sorted key order at every level: the
ledger stores results as canonical JSON (sorted keys), and a ruling must read the same from the
live response and from the ledger.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from adjudicator.checks import side_label
from adjudicator.request_units import states_before, unit_ids, unit_objects, unit_of
from adjudicator.unit_changes import (  # canonical order lives with the description
    BROKEN_DOWN, MARKED, MOVED, ON_HEX, RECOMBINED, REPLACED, RETREAT, RETURNED, TO_CHOOSE, TRACK, UnitChange,
    canonical as _canonical,
    ruled_changes,
)
from adjudicator.words.names import UnitNames, hidden_unit_words, rule_words

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

_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f]+")
_SPACES_RE = re.compile(r" {2,}")
VERIFY_PREFIX = "verify: "
NOTICE_PREFIX = "notice: "
RECEIPT_PREFIX = "receipt: "
NOT_RECORDED = "not recorded: "
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
#: A yes/no fact of a headline as the outcome it is (issue 51: "intervenes no" read as a form's field):
#: (what yes says, what no says); a fact not listed reads as its name, or "not" and its name.
FACT_WORDS = {
    "intervenes": ("intervention", "no intervention"), "intervened": ("intervention", "no intervention"),
    "success": ("success", "no success"), "hit": ("a hit", "no hit"), "legal": ("legal", "not legal"),
    "allowed": ("allowed", "not allowed"), "shortage_ended": ("the shortage ends", "the shortage goes on"),
    "fits": ("it fits", "it does not fit"), "moves_normally": ("it moves normally", "it does not move normally"),
    "in_supply": ("in supply", "out of supply"), "to_pusan": ("to Pusan", "not to Pusan"),
    "occupies_port": ("the port is occupied", "the port is not occupied"), "compliant": ("complied with", "not complied with"),
}
#: The same, where a check's fact says more than its name: (check, fact) -> (yes, no).
CHECK_FACT_WORDS = {
    ("chinese_intervention", "intervenes"): ("the Chinese intervene", "the Chinese do not intervene"),
    ("chinese_intervention", "intervened"): ("the Chinese intervene", "the Chinese do not intervene"),
    ("roc_intervention", "success"): ("the Republic of China intervenes", "no intervention"),
    ("soviet_intervention", "success"): ("the Soviet Union intervenes", "no intervention"),
    ("atomic_release", "success"): ("atomic weapons are released", "no release"),
    ("counter_battery", "cancelled"): ("the Communist marker is cancelled", "no effect"),
    ("seoul_cleared", "cleared"): ("Seoul is cleared", "Seoul is not cleared"),
}


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
        body.append(f"{RECEIPT_PREFIX}record {result['seq']} hash {str(result.get('hash', ''))[:HASH_PREFIX_LENGTH]}"
                    f"{signed}")
        if verify_url:
            body.append(f"{VERIFY_PREFIX}{verify_url}")
    else:
        body.append(f"{NOT_RECORDED}computed from the players' own dice")
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
    plain = [f"{_words(key)}: {_value_text(outcome[key], names)}" for key in shown
             if not isinstance(outcome[key], (dict, list))]
    if plain:
        body += _wrap(names.text("= " + "; ".join(plain)))
    for key in shown:
        if isinstance(outcome[key], (dict, list)):
            body += _wrap(names.text(f"= {_words(key)}: {_value_text(outcome[key], names)}"))
    dice = dice_text(result.get("dice_used") or [], names.players_words)
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
    body = [RULING_MARK + first_line(result, names)]
    body += [_clean(NOTICE_PREFIX + notice) for notice in notice_texts(result)]
    dice = dice_text(result.get("dice_used") or [], names.players_words)
    room = SHORT_LINES - len(body) - tail - (1 if dice else 0)
    if len(units) > room:
        shown = max(room - 1, 0)
        left = len(units) - shown
        units = units[:shown] + [f"and {left} more unit{'s' if left != 1 else ''} {_overflow_words(result)}"]
    body += [_clean(line) for line in units]
    if dice:
        body.append(_clean(names.text(f"dice: {dice}")))
    return body


def first_line(result: dict[str, Any], names: UnitNames | None = None) -> str:
    """The sentence a ruling's chat opens with (after its tag and mark): its headline, with what it
    does to units when those have no lines of their own. The ruling's page and the game's ledger open
    with it too."""
    names = names or UnitNames.of(result.get("system", ""))
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
    if isinstance(unit, str):
        who = names.name(unit)
    elif item.get("hidden") and names.players_words:  # a sealed unit, as the fog allows: "a UN block in 0520"
        who = hidden_unit_words(names.game.id if names.game is not None else "", item)
    else:
        who = readable(item if item.get("hidden") else "a unit")
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
    summary = attack if attack else _facts(outcome, names, str(result.get("check", "")).rpartition(".")[2])
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
        if not hits and names.facts:  # each unit's own hits (HoldFast): a roll's headline has its result
            hits = [said for said in [_hits_words(outcome)] if said]
        if hits:
            text += ": " + ", ".join(hits)
    return text


def _hits_words(outcome: dict) -> str:
    """ "2 hits on the defender, 1 on the attackers", "no hits": the hits an outcome counts on each
    unit (its `defender` and `attackers` with their `hits`), "" for an outcome that counts none."""
    def hits(node: Any) -> list[int]:
        items = node if isinstance(node, list) else [node]
        return [item["hits"] for item in items if isinstance(item, dict) and isinstance(item.get("hits"), int)
                and not isinstance(item["hits"], bool)]

    on_defender, on_attackers = hits(outcome.get("defender")) + hits(outcome.get("defenders")), hits(outcome.get("attackers"))
    if not on_defender and not on_attackers:
        return ""
    defender, attackers = sum(on_defender), sum(on_attackers)
    if defender == attackers == 0:
        return "no hits"
    said = [f"{defender} hit{'s' if defender != 1 else ''} on the defender" if defender else "",
            f"{attackers} hit{'s' if attackers != 1 else ''} on the attacker{'s' if len(on_attackers) > 1 else ''}"
            if attackers else ""]
    return ", ".join(text for text in said if text)


def _placed(item: dict, names: UnitNames) -> str:
    """ "NK 2 (3042)": a unit object named as its counter reads, with its hex when it has one."""
    where = item.get("hex")
    return names.name(str(item.get("unit"))) + (f" ({where})" if isinstance(where, str) and where else "")


def _facts(outcome: dict, names: UnitNames, check: str = "") -> str:
    """The deciding facts of a check that is no attack: the first few of HEADLINE_FACTS present,
    else a report's totals by side (a saved game's supply), else the first plain values of the
    outcome (as rulings read before players' words, `UnitNames.players_words`: never the totals);
    each as the outcome it is (`_fact`)."""
    keys = [k for k in HEADLINE_FACTS if _plain(outcome.get(k))]
    if not keys and names.players_words and (totals := _side_totals(outcome)):
        return totals
    if not keys:
        keys = [k for k in sorted(outcome) if _plain(outcome[k])]
    if "roll" in outcome and _plain(outcome["roll"]) and "roll" not in keys[:HEADLINE_FACT_COUNT]:
        keys = keys[:HEADLINE_FACT_COUNT - 1] + ["roll"]
    text = ", ".join(_fact(k, outcome[k], names, check) for k in keys[:HEADLINE_FACT_COUNT])
    return names.text(text) if names.players_words else text


def _fact(key: str, value: Any, names: UnitNames, check: str) -> str:
    """One fact of a headline: a yes/no as the outcome it is ("the Chinese intervene", "no hit"), a
    side by its name; before facts read so (`UnitNames.facts`), its name and value ("intervenes no",
    "winner un")."""
    if names.facts and isinstance(value, bool):
        yes, no = CHECK_FACT_WORDS.get((check, key)) or FACT_WORDS.get(key) or (_words(key), f"not {_words(key)}")
        return yes if value else no
    if names.facts and isinstance(value, str) and names.game is not None and value in names.game.sides:
        return f"{_words(key)} {side_label(value)}"  # "winner UN", never the side's id
    return f"{_words(key)} {_value_text(value, names)}"


def _side_totals(outcome: dict) -> str:
    """A report by side's totals ("in supply 41, out of supply 2"; several sides: "UN: in supply 41,
    out of supply 2; Communist: ..."), "" for an outcome that is none."""
    sides = outcome.get("sides")
    if not isinstance(sides, list) or not sides:
        return ""
    said = []
    for side in sides:
        if not isinstance(side, dict):
            return ""
        counts = [f"{_words(k)} {side[k]}" for k in ("in_supply", "out_of_supply", "isolated")
                  if isinstance(side.get(k), int) and not isinstance(side.get(k), bool)]
        if not counts:
            return ""
        said.append((side.get("side"), ", ".join(counts)))
    if len(said) == 1:
        return said[0][1]
    return "; ".join(f"{side_label(s)}: {text}" if isinstance(s, str) else text for s, text in said)


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
    before = {**states_before(request), **_sp_before(outcome)}
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
    if change.kind in (ON_HEX, TRACK):
        return _board_target_text(change, names)
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


def _board_target_text(change: UnitChange, names: UnitNames) -> str:
    """An order to a hex or a track, with its rule: "Communist Objective marker on 2542, drawn at random,
    face up (5.5 News reporters; 12.1.3)", "Communist Tank Support marker down 1 on the Support Level
    Track (5.3.1 road option)", "VPs marker to 4 on the Victory Point Track, VPs (UN blue) (12.1.1 ...)"."""
    marker = change.markers[0] if change.markers else "a"
    rule = f" ({change.rule})" if change.rule else ""
    if change.kind == ON_HEX:
        return f"{marker} marker on {change.hex or 'the combat hex'}, drawn at random, face up{rule}"
    track = names.game.tracks.get(change.track) if names.game is not None else None
    on = f"on the {track.name if track is not None else 'track'}"
    if change.cell:
        return f"{marker} marker to {change.cell} {on}" + (f", {change.face}" if change.face else "") + rule
    way = f"{'down' if change.by < 0 else 'up'} {abs(change.by)}"
    if not change.marker:
        return f"the {side_label(change.applied_by)} player moves one of his {marker} markers {way} {on}{rule}"
    return f"{marker} marker {way} {on}{rule}"


def _sp_before(outcome: Any) -> dict[str, int]:
    """Block games name a block's SP before and after: unit -> SP before."""
    return {unit_of(node): node["sp_before"] for node in unit_objects(outcome)
            if isinstance(node.get("sp_before"), int)}


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


# -- values as words -----------------------------------------------------------------------------------

def dice_text(dice: list[dict[str, Any]], sealed_as_hidden: bool = False) -> str:
    """Dice grouped by purpose, in the order rolled: "attacker combat dice d6 5 6 2; ..." (a sealed
    die, one nobody may see yet, as "hidden" with `sealed_as_hidden`, else as its commitment)."""
    groups: list[tuple[str, int, list[int]]] = []
    for die in dice:
        purpose, sides, value = die.get("purpose", ""), die.get("sides", 0), die.get("value")
        if sealed_as_hidden and isinstance(value, str) and value.startswith("hidden:"):
            value = "hidden"
        if groups and groups[-1][0] == purpose and groups[-1][1] == sides:
            groups[-1][2].append(value)
        else:
            groups.append((purpose, sides, [value]))
    return "; ".join(f"{purpose} d{sides} " + " ".join(str(v) for v in values) if purpose
                     else f"d{sides} " + " ".join(str(v) for v in values)
                     for purpose, sides, values in groups)


def _value_text(value: Any, names: UnitNames) -> str:
    """An outcome's value as a ruling words it: `readable`, and in players' words a sealed unit as the
    fog allows and a name the rules give a value in words ("foreign_aid" -> "foreign aid")."""
    text = readable(value, _fog_words(names))
    return rule_words(text) if names.players_words else text


def _fog_words(names: UnitNames) -> Callable[[dict], str] | None:
    """How a sealed unit reads in these names' wording: as the fog allows ("a UN block in 0520"),
    or, before players' words, as `readable` always wrote it."""
    if not names.players_words:
        return None
    system = names.game.id if names.game is not None else ""
    return lambda sealed: hidden_unit_words(system, sealed)


def _key_words(key: str, sealed: Callable[[dict], str] | None) -> str:
    """An object's key in words; a sealed unit's (HoldFast's "in supply" by block) as "a hidden
    unit" where a sealed unit reads as the fog allows (`sealed`)."""
    return "a hidden unit" if sealed is not None and str(key).startswith("hidden:") else _words(key)


def readable(value: Any, sealed: Callable[[dict], str] | None = None) -> str:
    """A nested JSON value as one line a player reads: no braces, no quotes, no Python reprs
    (`sealed`: how a sealed unit reads, "a hidden UN unit at 0520" unless given)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, dict) and isinstance(value.get("hidden"), str):  # fog of war (adjudicator.fog)
        if sealed is not None:
            return sealed(value)
        where = f" at {value['hex']}" if value.get("hex") else ""
        return f"a hidden {side_label(value['side'])} unit{where}" if value.get("side") else "hidden"
    if isinstance(value, str) and value.startswith("hidden:"):
        return "hidden"
    if isinstance(value, dict):
        lead = value.get("unit") or value.get("id")
        parts = [f"{_key_words(k, sealed)} {readable(value[k], sealed)}" for k in sorted(value)
                 if not _empty(value[k]) and not (lead and k in ("unit", "id"))]
        inner = ", ".join(parts)
        if lead:
            return f"{lead} ({inner})" if inner else str(lead)
        return inner or "-"
    if isinstance(value, (list, tuple)):
        if not value:
            return "none"
        return "; ".join(readable(item, sealed) for item in value)
    return str(value)


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
