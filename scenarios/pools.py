"""What each cup and random pool holds when a scenario starts.

A box with ``draw`` (a cup, a random pool) holds what the scenario's setup places in it, plus,
when the box ``holds`` something, every unit with that flag or every marker of that kind of the
box's side that the scenario does not use elsewhere: the combat chits of Fire and Ice's mugs,
its SNAFU markers and Objective markers, Korean War Battles' unnumbered regiments.  The module
generator turns each pool into a draw pile; the saved-game bridge finds those units there.

    pool_contents(game, game.scenarios["pusan"])
    # {"generic-pool-communist": ["nk-reg-1", ...], "support-fire-pool-un": ["marker:sf-un-1", ...]}

A box that is no pool may ``hold`` units too: those the scenario does not use lie in it face up
(`laid_faces`), as SPI's counters not in play wait for a breakdown to place them.

A pool with ``placeholders`` (KWB's Scratch Units: "He selects them randomly and may not peek at
them", 12.21) is *sealed*: nobody may know which counter is which until the rules reveal it, so
the module shows each of its pieces as one of the identical placeholder counters
(`shown_contents`) and the adjudicator draws the counters themselves (`sealed_pools`).
"""

from __future__ import annotations

from collections import Counter

from scenarios.model import Box, Game, Scenario

MARKER_PREFIX = "marker:"
#: Units that only ever stand in for a division (KWB 5.3.2 breakdown, 7.6 losses): a scenario's
#: pool holds them only for nationalities that field a division there or use them already.
DIVISIONAL = "divisional"


def pool_contents(game: Game, scenario: Scenario) -> dict[str, list[str]]:
    """Pool box id -> its contents in order: unit ids and ``marker:<id>`` entries (one per
    counter), the setup's own placements first, then what the box's ``holds`` adds."""
    pools = {box.id: [] for box in game.boxes.values() if box.draw}
    for placement in scenario.setup:
        box_id = placement.location[len("box:"):] if placement.location.startswith("box:") else ""
        if box_id in pools:
            pools[box_id].append(placement.unit)
    for box_id, contents in pools.items():
        box = game.boxes[box_id]
        if box.holds:
            contents += _held_units(game, scenario, box.holds, box.side)
            contents += _held_markers(game, scenario, box.holds, box.side)
    return pools


def placeholders(game: Game, box: Box) -> list[str]:
    """The identical counters the module shows for a sealed pool's pieces (units of the box's side
    with its ``placeholders`` flag), in data order; none for any other pool."""
    if not box.placeholders:
        return []
    return [u.id for u in game.units.values() if u.has(box.placeholders) and u.side == box.side]


def sealed_pools(game: Game, scenario: Scenario) -> dict[str, list[str]]:
    """Pool box id -> the counters it holds, for each sealed pool of the scenario that holds any:
    what the adjudicator shuffles and commits to when a recorded game is created."""
    return {box_id: contents for box_id, contents in pool_contents(game, scenario).items()
            if game.boxes[box_id].placeholders and contents}


def laid_faces(game: Game, scenario: Scenario) -> dict[str, list[str]]:
    """Box id -> the counters the module lays there face up: each sealed pool's own counters, in its
    `faces` box (which placeholder is which of them is the adjudicator's secret, not which exist), and
    what a box that is no pool ``holds``: the units with that flag the scenario does not use elsewhere
    (SPI's counters not in play, which a breakdown places on the map)."""
    laid: dict[str, list[str]] = {}
    for box_id, counters in sealed_pools(game, scenario).items():
        laid.setdefault(game.boxes[box_id].faces, []).extend(counters)
    for box in game.boxes.values():
        if box.holds and not box.draw:
            laid.setdefault(box.id, []).extend(_held_units(game, scenario, box.holds, box.side))
    return {box_id: counters for box_id, counters in laid.items() if counters}


def shown_contents(game: Game, scenario: Scenario) -> dict[str, list[str]]:
    """What the module puts in each pool: `pool_contents`, except that a sealed pool holds as many
    placeholder counters as it has pieces."""
    shown = pool_contents(game, scenario)
    for box_id, contents in sealed_pools(game, scenario).items():
        shown[box_id] = placeholders(game, game.boxes[box_id])[:len(contents)]
    return shown


def _held_units(game: Game, scenario: Scenario, flag: str, side: str) -> list[str]:
    used = [p.unit for p in scenario.setup if not p.is_marker] + [a.unit for a in scenario.schedule]
    in_play = [game.units[u] for u in used]
    nationalities = {u.nationality for u in in_play if u.has(DIVISIONAL) or u.has(flag)}
    return [u.id for u in game.units.values()
            if u.has(flag) and (not side or u.side == side) and u.nationality in nationalities
            and u.id not in used]


def _held_markers(game: Game, scenario: Scenario, kind: str, side: str) -> list[str]:
    placed = Counter(p.marker_id for p in scenario.setup if p.is_marker)
    out = []
    for marker in game.markers.values():
        if marker.kind == kind and (not side or marker.side == side):
            out += [MARKER_PREFIX + marker.id] * max(0, marker.count - placed[marker.id])
    return out
