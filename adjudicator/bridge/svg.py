"""A map overlay for the report page, drawn as inline SVG from the hex geometry alone.

The adjudicator may not use ``art`` (it depends on ``scenarios`` only), so the page draws its
own simple picture: every hex filled with its terrain colour, a counter-coloured square where
units stand, and a red ring around each unit found out of supply. Coordinates are the grid's
own pixels at scale 1; the browser scales the picture to the page.
"""

from __future__ import annotations

from collections import defaultdict
from html import escape
from typing import Callable

from markupsafe import Markup

from adjudicator.bridge.positions import PlacedUnit
from scenarios.model import Game, GameMap

DEFAULT_FILL = "#e8e4d8"
OUT_OF_SUPPLY = "#d50000"
IN_SUPPLY = "#2e7d32"


def _anonymous(game: Game, placed: PlacedUnit) -> str:
    side = game.sides.get(placed.unit.side)
    return f"a {side.name if side else placed.unit.side} unit (hidden)"


def _points(corners) -> str:
    return " ".join(f"{x:.0f},{y:.0f}" for x, y in corners)


def map_svg(game: Game, game_map: GameMap, units: list[PlacedUnit],
            out_of_supply: set[str] = frozenset(), in_supply: set[str] = frozenset(),
            name: Callable[[str], str | None] = lambda unit_id: unit_id) -> Markup:
    """The SVG of one map with `units` (those on this map) marked; ids for tests and links:
    ``map-<map>``, ``hex-<map>-<label>``, ``stack-<map>-<label>``, ``oos-<unit>``.

    `name(unit id)` is how the viewer may call a unit; None for a unit whose identity the fog of
    war hides from the viewer (`adjudicator.fog`): it is drawn, not named, anywhere in the SVG."""
    grid = game_map.grid
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" id="map-{escape(game_map.id)}" '
             f'class="savedgame-map" data-map="{escape(game_map.id)}" viewBox="0 0 {grid.width} {grid.height}" '
             f'role="img" aria-label="{escape(game_map.name)}">',
             f'<rect width="{grid.width}" height="{grid.height}" fill="#ffffff"/>',
             '<g class="terrain" stroke="#9e9a8e" stroke-width="1">']
    colours = {t.id: t.colour for t in game_map.terrain_types.values()}
    for hex in game_map.hexes():
        fill = colours.get(game_map.terrain.get(hex, ""), DEFAULT_FILL)
        parts.append(f'<polygon points="{_points(grid.corners(hex))}" fill="{escape(fill)}" '
                     f'data-hex="{escape(grid.label(hex))}"/>')
    parts.append("</g>")
    stacks: dict[str, list[PlacedUnit]] = defaultdict(list)
    for placed in units:
        stacks[placed.location.hex].append(placed)
    side = min(grid.dx, grid.dy) * 0.55
    parts.append('<g class="units">')
    for label, stack in sorted(stacks.items()):
        cx, cy = grid.center(grid.parse(label))
        top = stack[-1].unit
        nat = game.nationalities.get(top.nationality)
        fill = nat.background if nat else "#cccccc"
        text = nat.text if nat else "#000000"
        names = ", ".join(f"{p.unit.id} ({p.step or '?'})" if name(p.unit.id) else _anonymous(game, p)
                          for p in stack)
        units_attr = " ".join(p.unit.id for p in stack if name(p.unit.id))
        parts.append(f'<g id="stack-{escape(game_map.id)}-{escape(label)}" class="stack" '
                     f'data-hex="{escape(label)}" data-map="{escape(game_map.id)}" '
                     f'data-units="{escape(units_attr)}" tabindex="0" role="button" '
                     f'aria-label="hex {escape(label)}: {escape(names)}">'
                     f'<title>{escape(label)}: {escape(names)}</title>'
                     f'<rect x="{cx - side / 2:.0f}" y="{cy - side / 2:.0f}" width="{side:.0f}" '
                     f'height="{side:.0f}" fill="{escape(fill)}" stroke="#000" stroke-width="2"/>'
                     f'<text x="{cx:.0f}" y="{cy + side * 0.18:.0f}" font-size="{side * 0.5:.0f}" '
                     f'text-anchor="middle" fill="{escape(text)}">{len(stack)}</text></g>')
        for n, placed in enumerate(stack):
            uid = placed.unit.id
            if not name(uid):
                continue
            if uid in out_of_supply:
                radius = side * 0.85 + 4 * n
                parts.append(f'<circle id="oos-{escape(uid)}" class="out-of-supply" cx="{cx}" '
                             f'cy="{cy}" r="{radius:.0f}" fill="none" stroke="{OUT_OF_SUPPLY}" '
                             f'stroke-width="5"><title>{escape(uid)} out of supply</title></circle>')
            elif uid in in_supply:
                parts.append(f'<circle class="in-supply" cx="{cx}" cy="{cy + side * 0.6:.0f}" '
                             f'r="4" fill="{IN_SUPPLY}"/>')
    parts.append("</g></svg>")
    return Markup("".join(parts))
