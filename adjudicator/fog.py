"""Fog of war in the ledger: what a recorded ruling shows, and to whom.

HoldFast Korea: "The only time the opposing player may see the label side of an enemy unit is when
both sides reveal the type of unit for combat." Fire and Ice 12.1.3: an Objective marker's value is
hidden until revealed; KWB 8.1: Support Fire markers are drawn at random into the drawer's hand,
the opponent sees one when it is used. (KWB's Scratch Units, unseen even by their owner, never enter
a ruling unrevealed: they are sealed draws the adjudicator settles, `adjudicator.ledger.draws`.) A ruling
names such units (a supply report lists every block it traced), yet the ledger is read by both
players and an observer, and the chat lines of a ruling go into the log the opponent receives.

So a game registers its `Fog`: which units are hidden and from whom, which checks reveal which of
them (a combat reveals its combatants), which outcome values the acting side alone sees. When a
ruling is recorded, `seal` replaces each hidden part of its request and result by a *salted
commitment* — `{"hidden": sha256(salt + canonical value), "side": owner, "hex": ...}`, or the text
"a Communist block" in a step — and keeps the value and its salt apart (`Part`). The record's hash
and signature cover the commitments, so the ledger verifies for everyone without showing them.
A draw no one may see (an Objective marker's value), or only the drawer (a Support Fire marker), has
its outcome and its dice sealed too.
`reveal` puts back the parts a viewer may see: a side its own hidden parts at once; everyone all
of them once the game is closed (the closing record publishes every part, and the verifier checks
each against its commitment). `hidden_side` is the one rule of who may see which unit a piece is,
which every page, chat line, refusal and replay asks. This module is a leaf: the rules packages
register into it.
"""

from __future__ import annotations

import copy
import hashlib
import re
import secrets
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Callable, Iterable, Mapping

from adjudicator.canonical import canonical_bytes
from adjudicator.checks import side_label
from adjudicator.request_units import unit_of

HIDDEN = "hidden"
#: A hidden unit's key for the commitment of its whole object, where its owner's view of it leaves
#: out another side's units (closing the game puts the whole back).
WHOLE = "whole"
#: A result's key listing the commitments of its texts sealed whole (steps, warnings).
SEALED = "sealed"
#: A result's notices (adjudicator.ledger.board): each naming a hidden unit is sealed whole.
NOTICES = "notices"
TEXTS = ("steps", "warnings")
#: Keys of a hidden unit's object that stay public: where it stands is on the board for all to see.
PUBLIC_KEYS = ("hex", "map", "location")
#: The owner of a part no player sees before the game closes (a secret draw, the full steps, a sealed
#: pool's order).
NO_ONE = ""


