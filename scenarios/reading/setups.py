"""A scenario's setup (<id>.setup.csv) and its schedule of arrivals and withdrawals (<id>.schedule.csv)."""

from __future__ import annotations

from pathlib import Path

from scenarios.model import Arrival, Placement
from scenarios.pools import MARKER_PREFIX
from scenarios.reading.context import Reading
from scenarios.reading.files import read_csv
from scenarios.reading.places import PlaceContext, check_location, check_marker_face, check_unit_step, stand_fact

SETUP_COLUMNS = ("unit", "location", "step", "choice", "note", "source")
SCHEDULE_COLUMNS = ("turn", "action", "unit", "location", "step", "note", "source")


def read_setup(r: Reading, path: Path, ctx: PlaceContext, sid: str) -> list[Placement]:
    result: list[Placement] = []
    seen: dict[str, int] = {}
    for row in read_csv(path, r.p, ("unit", "location", "source"), SETUP_COLUMNS):
        uid = row.get("unit")
        what = f"setup of {uid}"
        if uid.startswith(MARKER_PREFIX):
            # Markers (turn, VP, objective...) may be placed any number of times.
            if check_marker_face(r, uid[len(MARKER_PREFIX):], row.get("step"), ctx, path, row.line, what):
                check_location(r, row.get("location"), ctx, path, row.line, what)
                result.append(Placement(uid, row.get("location"), row.get("step"), row.get("choice"),
                                        row.get("note"),
                                        r.source(row.get("source"), path, row.line, f"scenario {sid} {what}"),
                                        r.where(path, row.line)))
            continue
        if not check_unit_step(r, uid, row.get("step"), ctx, path, row.line, what):
            continue
        if uid in seen:
            r.p.add(path, row.line, f"unit {uid} is set up twice (also line {seen[uid]})")
        seen[uid] = row.line
        check_location(r, row.get("location"), ctx, path, row.line, what)
        placement = Placement(uid, row.get("location"), row.get("step"), row.get("choice"), row.get("note"),
                              r.source(row.get("source"), path, row.line, f"scenario {sid} {what}"),
                              r.where(path, row.line))
        result.append(placement)
        stand_fact(r, uid, placement.location, ctx, placement.source, placement.where, f"{sid}: {what}")
    return result


def read_schedule(r: Reading, path: Path, ctx: PlaceContext, sid: str) -> list[Arrival]:
    if not path.exists():
        return []
    result: list[Arrival] = []
    for row in read_csv(path, r.p, ("turn", "action", "unit", "source"), SCHEDULE_COLUMNS):
        uid, action, turn = row.get("unit"), row.get("action"), row.get("turn")
        what = f"{action} of {uid}"
        if action not in ("arrive", "withdraw"):
            r.p.add(path, row.line, f"action {action!r} must be 'arrive' or 'withdraw'")
        if not turn.isdigit() or not 1 <= int(turn) <= max(ctx.turns, 1):
            r.p.add(path, row.line, f"{what}: turn {turn!r} is not a turn of this scenario (1-{ctx.turns})")
            continue
        if not check_unit_step(r, uid, row.get("step"), ctx, path, row.line, what):
            continue
        if action == "arrive":
            if not row.get("location"):
                r.p.add(path, row.line, f"{what}: an arrival needs a location")
            else:
                check_location(r, row.get("location"), ctx, path, row.line, what)
        arrival = Arrival(int(turn), uid, action, row.get("location"), row.get("step"), row.get("note"),
                          r.source(row.get("source"), path, row.line, f"scenario {sid} {what}"),
                          r.where(path, row.line))
        result.append(arrival)
        if action == "arrive":
            stand_fact(r, uid, arrival.location, ctx, arrival.source, arrival.where, f"{sid}: {what} on turn {turn}")
    return result
