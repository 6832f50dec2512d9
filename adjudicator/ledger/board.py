"""The ledger's view of the board: each unit as the server's own rulings left it, and the notices
a new ruling gets from it.

The ledger knows what its rulings did (`adjudicator.unit_changes`): which units they eliminated,
which steps or strengths they set, which units a later ruling brought back or put in as a
replacement. `LedgerBoard` folds a game's records, in order, into that state (full values: the
server folds the records with their hidden parts put back; the verifier, once the game is closed,
with the parts the closing record reveals). A new ruling is read against it (`LedgerBoard.derive`):

* a unit its request names as present that a ruling eliminated: notice ``eliminated`` ("US 27/25
  was eliminated by record #5; this ruling treats it as present"). The request may name, in
  ``restored_by``, the rulings that brought units back (a rebuild the ledger does not read as
  one): a named ruling after the elimination that names the unit makes it a notice ``restored``
  instead, and the unit present from then on; a named ruling that brings back none of the request's
  eliminated units is refused (`RestoredByError`). The recorded-check path refuses an eliminated
  unit where the rules make the request impossible (attacking or defending: `adjudicator.rulings`);
* a unit named at a step or strength other than the one a ruling left it at: notice ``step``;
* the same check, asked by the same side with the same request (``request_id`` and
  ``log_session`` aside), after a ruling of it that no later ruling changed any of the request's
  units since: notice ``repeat`` ("asked again: the same situation as record #1").

A notice is an object — ``kind``, ``record`` (the record it refers to), ``text``, and for a unit
``unit`` and where the request puts it (``hex``) — stored in the ruling's result (`notices`), so
the record's hash and signature cover it and every rendering of the record shows it; one naming a
unit the fog of war hides is sealed like every other hidden part (`adjudicator.fog`).

A placeholder a ruling reveals (KWB's '? 4' Scratch Units, `adjudicator.ledger.draws`) is no unit of the
board: the counter it turned out to be comes into play, at full strength until a change says
otherwise (a Dummy eliminated at once); a later request naming the placeholder again is settled as
the same counter (`adjudicator.ledger.draws`), without a notice.

A ruling's own changes to a unit it was noticed as eliminated are not folded (the ledger keeps it
eliminated, and the next ruling naming it gets the same notice); an echo of a unit's state the
request gave (a defender shown as it stood) is no change. Units are read from objects with a
``unit`` (or ``block``) key, in requests as in outcomes.

This module is a leaf over the records: the verifier (`adjudicator.ledger.verify`) folds an exported
ledger with it to re-derive each record's notices.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator

from adjudicator.canonical import canonical_digest
from adjudicator.request_units import stated_units
from adjudicator.words.names import UnitNames
from adjudicator.unit_changes import (
    BROKEN_DOWN, ELIMINATED, GONE_STEPS, MOVED, RECOMBINED, REPLACED, RETURNED, REVEALED, STEP, canonical_outcome, state_changes,
    step_name,
)
from adjudicator.unit_owners import owners_of

ELIMINATED_NOTICE, STEP_NOTICE, RESTORED_NOTICE, REPEAT_NOTICE = "eliminated", "step", "restored", "repeat"
#: The request member naming the rulings that brought units back (a list of record numbers).
RESTORED_BY = "restored_by"
#: The request members that do not make a situation (the same request asked again is the same).
NOT_SITUATION = ("request_id", "log_session")


@dataclass(frozen=True)
class Notice:
    """Something a ruling's request says that the ledger contradicts or has seen before."""

    kind: str
    record: int
    text: str
    unit: str = ""
    hex: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "record": self.record, "text": self.text}
        if self.unit:
            out["unit"] = self.unit
        if self.hex:
            out["hex"] = self.hex
        return out

    def key(self) -> tuple[str, int, str]:
        """What the verifier compares (the text follows the counters' names, which data may rename)."""
        return self.kind, self.record, self.unit