@dataclass(frozen=True)
class Fog:
    """What a game hides."""

    rule: str  # the rule, in its words or by number, for the steps and the docs
    noun: str  # what a hidden unit is called in words: "block", "unit"
    unit_owner: Callable[[str], str | None]  # unit id -> its side if its identity is hidden, else None
    owner_sees: bool = True  # False: hidden from its owner too (drawn unseen)
    #: check name -> request fields whose units the rules reveal to both sides (its outcome too).
    revealed_by: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: checks whose draw no one may see before it is revealed: their outcome and their dice are
    #: sealed (Fire and Ice's Objective markers, drawn at random and placed face down).
    secret_draws: tuple[str, ...] = ()
    #: checks whose draw only the drawing side sees until it is used -> the request fields sealed with
    #: it (what would tell the drawer's hand): their outcome and dice are sealed, that side's to see
    #: (KWB's Support Fire markers, drawn into the drawer's hand).
    own_draws: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: Every unit id the fog hides -> its owner, as one table per game data (what `unit_owner`
    #: answers, id by id). Sealing a record looks up every word of its texts: one set per game,
    #: not a lookup into the scenario per word. None: `unit_owner` is asked each time.
    hidden_units: Callable[[], Mapping[str, str]] | None = None

    def owner_lookup(self) -> Callable[[str], str | None]:
        """`unit_owner` as fast as the game gives it: its table's `get` (ask it once per record)."""
        return self.unit_owner if self.hidden_units is None else self.hidden_units().get


#: For a game without hidden units (its `hidden_units`).
NO_HIDDEN_UNITS: Mapping[str, str] = MappingProxyType({})

_FOG: dict[str, Fog] = {}


def register_fog(system: str, fog: Fog) -> Fog:
    _FOG[system] = fog
    return fog


def fog_of(system: str) -> Fog | None:
    return _FOG.get(system)


@dataclass(frozen=True)
class Part:
    """One hidden value of a record: its commitment, who may see it before the game closes, the
    salt and the value (canonical JSON's value)."""

    commitment: str
    owner: str
    salt: str
    value: Any

    def to_json(self) -> dict[str, Any]:
        return {"commitment": self.commitment, "owner": self.owner, "salt": self.salt, "value": self.value}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Part":
        return cls(data["commitment"], data["owner"], data["salt"], data["value"])


def commitment_of(salt: str, value: Any) -> str:
    """SHA-256 over the salt's text and the value's canonical JSON (docs/api.md "Fog of war")."""
    return hashlib.sha256(salt.encode("ascii") + canonical_bytes(value)).hexdigest()


@dataclass
class Sealed:
    request: dict[str, Any]
    result: dict[str, Any]
    parts: list[Part] = field(default_factory=list)


class _Sealer:
    def __init__(self, fog: Fog, shown: set[str] | frozenset[str] = frozenset()):
        self.fog = fog
        self.owner = fog.owner_lookup()
        self.shown = shown  # units the check reveals to both: never sealed, never redacted
        self.parts: list[Part] = []
        self.hidden_units: dict[str, str] = {}  # unit id -> owner, of what was sealed

    def part(self, value: Any, owner: str) -> Part:
        salt = secrets.token_hex(16)
        made = Part(commitment_of(salt, value), owner, salt, copy.deepcopy(value))
        self.parts.append(made)
        return made

    def owner_for_viewing(self, side: str) -> str:
        return side if self.fog.owner_sees else NO_ONE

    def unit_stub(self, node: dict[str, Any], side: str) -> dict[str, Any]:
        """What the record shows of a hidden unit's object: where it stands, its side, the commitment
        of the object as its owner may see it (the other side's units it names, say a supply reason's
        "blocked by nkpa-10", named by their side only), and of the whole object when that differs
        (everyone's once the game is closed)."""
        owner = self.owner_for_viewing(side)
        owners_view = node if owner == NO_ONE else _hide(node, self.fog, owner, self.shown)
        stub = {HIDDEN: self.part(owners_view, owner).commitment, "side": side,
                **{k: node[k] for k in PUBLIC_KEYS if k in node}}
        if owners_view != node:
            stub[WHOLE] = self.part(node, NO_ONE).commitment
        return stub

    def walk(self, node: Any) -> Any:
        if isinstance(node, dict):
            unit = unit_of(node)
            side = self.owner(unit) if unit is not None else None
            if side is not None:
                self.hidden_units[unit] = side
                return self.unit_stub(node, side)
            return {self.walk(key): self.walk(value) for key, value in node.items()}  # a key may name a unit
        if isinstance(node, list):
            return [self.walk(item) for item in node]
        if isinstance(node, str):
            side = self.owner(node)
            if side is not None:
                self.hidden_units[node] = side
                return f"{HIDDEN}:{self.part(node, self.owner_for_viewing(side)).commitment}"
        return node


def seal(system: str, check: str, acting_side: str, request: dict[str, Any], result: dict[str, Any],
         owners_notices: list[str] | tuple[str, ...] = ()) -> Sealed:
    """The record's public request and result, and its hidden parts (nothing for a game without fog).

    `owners_notices`: hidden units whose notices stay sealed (their owner's) even where the check
    reveals them: what the notice says (eliminated by a ruling the asker saw sealed) the reveal does not."""
    fog = _FOG.get(system)
    if fog is None:
        return Sealed(request, result, [])
    revealed = set(fog.revealed_by.get(check, ()))
    outcome = result.get("outcome")
    sealer = _Sealer(fog, shown=named_units(fog, [request.get(key) for key in revealed] +
                                            [outcome if check in fog.revealed_by else None]))
    own = set(fog.own_draws.get(check, ()))
    public_request = {key: ({HIDDEN: sealer.part(value, acting_side).commitment} if key in own
                            else value if key in revealed else sealer.walk(value)) for key, value in request.items()}
    public_result = dict(result)
    if isinstance(outcome, dict):
        public_outcome = dict(outcome) if check in fog.revealed_by else sealer.walk(outcome)
        if check in fog.secret_draws or check in fog.own_draws:
            owner = acting_side if check in fog.own_draws else NO_ONE
            public_outcome = {key: {HIDDEN: sealer.part(value, owner).commitment} for key, value in outcome.items()}
            public_result["dice_used"] = [{**die, "value": f"{HIDDEN}:{sealer.part(die.get('value'), owner).commitment}"}
                                          for die in result.get("dice_used") or []]
        public_result["outcome"] = public_outcome
    if result.get(NOTICES):  # a notice about a unit the check reveals stays public; the others are sealed
        public_result[NOTICES] = [n if isinstance(n, dict) and n.get("unit") in sealer.shown
                                  and n.get("unit") not in owners_notices else sealer.walk(n) for n in result[NOTICES]]
    for key in TEXTS:
        texts = result.get(key) or []
        if not _names_any(texts, _hidden_from(fog, None), sealer.shown):
            continue  # nothing to hide: the texts stand as they are (no copy to compare)
        public = _hide(texts, fog, None, sealer.shown)
        if public != texts:
            public_result[key] = public
            made = sealer.part({key: texts}, NO_ONE)  # the full texts: everyone's once the game closes
            public_result.setdefault(SEALED, {})[key] = made.commitment
    return Sealed(public_request, public_result, sealer.parts)


#: A word that may be a unit's id (ids are letters, digits and hyphens), with the strength a
#: step may give after it ("nkpa-1 (3 SP)").
_WORD = re.compile(r"(?<![\w-])([A-Za-z0-9][\w-]*)(?![\w-])(\s*\(\d+\s*SP\))?")
#: A unit id `_WORD` reads as one word.
_ID = re.compile(r"[A-Za-z0-9][\w-]*")


def hidden_side(fog: Fog | None, unit_id: str, viewer: str | None) -> str | None:
    """The one visibility rule, "may this viewer see which unit this is": the side of `unit_id`
    when the fog of war hides it from `viewer` (a side; None: an observer, or no side's eyes), else
    None (a game without fog, a unit the game does not hide, or the viewer's own unit where owners
    see theirs: HoldFast's blocks, not a piece drawn unseen). Every page, chat line, refusal, replay
    and picture asks it; a closed game shows every unit to all, so callers that know the game is
    closed do not ask."""
    side = fog.unit_owner(unit_id) if fog is not None else None
    if side is None or (viewer is not None and fog.owner_sees and side == viewer):
        return None
    return side


def unit_in_fog(fog: Fog | None, side: str | None, hex_: str | None = "") -> str:
    """A unit the fog hides, as the viewer may read it: its side (if known), what the game calls it
    and where it stands, never which it is ("a UN block", "a UN block in 0520")."""
    noun = fog.noun if fog is not None else "unit"
    return f"a {side_label(side) + ' ' if side else ''}{noun}" + (f" in {hex_}" if hex_ else "")


def _hide(node: Any, fog: Fog, viewer: str | None, shown: frozenset[str] | set[str]) -> Any:
    """`node` (a text, or JSON holding texts, keys included) with every unit the viewer may not
    see named by its side only; the units in `shown` (named in the clear) stay.

    Each text is read in one pass for the game's hidden ids (`_hidden_words`), not word by word; and
    first, all of them at once, for a word that is an id to swap (`_names_any`): most texts name no
    unit but those the rules revealed (a combat's steps), and the pattern of every hidden id tried at
    each character cost far more than splitting the texts into words in C."""
    words = _hidden_words(fog)
    if words is None or not _names_any(node, _hidden_from(fog, viewer), shown):
        return _copy_texts(node)  # nothing to swap: the texts as they are (copied, as below)

    def swap(found: re.Match) -> str:
        unit = found.group(1)
        side = hidden_side(fog, unit, viewer)
        if side is None or unit in shown:
            return found.group(0)
        return unit_in_fog(fog, side)

    sub = words.sub

    def hide(item: Any) -> Any:
        if isinstance(item, str):
            return sub(swap, item)
        if isinstance(item, dict):
            return {hide(key): hide(value) for key, value in item.items()}
        if isinstance(item, list):
            return [hide(value) for value in item]
        return item

    return hide(node)


def _names_any(node: Any, ids: frozenset[bytes] | None, shown: frozenset[str] | set[str]) -> bool:
    """Whether a text of `node` (keys too) may name one of `ids` not in `shown`: one of them is a
    word of it (None: the ids are not known, so it may). The words are the runs of id characters
    found in C (`_AS_WORDS`): a unit `_hide` swaps is such a run, its neighbours no word character."""
    if ids is None:
        return True
    texts: list[str] = []
    _texts_of(node, texts.append)
    words = " ".join(texts).encode("utf-8").translate(_AS_WORDS).split()
    return any(word.decode("ascii") not in shown for word in ids.intersection(words))


def _texts_of(node: Any, add: Callable[[str], None]) -> None:
    if isinstance(node, str):
        add(node)
    elif isinstance(node, dict):
        for key, value in node.items():
            _texts_of(key, add)
            _texts_of(value, add)
    elif isinstance(node, list):
        for item in node:
            _texts_of(item, add)


#: UTF-8 bytes to words of ASCII id characters: every other byte (a multi-byte character's too) a space.
_AS_WORDS = bytes(b if re.fullmatch(rb"[A-Za-z0-9_-]", bytes([b])) else 32 for b in range(256))
#: The ids of the fog's table that `hidden_side` hides from a viewer, by fog and viewer:
#: (id(fog), viewer) -> (the table they were read from, the ids as bytes, None where one is not ASCII).
_HIDDEN_FROM: dict[tuple[int, str | None], tuple[Mapping[str, str], frozenset[bytes] | None]] = {}


def _hidden_from(fog: Fog, viewer: str | None) -> frozenset[bytes] | None:
    """The ids of the fog's table that `hidden_side` hides from `viewer`, as `_names_any` looks for
    them (read once per table and viewer); None for a fog without a table (`Fog.hidden_units`) or
    with an id of other characters than `_AS_WORDS` keeps (the texts are then read as always)."""
    if fog.hidden_units is None:
        return None
    table = fog.hidden_units()
    kept = _HIDDEN_FROM.get((id(fog), viewer))
    if kept is None or kept[0] is not table:
        hidden = [unit for unit in table if hidden_side(fog, unit, viewer) is not None]
        plain = all(re.fullmatch(r"[A-Za-z0-9_-]+", unit) for unit in hidden)
        kept = (table, frozenset(unit.encode("ascii") for unit in hidden) if plain else None)
        _HIDDEN_FROM[(id(fog), viewer)] = kept
    return kept[1]


def _copy_texts(node: Any) -> Any:
    if isinstance(node, dict):
        return {key: _copy_texts(value) for key, value in node.items()}
    if isinstance(node, list):
        return [_copy_texts(item) for item in node]
    return node


#: The last pattern made of a fog's table of hidden ids: id(fog) -> (the table, its pattern).
_WORDS_OF: dict[int, tuple[Mapping[str, str], re.Pattern | None]] = {}


def _hidden_words(fog: Fog) -> re.Pattern | None:
    """The pattern of `_WORD` narrowed to the words that are ids of hidden units: a text's hidden
    units found in one regular-expression pass (a text without one costs a scan, no call per word).
    Made once per table (a game's data reloaded gives a new table); None for a table with no id.
    A fog without a table (`Fog.hidden_units`) keeps `_WORD`, each word asked of `unit_owner`."""
    if fog.hidden_units is None:
        return _WORD
    table = fog.hidden_units()
    kept = _WORDS_OF.get(id(fog))
    if kept is not None and kept[0] is table:
        return kept[1]
    ids = sorted((unit for unit in table if _ID.fullmatch(unit)),  # ids `_WORD` can find, as it finds them
                 key=lambda unit: (-len(unit), unit))  # the longest first: "nkpa-10" before "nkpa-1"
    pattern = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, ids)) + r")(?![\w-])(\s*\(\d+\s*SP\))?") \
        if ids else None
    _WORDS_OF[id(fog)] = (table, pattern)
    return pattern


