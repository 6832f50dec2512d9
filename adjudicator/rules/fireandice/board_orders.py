"""What Fire and Ice's rulings order onto the board beyond the units: a marker put on a hex, and a
marker moved on a player-aid track, in the two outcome shapes `adjudicator.ruled_orders` reads
(``markers_on_hexes``, ``track_moves``), so each is a change every reader of a ruling sees.

* 5.5 News reporters: "place a revealed Objective marker of the attacker's (defender's) color on
  the combat hex". Objective markers "are always drawn at random and neither player knows the value
  of the marker until it is revealed" (12.1.3): the ruling names the side's pool, never a value
  (the combat's dice draw none); the marker's side draws it there and places it face up.
* The Support Level Track (8.1): the attacker's tank level falls by 1 after the road option
  (5.3.1) and at once after an Anti-tank ambush (5.5 Table A 2); the loser's tank and artillery
  levels fall for his units disrupted or routed in a retreat (5.6).
* The Replacements track (13.2): an Ambush costs the attacker 1 replacement (5.5 Table A 3), a
  replacement point paying a combat's spread costs the loser 1 (5.6): of the nationality he names,
  else of one of his side's markers, his choice.
* The VP track (12.1.1): the one zero-sum marker stands on the cell of the VPs held, blue side up
  for the UN, red for the Communist.
"""

from __future__ import annotations

from typing import Any

from adjudicator.rules.fireandice import data

#: The tracks of the module (game.toml) the markers below stand on.
SUPPORT_TRACK, LOGISTICS_TRACK, VP_TRACK = "support", "logistics", "vp"
#: The VP marker (markers.csv) and its faces: blue for the UN, red for the Communist (12.1.1).
VP_MARKER = "vp"
#: The pools Objective markers are drawn from (game.toml's boxes holding them).
OBJECTIVE_KIND = "objective"


def objective_on_hex(g, side: str, hex_: str | None) -> dict[str, Any]:
    """News reporters (5.5): an Objective marker of `side`'s colour, drawn from his pool, placed face up
    on the combat hex (`hex_`: None when the check was not told it)."""
    pool = next((b for b in g.boxes.values() if b.holds == OBJECTIVE_KIND and b.side == side), None)
    return {"hex": hex_ or "", "pool": pool.id if pool else "", "pool_name": pool.name if pool else "",
            "marker": f"{data.SIDE_NAMES[side]} Objective", "side": side, "revealed": True,
            "rule": "5.5 News reporters; 12.1.3"}


def support_move(g, side: str, kind: str, by: int, rule: str) -> dict[str, Any] | None:
    """`side`'s `kind` (tank, artillery) marker moved `by` cells on the Support Level Track (None: no move)."""
    if not by:
        return None
    marker = f"{'un' if side == 'un' else 'com'}-{kind}"
    return _move(g, SUPPORT_TRACK, marker, side, rule, by=by)


def replacements_move(g, side: str, by: int, rule: str, kind: str | None = None) -> dict[str, Any] | None:
    """`side`'s replacements lowered `by` on the Replacements track (13.2): the marker of the nationality
    `kind` when named, else one of his side's Replacements markers, his choice (None: no move)."""
    if not by:
        return None
    if kind is not None and f"repl-{kind}" in g.markers:
        return _move(g, LOGISTICS_TRACK, f"repl-{kind}", side, rule, by=by)
    choices = [m.id for m in g.markers.values() if m.id.startswith("repl-") and m.side == side]
    return {"track": LOGISTICS_TRACK, "marker": "", "marker_name": f"{data.SIDE_NAMES[side]} Replacements",
            "choices": choices, "by": by, "side": side, "rule": rule}


def vp_move(g, before: int, after: int) -> dict[str, Any] | None:
    """The VP marker from the signed total `before` to `after` (positive: the UN's; 12.1.1), onto the cell
    of the VPs held, the face of whoever holds them (None: it stays as it stood)."""
    if before == after:
        return None
    marker = g.markers.get(VP_MARKER)
    faces = list(marker.faces) if marker is not None else []
    face = faces[0 if after >= 0 else -1] if faces else ""
    return _move(g, VP_TRACK, VP_MARKER, "", "12.1.1 Tracking Victory Points", to=str(abs(after)), face=face)


def _move(g, track: str, marker: str, side: str, rule: str, by: int = 0, to: str = "", face: str = "") -> dict[str, Any]:
    found = g.markers.get(marker)
    out: dict[str, Any] = {"track": track, "marker": marker, "marker_name": found.name if found else marker,
                           "side": side, "rule": rule}
    if by:
        out["by"] = by
    if to:
        out["to"] = to
    if face:
        out["face"] = face
    return out


def moves(*entries: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The track moves of a ruling, those that move something."""
    return [e for e in entries if e is not None]
