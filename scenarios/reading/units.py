"""units.csv (with each unit's printed steps), markers.csv, and markers made from a table's rows."""

from __future__ import annotations

import re
from pathlib import Path

from scenarios.model import UNIT_SIZES, MarkerType, Step, Table, Unit
from scenarios.problems import TomlLines
from scenarios.reading.context import Reading
from scenarios.reading.files import read_csv

#: Every column of the files, in the order docs/data-format.md gives them.
UNITS_COLUMNS = ("id", "designation", "name", "side", "nationality", "type", "size", "steps", "flags", "parent",
                 "count", "source", "note")
UNITS_REQUIRED = ("id", "designation", "side", "nationality", "type", "size", "steps", "source")
MARKERS_COLUMNS = ("id", "name", "faces", "side", "count", "kind", "source", "note")


def read_units(r: Reading, sides, nationalities, unit_types, value_fields, separator, step_names) -> dict[str, Unit]:
    path = r.dir / "units.csv"
    units: dict[str, Unit] = {}
    for row in read_csv(path, r.p, UNITS_REQUIRED, UNITS_COLUMNS):
        uid = row.get("id")
        if not r.check_id(uid, path, row.line, "unit"):
            continue
        side, nat, utype = row.get("side"), row.get("nationality"), row.get("type")
        if side not in sides:
            r.p.add(path, row.line, f"unit {uid}: unknown side {side!r}")
        if nat not in nationalities:
            r.p.add(path, row.line, f"unit {uid}: unknown nationality {nat!r}")
        elif nationalities[nat].side != side:
            r.p.add(path, row.line, f"unit {uid}: nationality {nat} belongs to side {nationalities[nat].side}, not {side}")
        if utype not in unit_types:
            r.p.add(path, row.line, f"unit {uid}: unknown unit type {utype!r}")
        size = row.get("size")
        if size and size not in UNIT_SIZES:
            r.p.add(path, row.line, f"unit {uid}: size {size!r} is not one of {', '.join(UNIT_SIZES)} (or empty: "
                                    "none printed)")
        steps = parse_steps(r, row.get("steps"), value_fields, separator, step_names, path, row.line, uid)
        source = r.source(row.get("source"), path, row.line, f"unit {uid}")
        count_text = row.get("count", "1") or "1"
        if not count_text.isdigit() or int(count_text) < 1:
            r.p.add(path, row.line, f"unit {uid}: count {count_text!r} is not a positive whole number")
            count_text = "1"
        count = int(count_text)
        ids = [uid] if count == 1 else [f"{uid}-{n}" for n in range(1, count + 1)]
        flags = frozenset(row.get("flags").split())
        if utype in unit_types and unit_types[utype].mobile:
            flags |= {"mobile"}
        for one in ids:
            if one in units:
                r.p.add(path, row.line, f"unit id {one!r} used twice")
            units[one] = Unit(
                id=one,
                designation=row.get("designation"),
                side=side,
                nationality=nat,
                type=utype,
                size=size,
                steps=tuple(steps),
                name=row.get("name"),
                flags=flags,
                parent=row.get("parent"),
                note=row.get("note"),
                source=source,
            )
    for unit in units.values():
        if unit.parent and unit.parent not in units:
            r.p.add(path, 1, f"unit {unit.id}: parent {unit.parent!r} is not a unit")
    return units


def parse_steps(r: Reading, text, value_fields, separator, step_names, path, line, uid) -> list[Step]:
    """"10-9-3|5-4-3" or "full:10-9-3|depleted:5-4-3" -> Steps."""
    steps: list[Step] = []
    if not text:
        r.p.add(path, line, f"unit {uid}: no steps (values as printed, e.g. '10-9-3|5-4-3')")
        return steps
    for i, part in enumerate(text.split("|")):
        part = part.strip()
        if ":" in part:
            name, printed = (s.strip() for s in part.split(":", 1))
        elif i < len(step_names):
            name, printed = step_names[i], part
        else:
            name, printed = str(i + 1), part
        if step_names and ":" in part and name not in step_names and not name.isdigit():
            r.p.add(path, line, f"unit {uid}: step name {name!r} is not one of {', '.join(step_names)}")
        pieces = printed.split(separator) if separator else [printed]
        if len(pieces) != len(value_fields):
            r.p.add(path, line, f"unit {uid}: step {name!r} {printed!r} has {len(pieces)} values, "
                                f"expected {len(value_fields)} ({separator.join(value_fields)})")
            continue
        values: dict[str, int | str] = {}
        for fname, raw in zip(value_fields, pieces):
            raw = raw.strip()
            values[fname] = int(raw) if re.fullmatch(r"-?\d+", raw) else raw
            if raw == "":
                r.p.add(path, line, f"unit {uid}: step {name!r} has an empty {fname}")
        steps.append(Step(name, values, printed))
    return steps


def read_markers(r: Reading, sides) -> dict[str, MarkerType]:
    path = r.dir / "markers.csv"
    if not path.exists():
        return {}
    markers: dict[str, MarkerType] = {}
    for row in read_csv(path, r.p, ("id", "name", "faces", "source"), MARKERS_COLUMNS):
        mid = row.get("id")
        if not r.check_id(mid, path, row.line, "marker"):
            continue
        if mid in markers:
            r.p.add(path, row.line, f"marker id {mid!r} used twice")
        side = row.get("side")
        if side and side not in sides:
            r.p.add(path, row.line, f"marker {mid}: unknown side {side!r}")
        count = row.get("count", "1") or "1"
        if not count.isdigit():
            r.p.add(path, row.line, f"marker {mid}: count {count!r} is not a whole number")
            count = "1"
        markers[mid] = MarkerType(
            id=mid, name=row.get("name"), faces=tuple(f.strip() for f in row.get("faces").split("|")),
            side=side, count=int(count), kind=row.get("kind", "marker") or "marker", note=row.get("note"),
            source=r.source(row.get("source"), path, row.line, f"marker {mid}"),
        )
    return markers


def markers_from_tables(r: Reading, data: dict, path: Path, lines: TomlLines, tables: dict[str, Table],
                        markers: dict[str, MarkerType]) -> dict[str, MarkerType]:
    """``[[markers_from_table]]``: one marker per row of a table (Fire and Ice's combat chits
    are printed as a table, one row per chit).  ``id``, ``name``, ``face`` and ``kind`` are
    ``str.format`` patterns over the row's columns (``"chit-{chit}"``); faces split at ``|``."""
    made: dict[str, MarkerType] = {}
    for i, item in enumerate(data.get("markers_from_table") or []):
        line = lines.find("markers_from_table", i)
        table = tables.get(str(item.get("table", "")))
        if table is None:
            r.p.add(path, line, f"markers_from_table: unknown table {item.get('table')!r}")
            continue
        for row in table.rows:
            try:
                fields = {k: str(item.get(k, "")).format(**row) for k in ("id", "name", "face", "kind")}
            except (KeyError, IndexError, ValueError) as exc:
                r.p.add(path, line, f"markers_from_table {table.id}: pattern names no column ({exc})")
                break
            mid = fields["id"].lower()
            if not r.check_id(mid, path, line, "marker"):
                continue
            if mid in markers or mid in made:
                r.p.add(path, line, f"markers_from_table {table.id}: marker id {mid!r} used twice")
                continue
            made[mid] = MarkerType(id=mid, name=fields["name"] or mid, faces=tuple(fields["face"].split("|")),
                                   kind=fields["kind"] or "marker", source=table.source,
                                   note=f"one row of table {table.id}")
    return made
