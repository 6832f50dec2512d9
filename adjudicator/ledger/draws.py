"""Draws nobody may see, settled by the adjudicator (docs/draws.md).

Korean War Battles 12.21: the Communist player sets up his twelve Scratch Units "face up (? 4) ...
He selects them randomly and may not peek at them ... When the hex containing a scratch unit is
attacked, turn the unit face up". Drawn inside VASSAL, the owner could look (the module would have to
show him his own pieces) and, in play by e-mail, reload until a draw suits him. So the data makes such
a pool *sealed* (`Box.placeholders`): the module shows its pieces as identical placeholder counters,
and which counter each one is belongs to the adjudicator:

- `commit`, when a recorded game is created: each sealed pool of its scenario is shuffled (the
  operating system's CSPRNG) and kept as a hidden part of record 0, seen by no one
  (`adjudicator.fog.NO_ONE`); record 0 carries its salted commitment and, in the open, the pool's
  counters and placeholders (`sealed_draws`).
- `settle`, when a ruling is recorded: each placeholder a check reveals (the rules register which
  request fields reveal, `register_reveal`: KWB's combat reveals its defenders) gets `revealed_as`,
  the counter an earlier record showed it to be, else the next counter of the order that no record
  has revealed. A retried request id is settled against the ledger as it stood when it was first
  recorded, so it gets the same counter; a counter still sealed that a request names is refused.
- `check_reveals`, after close: the closing record publishes the order with every hidden part, and
  each revealed counter must be the order's next one (`adjudicator.ledger.verify`).

A calculation (no recorded game) takes `revealed_as` from the player, who drew a physical counter.
This module is a leaf: the rules packages register into it; it reads no storage.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable

from adjudicator.fog import HIDDEN, NO_ONE, Part, commitment_of
from adjudicator.request_units import unit_objects, unit_of

#: The request key that names the counter a placeholder was revealed to be.
REVEALED_AS = "revealed_as"
#: The key of record 0's result listing the sealed pools.
SEALED_DRAWS = "sealed_draws"


@dataclass(frozen=True)
class Reveal:
    """A request field (a list of unit objects) whose placeholders a check reveals, and the rule."""

    field: str
    rule: str


_REVEALS: dict[tuple[str, str], Reveal] = {}


def register_reveal(system: str, check: str, field_name: str, rule: str) -> Reveal:
    """The rules of `system` say `check` reveals the placeholders in its request field `field_name`."""
    reveal = _REVEALS[(system, check)] = Reveal(field_name, rule)
    return reveal


def reveal_of(system: str, check: str) -> Reveal | None:
    return _REVEALS.get((system, check))


# -- at creation ------------------------------------------------------------------------------------

def shuffled(counters: list[str]) -> list[str]:
    """The counters in an order no one can predict (the CSPRNG `secrets` draws from)."""
    order = list(counters)
    secrets.SystemRandom().shuffle(order)
    return order


def commit(system: str, scenario: str,
           shuffle: Callable[[list[str]], list[str]] | None = None) -> tuple[list[dict[str, Any]], list[Part]]:
    """What record 0 of a new game says of its sealed pools, and their orders as hidden parts.

    `shuffle` is the draw (`shuffled` unless a test passes its own order)."""
    game = _game(system)
    if game is None or scenario not in game.scenarios:
        return [], []
    from scenarios.pools import placeholders, sealed_pools

    public, parts = [], []
    for box_id, counters in sealed_pools(game, game.scenarios[scenario]).items():
        box = game.boxes[box_id]
        order = (shuffle or shuffled)(counters)
        if sorted(order) != sorted(counters):
            raise ValueError(f"the draw of {box_id} is not an order of its counters")
        salt = secrets.token_hex(16)
        value = {"pool": box_id, "order": order}
        part = Part(commitment_of(salt, value), NO_ONE, salt, value)
        parts.append(part)
        public.append({"pool": box_id, "name": box.name, "rule": str(box.source),
                       "counters": sorted(counters), "placeholders": placeholders(game, box)[:len(counters)],
                       HIDDEN: part.commitment})
    return public, parts


def _game(system: str):
    from scenarios import DataError, game_ids, load_game

    if system not in game_ids():
        return None
    try:
        return load_game(system)
    except DataError:
        return None


@lru_cache(maxsize=None)
def has_sealed_pools(system: str, scenario: str) -> bool:
    """Whether a game of this scenario has sealed pools (so its rulings need settling). Cached: a
    worker reads the data once (docs/data-format.md, a running server)."""
    game = _game(system)
    if game is None or scenario not in game.scenarios:
        return False
    from scenarios.pools import sealed_pools

    return bool(sealed_pools(game, game.scenarios[scenario]))


# -- reading the ledger ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Pool:
    """One sealed pool as record 0 states it, with its order when it is known (server side, or after close)."""

    pool: str
    rule: str
    counters: tuple[str, ...]
    placeholders: tuple[str, ...]
    commitment: str
    order: tuple[str, ...] = ()

    @classmethod
    def from_json(cls, data: dict[str, Any], order: list[str] | None = None) -> "Pool":
        return cls(str(data.get("pool", "")), str(data.get("rule", "")), tuple(data.get("counters") or ()),
                   tuple(data.get("placeholders") or ()), str(data.get(HIDDEN, "")), tuple(order or ()))


def pools_of(genesis: dict[str, Any], orders: dict[str, list[str]] | None = None) -> list[Pool]:
    """The sealed pools record 0's body states; `orders` (commitment -> order) where known."""
    result = genesis.get("result") if isinstance(genesis.get("result"), dict) else {}
    entries = result.get(SEALED_DRAWS) if isinstance(result.get(SEALED_DRAWS), list) else []
    return [Pool.from_json(e, (orders or {}).get(e.get(HIDDEN))) for e in entries if isinstance(e, dict)]