def named_units(fog: Fog, node: Any) -> set[str]:
    """The hidden units `node` names in the clear (as a value or a key): in a sealed record, those
    the rules revealed to both (a combat's).

    A record's body is a few hundred values and every roll reads two or three (its own sealing, the
    kept board's `in_clear`): the walk dispatches on the exact JSON types first, the subclasses
    after."""
    owner = fog.owner_lookup()
    found: set[str] = set()
    stack = [node]
    pop, extend = stack.pop, stack.extend
    while stack:
        item = pop()
        kind = type(item)
        if kind is str:
            if owner(item) is not None:
                found.add(item)
        elif kind is dict:
            extend(item)
            extend(item.values())
        elif kind is list:
            extend(item)
        elif isinstance(item, dict):
            extend(item)
            extend(item.values())
        elif isinstance(item, list):
            extend(item)
        elif isinstance(item, str) and owner(item) is not None:
            found.add(item)
    return found


#: A unit id canonical JSON writes as itself, so its string is found in the text as the id in quotes.
_PLAIN_ID = re.compile(r"[A-Za-z0-9_-]+")


def named_in_clear(fog: Fog, node: Any, encoded: bytes, units: Iterable[str]) -> set[str]:
    """Those of `units` that `named_units(fog, node)` finds, each looked for in `encoded`, `node`'s
    canonical JSON, instead of a walk over every value: the kept ledger board asks it of every record
    it folds, for the few units a notice may name with that record.

    A string of the text that is the id in quotes is one of node's strings (a key or a value) unless
    its opening quote is escaped, inside another string: an unescaped quote followed by id
    characters opens a string, since a closing quote is followed by , : ] or }. An id of other
    characters is looked for by the walk."""
    owner = fog.owner_lookup()
    hidden = [unit for unit in units if owner(unit) is not None]
    if not hidden:
        return set()
    if not all(_PLAIN_ID.fullmatch(unit) for unit in hidden):
        return named_units(fog, node) & set(hidden)
    text = encoded.decode("utf-8")
    return {unit for unit in hidden if _quoted_in(text, f'"{unit}"')}