@dataclass
class UnitState:
    """A unit as the ledger's rulings left it: out of play, or at a step or strength."""

    eliminated: bool = False
    step: str | None = None
    sp: int | None = None
    by: int = 0  # the record that left it so
    set_aside: bool = False  # out of play as a breakdown or a recombination leaves it (SPI), not eliminated


class RestoredByError(ValueError):
    """`restored_by` names a ruling that brought back none of the request's eliminated units."""

    def __init__(self, detail: str):
        super().__init__(detail)
        self.detail = detail


@dataclass(frozen=True)
class Claim:
    """A unit a request names, with the state it gives (None: not said) and its hex."""

    unit: str
    step: str | None
    sp: int | None
    present: bool
    hex: str = ""


@dataclass
class Derived:
    """What the ledger says of a ruling's request: its notices, the units it treats as present
    that the ledger eliminated (its changes to them are not folded), and those `restored_by`
    brought back."""

    notices: list[Notice] = field(default_factory=list)
    kept_eliminated: set[str] = field(default_factory=set)
    restored: set[str] = field(default_factory=set)
    situation: str = ""  # the request's situation digest (`situation_digest`)
    #: The units the request names, each with the state it gives (`_claims`; the last object naming a
    #: unit counts): read once by `derive`, folded with the record by `fold`. None: not read yet.
    stated: dict[str, Claim] | None = None

    def eliminated_units(self) -> list[Notice]:
        return [n for n in self.notices if n.kind == ELIMINATED_NOTICE]


