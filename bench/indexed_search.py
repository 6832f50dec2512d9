"""A proposal, measured by the supply benchmark: Dijkstra over hex *numbers* instead of Hex objects.

``scenarios.hexgrid.search`` spends most of its time outside the search itself:
recomputing neighbours through cube coordinates (dataclass arithmetic and
hashing) for every hex it settles, and building ``Hexside`` objects to price
every step.  Both depend only on the map, so they can be computed once per map:

* ``MapIndex`` numbers the map's hexes 0..n-1 and stores, per hex, its
  neighbours with the static cost of stepping into each (terrain, road rate
  along roads, river hexsides) — built once, kept with the loaded map;
* ``indexed_search`` then runs on ints and floats only; what changes per trace
  (enemy units, ZoC) is a ``bytearray`` of blocked hexes.

Kept here, next to the benchmark that measures it against the current search,
so the owner of ``scenarios/hexgrid.py`` can adopt it with the numbers in hand.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from typing import Callable, Iterable

from scenarios.hexgrid import Hex, HexGrid


@dataclass
class MapIndex:
    hexes: list[Hex]
    number: dict[Hex, int]
    #: per hex: ((neighbour number, static cost of stepping into it from this hex), ...)
    edges: list[tuple[tuple[int, float], ...]]

    @classmethod
    def build(cls, grid: HexGrid, hexes: Iterable[Hex], step_cost: Callable[[Hex, Hex], float | None]) -> "MapIndex":
        """Number `hexes`; keep each allowed step a -> b with `step_cost(a, b)` (None = never allowed)."""
        ordered = sorted(hexes)
        number = {h: i for i, h in enumerate(ordered)}
        edges = []
        for h in ordered:
            out = []
            for n in grid.neighbours(h):
                j = number.get(n)
                if j is None:
                    continue
                cost = step_cost(h, n)
                if cost is not None:
                    out.append((j, cost))
            edges.append(tuple(out))
        return cls(ordered, number, edges)

    def reversed(self) -> "MapIndex":
        """The same map with every step priced the other way (for traces run from the source outward)."""
        incoming: list[list[tuple[int, float]]] = [[] for _ in self.hexes]
        for i, out in enumerate(self.edges):
            for j, cost in out:
                incoming[j].append((i, cost))
        return MapIndex(self.hexes, self.number, [tuple(e) for e in incoming])


def indexed_search(index: MapIndex, sources: Iterable[int], blocked: bytearray,
                   max_cost: float = math.inf) -> list[float]:
    """Cheapest cost from any source to every hex (inf where unreached); `blocked[j]` = may not enter j."""
    cost = [math.inf] * len(index.hexes)
    frontier = [(0.0, s) for s in sources]
    heapq.heapify(frontier)
    edges = index.edges
    pop, push = heapq.heappop, heapq.heappush
    while frontier:
        c, i = pop(frontier)
        if c >= cost[i]:
            continue
        cost[i] = c
        for j, step in edges[i]:
            nc = c + step
            if nc <= max_cost and nc < cost[j] and not blocked[j]:
                push(frontier, (nc, j))
    return cost