def _quoted_in(text: str, quoted: str) -> bool:
    at = text.find(quoted)
    while at != -1:
        if at == 0 or text[at - 1] != "\\":
            return True
        at = text.find(quoted, at + 1)
    return False


def redact(system: str, node: Any, viewer: str | None, shown: frozenset[str] | set[str] = frozenset()) -> Any:
    """`node` — a text, or any JSON value of texts — with every unit whose identity the fog of war
    hides from `viewer` (a side, or None for an observer) named by its side only ("a Communist
    block"), except those in `shown` (a ruling's units the rules revealed). The one redaction
    every rendering of a ruling passes through: its tables, steps and chat lines as a viewer sees
    them (`reveal`), a saved game's report, a replay's texts."""
    fog = _FOG.get(system)
    return _hide(node, fog, viewer, shown) if fog else node


def unseen_by(system: str, check: str, request: dict[str, Any], viewer: str | None) -> list[str]:
    """The units whose identity the viewer may not see that a question asked before the roll
    (its chances) would give away: those in the fields the roll itself would reveal (a combat's
    combatants), or, for a check that reveals none, in any field."""
    fog = _FOG.get(system)
    if fog is None:
        return []
    fields = fog.revealed_by.get(check) or tuple(request)
    sealer = _Sealer(fog)
    for name in fields:
        sealer.walk(request.get(name))
    return sorted(unit for unit in sealer.hidden_units if hidden_side(fog, unit, viewer) is not None)


