"""What a recorded game's own ledger and scenario establish: facts no player states again.

The Pusan Perimeter opens with the UN supply shortage in force (KWB 12.1.1) and it ends only by
the UN's end-of-turn roll; a recorded game holds that roll. So in a recorded game the shortage is
not a box a player ticks: it is read from the scenario and the ledger, filled in where a request
leaves it out, and a request that says otherwise is refused with the record that decides it.

A rules package registers a *facts* function per system: (the scenario id, the game's ledger
records as (seq, body), oldest first) -> `GameFacts`. The recorded-check path (`adjudicator.rulings.
bind`) applies them; the roll pages start their forms from them.

A check that settles an earlier ruling (Fire and Ice's combat losses settle a combat: 5.6 "The loser
of the combat must fulfill the spread as losses") registers a *follow-up* for that check: (the
ledger, the request as asked) -> what the ruling it follows establishes (the spread, the units that
fought), so the player never types again what the ledger holds; a request naming a ruling it cannot
follow is refused (`Refused`). This module is a leaf.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable


def _always(request: dict[str, Any]) -> bool:
    return True


@dataclass(frozen=True)
class Fact:
    """A request field's value in this game, and why (with the rule and the record).

    `applies` says whether the fact bears on a given request (e.g. only on the UN's own
    bombardments); by default on every request with the field."""

    value: Any
    why: str
    applies: Callable[[dict[str, Any]], bool] = _always
    #: A list the request's own must contain (the player may add to it, never leave one out).
    includes: bool = False
    #: What a form may show the asking player of `value` where the fog of war hides part of it
    #: (None: all of it); the recorded request still takes the whole value, sealed as the fog says.
    shown: Any = None

    @property
    def shown_value(self) -> Any:
        return self.value if self.shown is None else self.shown


@dataclass
class GameFacts:
    #: Request field name -> its value in this game (applied to every check that has the field).
    values: dict[str, Fact] = field(default_factory=dict)
    #: Check name -> why it cannot be asked any more in this game (e.g. a roll that has done its work).
    closed_checks: dict[str, str] = field(default_factory=dict)


#: (scenario id, the ledger as (seq, record body) pairs, oldest first) -> the game's facts.
FactsFunction = Callable[[str, list[tuple[int, dict[str, Any]]]], GameFacts]

_FACTS: dict[str, tuple[FactsFunction, frozenset[str], frozenset[str]]] = {}


def register_facts(system: str, fields: tuple[str, ...], checks: tuple[str, ...] = ()):
    """Register `function` as `system`'s facts; `fields` are the request fields it may fill and
    `checks` the checks it may close (so a check with neither needs no ledger read)."""
    def decorator(function: FactsFunction) -> FactsFunction:
        _FACTS[system] = (function, frozenset(fields), frozenset(checks))
        return function
    return decorator


#: (scenario id, the ledger as (seq, record body with its hidden parts) pairs, oldest first, the
#: ledger's board folded from them, the asking side) -> the facts of one check's request.
LedgerFactsFunction = Callable[[str, list[tuple[int, dict[str, Any]]], Any, "str | None"], GameFacts]

_LEDGER_FACTS: dict[tuple[str, str], LedgerFactsFunction] = {}


def register_ledger_facts(system: str, *checks: str):
    """Register `function` as what the ledger's board establishes for `system`'s `checks` (a
    victory check: the units the rulings eliminated, the VP they gave)."""
    def decorator(function: LedgerFactsFunction) -> LedgerFactsFunction:
        for check in checks:
            _LEDGER_FACTS[(system, check)] = function
        return function
    return decorator


def ledger_facts_of(system: str, check: str) -> LedgerFactsFunction | None:
    return _LEDGER_FACTS.get((system, check))


@dataclass(frozen=True)
class GameResult:
    """Who won a game and how, as a victory ruling states it (`winner` None: a draw or a tie)."""

    winner: str | None
    result: str
    record: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "result": self.result, "record": self.record}


#: (the victory ruling's request, its outcome) -> the game's result, or None when the ruling
#: decides nothing yet (a VP track moved with no check, no automatic victory before the last turn).
ResultFunction = Callable[[dict[str, Any], dict[str, Any]], "GameResult | None"]

_RESULTS: dict[tuple[str, str], ResultFunction] = {}


def register_result(system: str, check: str):
    """Register how a ruling of `system`'s `check` reads as the game's result."""
    def decorator(function: ResultFunction) -> ResultFunction:
        _RESULTS[(system, check)] = function
        return function
    return decorator


def result_checks(system: str) -> list[str]:
    """The checks of `system` whose rulings name the game's result (its victory checks)."""
    return sorted(check for s, check in _RESULTS if s == system)