class LedgerBoard:
    """A game's units as its rulings left them, folded record by record (`fold`)."""

    def __init__(self, system: str):
        self.system = system
        self.names = UnitNames.of(system)
        self.owners = owners_of(system)
        self.units: dict[str, UnitState] = {}
        self.last_changed: dict[str, int] = {}  # unit -> the last record that changed it
        self.situations: dict[str, int] = {}  # situation digest -> the last record asking it
        self.mentions: dict[int, set[str]] = {}  # record -> the units it names (request or outcome)
        self.head = 0  # the last record folded

    # -- reading a request ---------------------------------------------------------------------------

    def derive(self, seq: int, check: str, request: dict[str, Any], side: str | None) -> Derived:
        """The notices of a ruling `seq` asking `check` with `request` (full values) for `side`,
        against the records folded so far. Raises `RestoredByError` for a bad `restored_by`."""
        out = Derived(stated=_stated(request))
        restoring = _record_numbers(request.get(RESTORED_BY))
        used: set[int] = set()
        for claim in out.stated.values():
            state = self.units.get(claim.unit)
            if state is None:
                continue
            name = self.names.name(claim.unit)
            if state.eliminated and claim.present:
                back = next((k for k in restoring if state.by < k < seq and claim.unit in self.mentions.get(k, ())), None)
                if back is not None:
                    used.add(back)
                    out.restored.add(claim.unit)
                    out.notices.append(Notice(RESTORED_NOTICE, back, f"{name}, eliminated by record #{state.by}, is "
                                              f"back by record #{back} (as this request says)", claim.unit, claim.hex))
                    continue
                out.kept_eliminated.add(claim.unit)
                how = "set aside (broken down or recombined)" if state.set_aside else "eliminated"
                out.notices.append(Notice(ELIMINATED_NOTICE, state.by, f"{name} was {how} by record #{state.by}; "
                                          "this ruling treats it as present", claim.unit, claim.hex))
            elif not state.eliminated and claim.present:
                text = self._step_text(claim, state, name)
                if text:
                    out.notices.append(Notice(STEP_NOTICE, state.by, text, claim.unit, claim.hex))
        unused = [k for k in restoring if k not in used]
        if unused:
            raise RestoredByError(
                f"record{'s' if len(unused) > 1 else ''} #{', #'.join(map(str, unused))} brought back none of the units "
                "this request names that the ledger eliminated (a record after the elimination that names the unit)")
        out.situation = situation_digest(check, request, side)
        repeat = self._repeat_of(out.situation, out.stated.keys())
        if repeat is not None:
            out.notices.append(Notice(REPEAT_NOTICE, repeat, f"asked again: the same situation as record #{repeat}"))
        return out

    def read_to_fold(self, body: dict[str, Any]) -> Derived | None:
        """What `fold` takes of `derive` for a record whose notices no one reads here (a kept board
        catching up with another process's record: that process answered them): the units its
        request names and its situation, when it names no unit present that the board has
        eliminated and no ruling in `restored_by` (so none of its changes is held back, no unit
        brought back); None when `derive` must decide."""
        check = str(body.get("check", ""))
        request = body.get("request") if isinstance(body.get("request"), dict) else {}
        if check.startswith("game.") or _record_numbers(request.get(RESTORED_BY)):
            return None
        stated = _stated(request)
        for claim in stated.values():
            state = self.units.get(claim.unit)
            if state is not None and state.eliminated and claim.present:
                return None
        return Derived(situation=situation_digest(check, request, body.get("side")), stated=stated)

    def _step_text(self, claim: Claim, state: UnitState, name: str) -> str:
        if claim.sp is not None and state.sp is not None and claim.sp != state.sp:
            return f"{name} was left at {state.sp} SP by record #{state.by}; this ruling treats it at {claim.sp} SP"
        asked, left = self._step(claim.unit, claim.step), self._step(claim.unit, state.step)
        if claim.step is not None and state.step is not None and asked != left:
            return f"{name} was left {left} by record #{state.by}; this ruling treats it as {asked}"
        return ""

    def _step(self, unit: str, step: str | None) -> str | None:
        """A step's name, "" and "full" read as the unit's first step (the one lookup,
        `adjudicator.piece_actions.step_name`; a name its counter does not have stays as said)."""
        if step is None:
            return None
        return step_name(self.owners.steps_of(unit), step, None) or step

    def _repeat_of(self, situation: str, units: Iterable[str]) -> int | None:
        earlier = self.situations.get(situation)
        if earlier is None or any(self.last_changed.get(u, 0) > earlier for u in units):
            return None
        return earlier

    # -- folding a record ----------------------------------------------------------------------------

    def fold(self, seq: int, body: dict[str, Any], derived: Derived | None = None, ordered: bool = False) -> Derived:
        """Take record `seq` (its body with full values) into the board; returns what it derived
        (`derived`: what `derive` said of its request just before, when the caller has it).
        `ordered`: the body's objects have their keys in the ledger's order already (read from a
        stored record's canonical JSON, nothing put back into it), so its outcome is not sorted again."""
        self.head = max(self.head, seq)
        check = str(body.get("check", ""))
        if check.startswith("game."):
            return Derived()
        request = body.get("request") if isinstance(body.get("request"), dict) else {}
        if derived is None:
            try:
                derived = self.derive(seq, check, request, body.get("side"))
            except RestoredByError:  # the server refuses these; a ledger holding one was written otherwise
                derived = Derived(situation=situation_digest(check, request, body.get("side")))
        result = body.get("result") if isinstance(body.get("result"), dict) else {}
        for unit in derived.restored:
            self.units[unit] = UnitState(by=seq)
            self.last_changed[unit] = seq
        stated = derived.stated if derived.stated is not None else _stated(request)
        outcome = (result.get("outcome") or {}) if ordered else canonical_outcome(result)
        for change in state_changes(outcome):  # who makes each and how, and the orders: not the board's to know
            if change.unit in derived.kept_eliminated:
                continue
            self._apply(seq, change, stated.get(change.unit))
        self.mentions[seq] = set(stated) | set(_mentioned(result.get("outcome")))
        self.situations[derived.situation] = seq
        return derived

    def _apply(self, seq: int, change, stated: Claim | None) -> None:
        if change.kind == STEP:
            if stated is not None and self._echo(change, stated):
                return
            self._set(change.unit, UnitState(step=change.step, sp=change.sp, by=seq), seq)
        elif change.kind in (ELIMINATED, REPLACED):
            self._set(change.unit, UnitState(eliminated=True, by=seq), seq)
            for placed in change.replacements:
                self._set(placed.unit, UnitState(step=placed.step, sp=placed.sp, by=seq), seq)
        elif change.kind == REVEALED:  # the counter is in play; the placeholder is no unit (draws settle it again)
            self._set(change.revealed_as, UnitState(by=seq), seq)
        elif change.kind in (MOVED, RETURNED):
            was = self.units.get(change.unit)
            keep = was if was is not None and not was.eliminated else UnitState()
            step = change.step if change.kind == MOVED and change.step is not None else keep.step
            self._set(change.unit, UnitState(step=step, sp=keep.sp, by=seq), seq)
        elif change.kind == BROKEN_DOWN:  # set aside; its parts in play, those lost at once eliminated
            self._set(change.unit, UnitState(eliminated=True, set_aside=True, by=seq), seq)
            for placed in change.replacements:
                self._set(placed.unit, UnitState(by=seq), seq)
            for lost in change.lost:
                self._set(lost, UnitState(eliminated=True, by=seq), seq)
        elif change.kind == RECOMBINED:  # the whole in play, its parts set aside
            self._set(change.unit, UnitState(by=seq), seq)
            for part in change.parts:
                self._set(part, UnitState(eliminated=True, set_aside=True, by=seq), seq)

    def _echo(self, change, stated: Claim) -> bool:
        """The outcome shows the unit as the request gave it: no change."""
        if change.sp is not None:
            return stated.sp == change.sp
        return stated.step is not None and self._step(change.unit, stated.step) == self._step(change.unit, change.step)

    def _set(self, unit: str, state: UnitState, seq: int) -> None:
        self.units[unit] = state
        self.last_changed[unit] = seq