def as_seen_by(system: str, check: str, request: dict[str, Any], viewer: str | None) -> dict[str, Any]:
    """A request as the viewer may see it (each hidden unit it may not see sealed)."""
    if _FOG.get(system) is None:
        return request
    sealed = seal(system, check, viewer or "", request, {})
    return reveal(system, {"request": sealed.request, "result": sealed.result}, sealed.parts, viewer,
                  closed=False)["request"]


def visible_to(part: Part, viewer: str | None, closed: bool) -> bool:
    """Whether `viewer` (a side, or None for an observer) may see `part` now."""
    return closed or (viewer is not None and part.owner != NO_ONE and part.owner == viewer)


def reveal(system: str, body: dict[str, Any], parts: list[Part], viewer: str | None, closed: bool) -> dict[str, Any]:
    """A record's body as `viewer` may see it: the parts it may see put back in place, and in
    everything (its own units' rows too: a supply reason names the enemy blocks that cut it) the
    units it may not see named by their side only (`redact`); all of it once the game is closed."""
    fog = _FOG.get(system)
    if fog is None or not parts:
        return body
    known = {p.commitment: p for p in parts if visible_to(p, viewer, closed)}
    # the request and the result are made anew below (put back, redacted): copy only the rest
    out = {key: value if key in ("request", "result") else copy.deepcopy(value) for key, value in body.items()}
    result = dict(body.get("result") or {})
    if closed:  # everything shown: nothing to redact
        seen = (lambda node: node)
    else:
        shown = named_units(fog, [body.get("request"), result.get("outcome")])  # in the clear: revealed by the rules
        seen = (lambda node: _hide(node, fog, viewer, shown))
    out["request"] = seen(_put_back(body.get("request"), known))
    result["outcome"] = seen(_put_back(result.get("outcome"), known))
    result["dice_used"] = seen(_put_back(result.get("dice_used"), known))
    if NOTICES in result:
        result[NOTICES] = seen(_put_back(result[NOTICES], known))
    sealed = result.get(SEALED) or {}
    for part in parts:
        for key in TEXTS:
            if isinstance(part.value, dict) and set(part.value) == {key} and sealed.get(key) == part.commitment:
                result[key] = seen(part.value[key])
    out["result"] = result
    return out


