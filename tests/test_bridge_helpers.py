"""Helpers shared by the bridge, page and client tests (no tests of its own).

Saved games are built here from ``modgen.pieces.unit_piece`` (tests may use modgen; the
adjudicator may not) without rendering any art: the bridge reads properties and positions,
not images. ``make_tracer`` is a stand-in supply tracer for tests only — a game's real tracer
comes from its rules module; ``install_tracer`` puts one in place for one test.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager

from adjudicator.rules import positions as rules_positions
from adjudicator.rules.positions import SupplyReport, UnitSupply
from modgen.pieces import unit_piece
from scenarios import load_game
from vassalfmt import BasicPiece, ModuleData, Piece, SaveData, SavedGameWriter, build_zip, obfuscate
from vassalfmt.commands import MovePiece, join_commands

SYSTEM = "kwb"
SCENARIO = "pusan"


def kwb():
    return load_game(SYSTEM)


def pixel(game, map_id: str, label: str, scale: int = 1) -> tuple[str, int, int]:
    game_map = game.maps[map_id]
    grid = game_map.grid.scaled(scale)
    return (game_map.name, *grid.center(grid.parse(label)))


def setup_units(game, scenario_id: str, count: int | None = None):
    """(unit id, map id, hex label, step index) of a scenario's on-map setup units."""
    scenario = game.scenarios[scenario_id]
    out = []
    for p in scenario.setup:
        if getattr(p, "is_marker", False) or p.location.startswith("box:") or ":" in p.location:
            continue
        label, _, hint = p.location.partition("@")
        map_id = hint or scenario.maps[0]
        unit = game.units[p.unit]
        step = [s.name for s in unit.steps].index(p.step) if p.step else 0
        out.append((p.unit, map_id, label, step))
    return out[:count] if count else out


def savedgame_bytes(game, units, *, named: list[tuple[str, str, int, int]] = (), log_moves=(),
                    scale: int = 1) -> bytes:
    """A .vsav (or, with `log_moves`, a .vlog) with `units` = [(unit, map, hex, step index)],
    plus plain pieces `named` = [(name, vassal map, x, y)] as another module would have them,
    and logged moves `log_moves` = [(unit id, map id, hex)]."""
    writer = SavedGameWriter()
    for unit_id, map_id, label, step in units:
        vassal_map, x, y = pixel(game, map_id, label, scale)
        unit = game.units[unit_id]
        images = [f"{unit_id}-{n}.png" for n in range(len(unit.steps))]
        writer.add_piece(unit_id, unit_piece(game, unit, images, step=step, map_id=vassal_map, x=x, y=y))
    for n, (name, vassal_map, x, y) in enumerate(named):
        writer.add_piece(f"other{n}", Piece([BasicPiece(image="x.png", name=name, map_id=vassal_map, x=x, y=y)]))
    commands = writer.commands()
    for unit_id, map_id, label in log_moves:
        vassal_map, x, y = pixel(game, map_id, label, scale)
        commands.append("LOG\t" + MovePiece(unit_id, vassal_map, x, y, None, None, 0, 0, None, "p").encode())
    module = ModuleData(name=game.name, version="9.9.9")
    return build_zip({"savedGame": obfuscate(join_commands(commands)), "savedata": SaveData().to_xml(),
                      "moduledata": module.to_xml()})


def make_tracer(out_hexes: set[str]):
    """A test tracer: a unit is out of supply iff its hex is in `out_hexes`. Calls are kept
    in ``tracer.calls`` so tests can see what the bridge passed."""

    def tracer(game, scenario_id, side, positions, options):
        tracer.calls.append((scenario_id, side, list(positions)))
        units = [u for u in positions if game.units[u.unit].side == side]
        report = SupplyReport(side=side, steps=[("test tracer", "T.1")])
        for u in units:
            out = u.hex in out_hexes
            report.units.append(UnitSupply(u.unit, u.hex, not out, [] if out else [u.hex],
                                           "" if out else u.hex, "test: hex listed" if out else "test"))
        return report

    tracer.calls = []
    return tracer


def install_tracer(monkeypatch, system: str, tracer) -> None:
    monkeypatch.setitem(rules_positions._TRACERS, system, tracer)


def remove_tracer(monkeypatch, system: str) -> None:
    monkeypatch.delitem(rules_positions._TRACERS, system, raising=False)


@contextmanager
def running_server(app):
    """The app on a free loopback port in a thread; yields its base URL."""
    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)
