"""The choices a roll call offers: which values to try, each with its exact probability.

A check asks for dice with `dice.roll(sides, count, purpose)`. To count its outcomes the odds
try every value that call can give, re-running the check once per combination. Tried face by
face, that is `sides ** count` runs per call; many calls need far fewer, because several faces do
the same thing (a d6 against a hit number of 5 has three kinds of face: a miss, a hit, a six that
also counts for something) or because the order of a pool's dice does not matter. An `Option` is
one value tuple to try and the exact probability of all the values it stands for.

The functions here build options from what a check's odds declaration (`adjudicator.odds.declare`)
knows; every face on its own (`every_face`) is the default and is always right. An option stands
for its faces only if the check does the same with each of them, as far as the outcome fields
the declaration compares go; the tests check every declaration against every face.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations_with_replacement, product
from math import factorial, prod
from typing import Any, Callable, Hashable, Sequence

#: A value tuple for one roll call (one value per die of the call) and its exact probability.
Option = tuple[tuple[int, ...], Fraction]

#: More options than this in one roll call are not listed: the call is too large to enumerate.
MAX_OPTIONS = 20_000


@dataclass(frozen=True)
class RollCall:
    """One `dice.roll` call as a check makes it, and the values of the calls before it."""

    sides: int
    count: int
    purpose: str
    before: tuple[tuple[int, ...], ...] = ()


def every_face(call: RollCall) -> list[Option] | None:
    """Every value tuple of the call, each equally likely; None when there are too many to list."""
    if call.sides ** call.count > MAX_OPTIONS:
        return None
    p = Fraction(1, call.sides ** call.count)
    return [(values, p) for values in product(range(1, call.sides + 1), repeat=call.count)]


def groups(sides: int, kind: Callable[[int], Hashable]) -> list[list[int]]:
    """Faces 1..sides grouped by what they do (`kind(face)`), in the order kinds first appear."""
    found: dict[Hashable, list[int]] = {}
    for face in range(1, sides + 1):
        found.setdefault(kind(face), []).append(face)
    return list(found.values())


def one_die(sides: int, kind: Callable[[int], Hashable]) -> list[Option]:
    """One die: the lowest face of each group stands for the group."""
    return [((group[0],), Fraction(len(group), sides)) for group in groups(sides, kind)]


def pool(call: RollCall, kind: Callable[[int], Hashable], ordered: bool = False) -> list[Option] | None:
    """A call of `count` dice whose faces do what `kind` says.

    Unordered (the default): the check counts the pool's dice and never asks which came first, so
    one option per multiset of kinds, with its multinomial probability. Ordered: one option per
    sequence of kinds (the check reads the dice in order). None when there are too many options.
    """
    grouped = groups(call.sides, kind)
    if ordered:
        if len(grouped) ** call.count > MAX_OPTIONS:
            return None
        return [(tuple(g[0] for g in seq), prod((Fraction(len(g), call.sides) for g in seq), start=Fraction(1)))
                for seq in product(grouped, repeat=call.count)]
    options = []
    for chosen in combinations_with_replacement(range(len(grouped)), call.count):
        counts = [chosen.count(i) for i in range(len(grouped))]
        arrangements = factorial(call.count) // prod(factorial(k) for k in counts)
        p = Fraction(arrangements) * prod((Fraction(len(grouped[i]), call.sides) ** k for i, k in enumerate(counts)),
                                          start=Fraction(1))
        options.append((tuple(grouped[i][0] for i in chosen), p))
        if len(options) > MAX_OPTIONS:
            return None
    return options


def draw(remaining: Sequence[Hashable], drawn: Sequence[Hashable], unordered: bool = False,
         still_to_draw: int = 0) -> list[Option]:
    """One draw without replacement: face f takes `remaining[f - 1]`, and equal items do the same.

    `drawn` are the items the earlier draws of the same series took. Unordered: the check keeps
    only which items were drawn, not in which order, so each multiset of items is tried once, in
    sorted order (an item may not sort before an earlier draw's, and must leave enough items not
    below it for the `still_to_draw` draws after this one), and weighted by the number of orders
    it could have been drawn in. Spread over the draws, that weight is j/t at the j-th draw of an
    item drawn for the t-th time: their product is n!/(k1!...km!).
    """
    sides = len(remaining)
    options = []
    last = max(drawn) if (unordered and drawn) else None
    for group in groups(sides, lambda face: remaining[face - 1]):
        item = remaining[group[0] - 1]
        p = Fraction(len(group), sides)
        if unordered:
            if last is not None and item < last:
                continue
            if sum(1 for other in remaining if other >= item) - 1 < still_to_draw:
                continue
            p *= Fraction(len(drawn) + 1, drawn.count(item) + 1)
        options.append(((group[0],), p))
    return options


def replay_draws(pool_items: Sequence[Hashable], faces: Sequence[int]) -> tuple[list, list]:
    """The pool after draws of `faces` (each face takes item face - 1 of what is left): (left, drawn)."""
    left = list(pool_items)
    drawn = [left.pop(face - 1) for face in faces]
    return left, drawn


def cup_draws(items: Callable[[Any], list], count: Callable[[Any], int]):
    """`count(request)` draws without replacement from the cup `items(request)`, where only which
    items were drawn counts (every roll call of the check is one of these draws)."""
    def options(request: Any, call: RollCall) -> list[Option] | None:
        left, drawn = replay_draws(items(request), [values[0] for values in call.before])
        return draw(left, drawn, unordered=True, still_to_draw=count(request) - len(drawn) - 1)
    return options