def _put_back(node: Any, known: dict[str, Part]) -> Any:
    return put_back(node, {commitment: part.value for commitment, part in known.items()})


def put_back(node: Any, values: dict[str, Any]) -> Any:
    """`node` with every sealed part whose commitment `values` has (commitment -> value) put back:
    a hidden unit's whole object where `values` has it, else its owner's view of it."""
    if isinstance(node, dict) and isinstance(node.get(HIDDEN), str):
        for key in (WHOLE, HIDDEN):  # the whole object once it may be seen, else its owner's view of it
            if isinstance(node.get(key), str) and node[key] in values:
                return copy.deepcopy(values[node[key]])
    if isinstance(node, dict):
        return {put_back(key, values): put_back(value, values) for key, value in node.items()}
    if isinstance(node, list):
        return [put_back(item, values) for item in node]
    if isinstance(node, str) and node.startswith(f"{HIDDEN}:") and node[len(HIDDEN) + 1:] in values:
        return copy.deepcopy(values[node[len(HIDDEN) + 1:]])
    return node


def has_sealed(node: Any) -> bool:
    """Whether `node` (a record's body) holds a sealed part."""
    if isinstance(node, dict):
        return isinstance(node.get(HIDDEN), str) or any(has_sealed(v) for v in node.values())
    if isinstance(node, list):
        return any(has_sealed(v) for v in node)
    return isinstance(node, str) and node.startswith(f"{HIDDEN}:")


def check_parts(body: dict[str, Any], parts: list[Part]) -> list[str]:
    """Problems with revealed parts against their record's body: each part's commitment must be
    its salt's and value's, and must stand in the body (the record's hash covers it)."""
    problems = []
    text = canonical_bytes(body).decode("utf-8")
    for part in parts:
        if commitment_of(part.salt, part.value) != part.commitment:
            problems.append(f"a revealed part does not match its commitment {part.commitment[:16]}")
        elif part.commitment not in text:
            problems.append(f"a revealed part's commitment {part.commitment[:16]} is not in the record")
    return problems