def orders_of(parts: list[Part]) -> dict[str, list[str]]:
    """commitment -> order, of record 0's hidden parts."""
    return {p.commitment: list(p.value["order"]) for p in parts
            if isinstance(p.value, dict) and isinstance(p.value.get("order"), list)}


@dataclass
class Revealed:
    """What the ledger has revealed of the sealed pools: placeholder -> (counter, record), in order."""

    shown: dict[str, tuple[str, int]] = field(default_factory=dict)

    def counters(self) -> set[str]:
        return {counter for counter, _ in self.shown.values()}


def revealed_in(records: list[tuple[int, dict[str, Any]]], pools: list[Pool]) -> Revealed:
    """Each placeholder's counter as the records (seq, body) reveal it, the first reveal of each."""
    placeholders = {p for pool in pools for p in pool.placeholders}
    found = Revealed()
    for seq, body in records:
        for unit in unit_objects(body.get("request")):
            if (unit_id := unit_of(unit)) in placeholders and isinstance(unit.get(REVEALED_AS), str):
                found.shown.setdefault(unit_id, (unit[REVEALED_AS], seq))
    return found


# -- settling a request ----------------------------------------------------------------------------

class Refused(ValueError):
    """A request that asks what the sealed pools do not allow (the service answers 422)."""


def settle(system: str, check: str, request: dict[str, Any], pools: list[Pool],
           records: list[tuple[int, dict[str, Any]]]) -> dict[str, Any]:
    """`request` with `revealed_as` filled for each placeholder the check reveals: what an earlier
    record showed it to be, else the next counter of its pool's order not yet revealed. `records`
    are the ledger before this request (seq, body). Refused: a counter still sealed named as a unit,
    a `revealed_as` the player gave for a placeholder not revealed yet, or one that contradicts the
    ledger."""
    revealed = revealed_in(records, pools)
    by_placeholder = {p: pool for pool in pools for p in pool.placeholders}
    sealed = {c for pool in pools for c in pool.counters} - revealed.counters()
    reveal = reveal_of(system, check)
    out = _copy(request)
    fields = (reveal.field,) if reveal else ()
    for name in out:
        for unit in unit_objects(out[name]):
            _settle_unit(unit, name in fields, by_placeholder, revealed)
    named = sorted(_strings(request) & sealed)
    if named:
        raise Refused(f"{', '.join(named)}: no ruling has revealed {'it' if len(named) == 1 else 'them'}; nobody has "
                      "seen which face-down piece is which. Name the piece the board shows instead.")
    return out


