"""The index-based search as the supply benchmark's stand-in trace uses it.

The search itself now lives in the library: ``scenarios.hexgrid.HexIndex`` numbers a grid's hexes once
(kept per grid by ``hex_index``) and ``search_indexed`` runs Dijkstra on hex numbers with step costs
priced in advance.  What is left here is the benchmark's own framing: a ``MapIndex`` of one map's
hexes with the static cost of every step (terrain, road rate along roads, river hexsides) - built
once, kept with the loaded map - and ``indexed_search``, whose only per-trace input is a
``bytearray`` of blocked hexes (enemy units, ZoC).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Iterable

from scenarios.hexgrid import Edges, Hex, HexGrid, HexIndex, hex_index, search_indexed


@dataclass
class MapIndex:
    index: HexIndex
    #: per hex number: ((neighbour number, static cost of stepping into it from this hex), ...)
    edges: Edges

    @property
    def hexes(self) -> tuple[Hex, ...]:
        return self.index.hexes

    @property
    def number(self) -> dict[Hex, int]:
        return self.index.number

    @classmethod
    def build(cls, grid: HexGrid, hexes: Iterable[Hex], step_cost: Callable[[Hex, Hex], float | None]) -> "MapIndex":
        """Keep each allowed step a -> b between two of `hexes` with `step_cost(a, b)` (None = never allowed)."""
        allowed = set(hexes)
        index = hex_index(grid)
        return cls(index, index.edges(lambda a, b: step_cost(a, b) if a in allowed and b in allowed else None))

    def reversed(self) -> "MapIndex":
        """The same map with every step priced the other way (for traces run from the source outward)."""
        incoming: list[list[tuple[int, float]]] = [[] for _ in self.hexes]
        for i, out in enumerate(self.edges):
            for j, cost in out:
                incoming[j].append((i, cost))
        return MapIndex(self.index, tuple(tuple(e) for e in incoming))


def indexed_search(index: MapIndex, sources: Iterable[int], blocked: bytearray,
                   max_cost: float = math.inf) -> list[float]:
    """Cheapest cost from any source to every hex (inf where unreached); `blocked[j]` = may not enter j."""
    return search_indexed(index.index, sources, index.edges, max_cost, blocked=blocked).cost