def result_of(system: str, check: str, request: dict[str, Any], outcome: dict[str, Any], seq: int) -> GameResult | None:
    """The game's result a ruling states (None: not a victory ruling, or one that decides nothing)."""
    function = _RESULTS.get((system, check))
    found = function(request, outcome) if function else None
    return GameResult(found.winner, found.result, seq) if found else None


#: (the ledger as (seq, record body) pairs, oldest first; the request as asked) -> what the ruling
#: it follows establishes for it.
FollowUpFunction = Callable[[list[tuple[int, dict[str, Any]]], dict[str, Any]], GameFacts]

_FOLLOW_UPS: dict[tuple[str, str], FollowUpFunction] = {}


class Refused(ValueError):
    """A request names an earlier ruling it cannot follow (not one, or already followed): 422 at `pointer`."""

    def __init__(self, pointer: str, detail: str):
        super().__init__(detail)
        self.pointer = pointer
        self.detail = detail


def register_follow_up(system: str, check: str):
    """Register `function` as what `system`'s `check` reads from the ruling it follows."""
    def decorator(function: FollowUpFunction) -> FollowUpFunction:
        _FOLLOW_UPS[(system, check)] = function
        return function
    return decorator


def follow_up_of(system: str, check: str) -> FollowUpFunction | None:
    return _FOLLOW_UPS.get((system, check))


#: (scenario id, the ledger as (seq, record body) pairs, oldest first, the side asking (None: the
#: observer)) -> why the check is not offered to that side now, in players' words (None: it is).
NotYetFunction = Callable[[str, list[tuple[int, dict[str, Any]]], "str | None"], "str | None"]

_NOT_YET: dict[tuple[str, str], NotYetFunction] = {}


def register_offered_once(system: str, check: str):
    """Register `function` as what `system`'s `check` waits for before a recorded game's menus and
    lists offer it to a side: an event of the game its rules require first (Fire and Ice's Atomic
    Strike after a successful Atomic Release, 10.3.4; a combat's losses to the side that lost it,
    5.6), or one after which it is not asked again (an intervention roll once the intervention
    happened, 12.2.1). Asked anyway, the check answers as it always did: its own validation stays
    the judge."""
    def decorator(function: NotYetFunction) -> NotYetFunction:
        _NOT_YET[(system, check)] = function
        return function
    return decorator


def waiting_checks(system: str, scenario: str, checks: list[str],
                   records: Callable[[], list[tuple[int, dict[str, Any]]]], side: str | None) -> dict[str, str]:
    """Of `checks`, those the game does not offer `side` now -> why; `records` is read only when
    one of them waits for something."""
    waiting = [(name, _NOT_YET[(system, name)]) for name in checks if (system, name) in _NOT_YET]
    if not waiting:
        return {}
    ledger = records()
    return {name: why for name, function in waiting if (why := function(scenario, ledger, side)) is not None}


def concerns(system: str, check: str, field_names) -> bool:
    """Whether `system`'s facts may bear on a check with these request fields."""
    entry = _FACTS.get(system)
    return entry is not None and (check in entry[2] or bool(entry[1] & set(field_names)))


def facts_of(system: str, scenario: str, records: list[dict[str, Any]]) -> GameFacts:
    entry = _FACTS.get(system)
    return entry[0](scenario, records) if entry else GameFacts()