def _strings(node: Any) -> set[str]:
    if isinstance(node, dict):
        return set().union(*(_strings(v) for v in node.values())) if node else set()
    if isinstance(node, list):
        return set().union(*(_strings(v) for v in node)) if node else set()
    return {node} if isinstance(node, str) else set()


def _settle_unit(unit: dict[str, Any], reveals: bool, by_placeholder: dict[str, Pool], revealed: Revealed) -> None:
    unit_id, given = unit_of(unit), unit.get(REVEALED_AS)
    pool = by_placeholder.get(unit_id)
    if pool is None:
        return
    known = revealed.shown.get(unit_id)
    if known is not None:
        if given not in (None, known[0]):
            raise Refused(f"{unit_id} was revealed as {known[0]} by record {known[1]}, not {given}.")
        if reveals or given is not None:
            unit[REVEALED_AS] = known[0]
        return
    if given is not None:
        raise Refused(f"{unit_id} has not been revealed: which counter it is, the adjudicator draws when the rules "
                      f"reveal it ({pool.rule}); leave {REVEALED_AS} out.")
    if not reveals:
        return
    taken = revealed.counters()
    following = [c for c in pool.order if c not in taken]
    if not following:
        raise Refused(f"{unit_id}: every counter of {pool.pool} has been revealed already.")
    unit[REVEALED_AS] = following[0]
    revealed.shown[unit_id] = (following[0], -1)


def _copy(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _copy(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_copy(v) for v in node]
    return node


def unrevealed(system: str, check: str, request: dict[str, Any], pools: list[Pool],
               records: list[tuple[int, dict[str, Any]]]) -> list[str]:
    """The placeholders in the fields `check` reveals that no record has revealed yet: a question
    asked before the ruling (its chances) cannot be answered without drawing them."""
    reveal = reveal_of(system, check)
    if reveal is None:
        return []
    revealed = revealed_in(records, pools)
    placeholders = {p for pool in pools for p in pool.placeholders}
    named = [unit_of(u) for u in unit_objects(request.get(reveal.field))]
    return [u for u in named if u in placeholders and u not in revealed.shown]


# -- after close -----------------------------------------------------------------------------------

def check_reveals(records: list[tuple[int, dict[str, Any]]], orders: dict[str, list[str]]) -> list[tuple[int | None, str]]:
    """Problems (seq, message) with the sealed pools of a closed game's ledger (seq, body, oldest
    first): each order revealed, an order of the pool's counters, and every placeholder revealed as
    the next counter of its pool's order when first revealed, as the same counter after that."""
    if not records:
        return []
    problems: list[tuple[int | None, str]] = []
    pools = pools_of(records[0][1], orders)
    for pool in pools:
        if not pool.order:
            problems.append((0, f"the order of sealed pool {pool.pool} is not revealed by the closing record"))
        elif sorted(pool.order) != sorted(pool.counters):
            problems.append((0, f"the revealed order of {pool.pool} is not an order of its counters"))
    by_placeholder = {p: pool for pool in pools if pool.order for p in pool.placeholders}
    drawn: dict[str, int] = {pool.pool: 0 for pool in pools}
    first: dict[str, str] = {}
    for seq, body in records[1:]:
        for unit in unit_objects(body.get("request")):
            unit_id = unit_of(unit)
            pool = by_placeholder.get(unit_id)
            counter = unit.get(REVEALED_AS)
            if pool is None or not isinstance(counter, str):
                continue
            if unit_id in first:
                if counter != first[unit_id]:
                    problems.append((seq, f"{unit_id} is revealed as {counter}, but earlier as "
                                          f"{first[unit_id]}"))
                continue
            position = drawn[pool.pool]
            expected = pool.order[position] if position < len(pool.order) else None
            if counter != expected:
                problems.append((seq, f"{unit_id} is revealed as {counter}; draw {position + 1} of the "
                                      f"committed order of {pool.pool} is {expected}"))
            first[unit_id] = counter
            drawn[pool.pool] = position + 1
    return problems
