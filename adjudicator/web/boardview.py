"""A position drawn as the module draws it: what the pages' board script (``static/board.js``) is
given for each map.

A board is the map's picture as the module holds it (drawn by ``art``, or the scanned board
straightened), the centre of every hex in that picture's pixels (``GameMap.board_grid``: the grid
VASSAL lays over the same picture, so a counter stands where VASSAL puts it) and the stacks on it,
each piece as the viewer may see it (`adjudicator.logs.replay.views.PieceView`: the counter's picture and
name, or for a piece hidden from him only its back, the same for every piece of its kind). The saved
-game pages give the stacks of the file (`saved_game_stacks`); the replay's script draws its own as
the player steps, from the same looks.

Nothing here names a piece the viewer may not see: a hidden piece's look carries no unit id, no
step, no picture but its back.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Callable

from adjudicator.web.artwork import PAGE_SCALE, Artwork, artwork_of
from adjudicator.bridge.locate import HEX
from adjudicator.bridge.positions import Positions
from adjudicator.checks import CheckSpec
from adjudicator.fog import fog_of, hidden_side
from adjudicator.request_units import unit_ids
from adjudicator.logs.replay.board import Where
from adjudicator.logs.replay.views import Identity, Viewer, mask_hides, masks_of, view_of
from art.counters import counter_px
from scenarios.model import GameMap
from vassalfmt import SavedGame

#: How far a piece's place may be off its hex centre on the page, in the board's pixels (the
#: module's stacks draw each piece this much right and up of the one under it: StackMetrics).
STACK_OFFSET = 4


def board_json(artwork: Artwork, game_map: GameMap, stacks: list[dict[str, Any]] | None = None,
               marks: dict[str, list[str]] | None = None, hex_marks: dict[str, str] | None = None) -> dict[str, Any]:
    """One map's board for the script: picture, size, hex centres and corners, the stacks on it
    (bottom piece first), marks on units (``out-of-supply``: unit ids) and on hexes (``target``: a
    hex label)."""
    grid = game_map.board_grid(PAGE_SCALE)
    hexes = game_map.hexes()
    centres = {grid.label(h): list(grid.center(h)) for h in hexes}
    first = hexes[0] if hexes else None
    corners = []
    if first is not None:
        cx, cy = grid.center(first)
        corners = [[round(x - cx, 1), round(y - cy, 1)] for x, y in grid.corners(first)]
    # Where the drawn map prints each hex's number (art.maps): the page's own numbers go over them.
    label_top = -grid.dx * 0.5 if grid.sideways else -grid.dy / 2 + grid.dy * 0.05
    return {"map": game_map.id, "name": game_map.name, "image": artwork.url(artwork.board_names[game_map.id]),
            "art": artwork.base_url(), "width": grid.width, "height": grid.height, "counter": counter_px(PAGE_SCALE),
            "offset": STACK_OFFSET, "hex_height": min(grid.dx, grid.dy) if grid.sideways else grid.dy,
            "scan": game_map.board is not None, "label_top": round(label_top, 1),
            "label_px": max(7, round(grid.dy * 0.13)),
            "centres": centres, "corners": corners, "stacks": stacks or [], "marks": marks or {},
            "hex_marks": hex_marks or {}}


def seen_name(system: str, viewer: str | None) -> Callable[[str], str | None]:
    """unit id -> the id, or None for a unit whose identity the fog of war hides from `viewer` (a
    side; None: no side's eyes, an observer's or a calculation's): the pages draw such a unit where
    it stands and never name it (`adjudicator.fog`)."""
    fog = fog_of(system)

    def name(unit_id: str) -> str | None:
        return unit_id if hidden_side(fog, unit_id, viewer) is None else None
    return name


def maps_of(positions: Positions, scenario_id: str | None) -> list[GameMap]:
    """The maps a saved game's units stand on, then the scenario's others."""
    game = positions.game
    used = [m for m in game.maps if any(u.location.map == m for u in positions.on_map())]
    if scenario_id and scenario_id in game.scenarios:
        used += [m for m in game.scenarios[scenario_id].maps if m not in used]
    return [game.maps[m] for m in used]


def file_boards(positions: Positions, saved: SavedGame, viewer: str | None, scenario_id: str | None,
                marks: dict[str, list[str]] | None = None,
                hex_marks: dict[str, dict[str, str]] | None = None) -> list[tuple[GameMap, dict[str, Any]]]:
    """(map, board) of each map of a saved game (`maps_of`), its stacks as `viewer` may see them;
    `hex_marks`: map id -> {class: hex}."""
    game = positions.game
    seen = Viewer(viewer, game.sides[viewer].name) if viewer in game.sides else Viewer()
    stacks = saved_game_stacks(positions, saved, seen_name(game.id, viewer), seen)
    art = artwork_of(game)
    return [(m, board_json(art, m, stacks.get(m.id, []), marks, (hex_marks or {}).get(m.id)))
            for m in maps_of(positions, scenario_id)]


def picks(spec: CheckSpec, request: dict[str, Any]) -> tuple[list[str], str, str]:
    """What a check's request names on the board, as its page's picks: (the attacking units, the hex
    attacked, its map "" when not said); a unit hidden from the viewer (sealed) is left out."""
    attackers: list[str] = []
    hex_label, map_id = "", ""
    for pointer, role in spec.board:
        if pointer.count("/") != 1:
            continue
        value = request.get(pointer[1:])
        if role == "attackers":
            attackers += unit_ids(value)
        elif role == "target_hex" and isinstance(value, str):
            hex_label = value
        elif role == "defenders" and not hex_label:
            first = value[0] if isinstance(value, list) and value else value
            if isinstance(first, dict) and isinstance(first.get("hex"), str):
                hex_label, map_id = first["hex"], first.get("map") or ""
    return attackers, hex_label, map_id


def saved_game_stacks(positions: Positions, saved: SavedGame, name: Callable[[str], str | None],
                      viewer: Viewer) -> dict[str, list[dict[str, Any]]]:
    """map id -> its stacks ({"hex", "pieces": [look, ...]}), the units and markers of a saved game
    on the hexes, bottom first as the file stacks them, each as the viewer may see it.

    `name(unit id)` is None for a unit the fog of war hides from the viewer (`seen_name`); a marker
    is hidden when its mask hides it from him."""
    game = positions.game
    pieces = {p.piece_id: (order, p) for order, p in enumerate(saved.pieces)}
    found: dict[tuple[str, str], list[tuple[int, dict]]] = defaultdict(list)
    for placed in positions.on_map():
        order, piece = pieces.get(placed.piece_id, (len(pieces), None))
        identity = Identity("unit", placed.piece_name, unit=placed.unit, step_index=placed.step_index,
                            masks=masks_of(piece.piece) if piece else ())
        look = view_of(game, identity, _where(placed.location), name(placed.unit.id) is None)
        found[(placed.location.map, placed.location.hex)].append((order, look.to_json()))
    for other in positions.markers:
        if other.location.kind != HEX or other.marker not in game.markers:
            continue
        order, piece = pieces.get(other.piece_id, (len(pieces), None))
        masks = masks_of(piece.piece) if piece else ()
        identity = Identity("marker", other.name, marker=game.markers[other.marker], face=other.face, masks=masks)
        hidden = any(mask_hides(mask, viewer, {}) for mask in masks)
        look = view_of(game, identity, _where(other.location), hidden)
        found[(other.location.map, other.location.hex)].append((order, look.to_json()))
    out: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for (map_id, hex_label), looks in sorted(found.items()):
        out[map_id].append({"hex": hex_label, "pieces": [look for _, look in sorted(looks, key=lambda x: x[0])]})
    return dict(out)


def _where(location) -> Where:
    return Where(location.vassal_map, location.x, location.y)