def situation_digest(check: str, request: dict[str, Any], side: str | None) -> str:
    """What makes two requests the same situation: the check, the side and the request without
    its id and log session (the digest the store keeps of each record, `request_digest`)."""
    situation = {key: value for key, value in request.items() if key not in NOT_SITUATION}
    return canonical_digest({"check": check, "request": situation, "side": side})


# -- reading units out of requests and outcomes --------------------------------------------------------

def _stated(request: Any) -> dict[str, Claim]:
    """Each unit a request names -> its claim (the last object naming it counts)."""
    return {claim.unit: claim for claim in _claims(request)}


def _claims(request: Any) -> Iterator[Claim]:
    """The units a request names in objects with ``unit`` (or ``block``), with their state
    (`adjudicator.request_units`)."""
    for said in stated_units(request):
        gone = said.eliminated or said.step in GONE_STEPS or said.sp == 0
        yield Claim(said.unit, None if gone else said.step, None if gone else said.sp, not gone, said.hex)


def _mentioned(outcome: Any) -> Iterator[str]:
    """Every unit an outcome names (objects' ``unit``/``block``, and ids listed in its lists)."""
    if isinstance(outcome, list):
        for item in outcome:
            if isinstance(item, str):
                yield item
            else:
                yield from _mentioned(item)
    elif isinstance(outcome, dict):
        for key in ("unit", "block"):
            if isinstance(outcome.get(key), str):
                yield outcome[key]
        for key, value in outcome.items():
            if isinstance(value, (dict, list)):
                yield from _mentioned(value)
            elif key in ("rebuilt", "division") and isinstance(value, str):
                yield value


def _record_numbers(value: Any) -> list[int]:
    if not isinstance(value, list):
        return []
    return [v for v in value if isinstance(v, int) and not isinstance(v, bool)]

