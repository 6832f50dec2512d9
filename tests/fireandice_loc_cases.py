"""Positions on the real Fire and Ice map for the LoC snapshot test (tests/test_rules_fireandice_supply_snapshot.py).

Run as a script to (re)write the snapshot: ``python tests/fireandice_loc_cases.py``.  The snapshot in
``tests/snapshots/fireandice_loc.json`` was written with the tracer as it was before it used the
index-based search (plain ``scenarios.hexgrid.search``), so the test shows the fast tracer gives the
same answers, paths included.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SNAPSHOT = Path(__file__).resolve().parent / "snapshots" / "fireandice_loc.json"


def map_fingerprint(gm) -> str:
    """A hash of everything on the map a trace reads (terrain, paths, hexside and hex features)."""
    parts = [repr(sorted((h.col, h.row, t) for h, t in gm.terrain.items())),
             repr(sorted((p.kind, tuple((h.col, h.row) for h in p.hexes)) for p in gm.paths)),
             repr(sorted((f.kind, f.hexside.a.col, f.hexside.a.row, f.hexside.b.col, f.hexside.b.row)
                         for f in gm.hexside_features)),
             repr(sorted((f.kind, f.side, f.hex.col, f.hex.row) for f in gm.features))]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def cases(g) -> list[dict]:
    """(scenario, side, positions, options) cases: every scenario's set-up as given, and every unit of a
    side on seeded land hexes of its half of the map (the benchmark's situation), with a few options."""
    gm = g.maps["korea"]
    land = sorted(h for h, t in gm.terrain.items() if t != "sea")
    rows = sorted({h.row for h in land})
    middle = rows[len(rows) // 2]
    found = []
    for sc in g.scenarios.values():
        setup = []
        for p in sc.setup:
            u = g.units.get(p.unit)
            if u is None or p.location.startswith("box:") or u.type == "aircraft":
                continue
            try:
                h = gm.grid.parse(p.location)
            except ValueError:
                continue
            if h in gm and gm.terrain[h] != "sea":
                setup.append((p.unit, gm.grid.label(h)))
        for side in ("communist", "un"):
            found.append({"scenario": sc.id, "side": side, "positions": setup, "options": {}})
    setup = next(c for c in found if c["scenario"] == "intervention")["positions"]
    placed = {u for u, _ in setup}
    taken = {h for _, h in setup}
    for side, seed in (("communist", 11), ("un", 12)):
        rng = random.Random(seed)
        free = [gm.grid.label(h) for h in land if (h.row < middle) == (side == "communist") and gm.grid.label(h) not in taken]
        rng.shuffle(free)
        extra = [(u.id, free.pop()) for u in g.units.values()
                 if u.side == side and u.id not in placed and u.type != "aircraft"]
        positions = extra + setup
        variants = [{}, {"winter": True}, {"no_zoc_units": [u for u, _ in setup[:10]]}]
        if side == "communist":  # given sources (cities of the north) and an atomic strike on one of them
            variants.append({"supply_sources": ["1917", "2726", "1036"], "atomic_hexes": ["2733", "1234"]})
        else:  # only Pusan's port a source; atomic strikes on two cities of the south
            variants.append({"port_control": {"2151": "communist", "2264": "communist", "4046": "communist"},
                             "atomic_hexes": ["3958", "2665"], "month": "1951-01"})
        for options in variants:
            found.append({"scenario": "intervention", "side": side, "positions": positions, "options": options})
    return found


def run(g, case) -> list[dict]:
    from adjudicator.rules.fireandice.supply import trace_side
    from adjudicator.rules.positions import UnitAt

    report = trace_side(g, case["scenario"], case["side"], [UnitAt(u, h) for u, h in case["positions"]],
                        dict(case["options"]))
    return [u.to_json() for u in report.units]


def main() -> None:
    sys.path.insert(0, str(ROOT))
    from scenarios import load_game

    g = load_game("fireandice")
    out = {"map_fingerprint": map_fingerprint(g.maps["korea"]),
           "cases": [dict(c, positions=[list(p) for p in c["positions"]], units=run(g, c)) for c in cases(g)]}
    SNAPSHOT.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
    print(f"wrote {SNAPSHOT}: {len(out['cases'])} cases")


if __name__ == "__main__":
    main()
