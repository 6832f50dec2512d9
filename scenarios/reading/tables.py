"""tables.toml and the tables/*.csv it declares: keys, the rows the rules look up, column types."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from scenarios import cells
from scenarios.model import Table
from scenarios.problems import TomlLines
from scenarios.reading.context import Reading
from scenarios.reading.files import cell_range, read_csv, read_toml


def read_tables(r: Reading) -> dict[str, Table]:
    path = r.dir / "tables.toml"
    if not path.exists():
        return {}
    data, lines = read_toml(path, r.p)
    tables: dict[str, Table] = {}
    index: dict[str, int] = {}  # table id -> its [[table]] number (for the line of its declaration)
    for i, item, line, tid in r.entries(data, "table", path, lines, "table", tables):
        tables[tid] = _read_table(r, item, tid, path, lines, i, line)
        index[tid] = i
        _check_rows(r, tables[tid], item.get("rows"), path, lines.find("table", i, "rows"))
    _check_cell_types(r, tables, path, lines, index)
    return tables


def _read_table(r: Reading, item: dict, tid: str, path: Path, lines: TomlLines, i: int, line: int) -> Table:
    """One ``[[table]]`` and its CSV: a key column whose keys are unique, columns declared as a table."""
    file = r.dir / "tables" / str(item.get("file") or f"{tid}.csv")
    rows = read_csv(file, r.p, ())
    columns = tuple(rows[0].cells.keys()) if rows else ()
    key = str(item.get("key", ""))
    if rows and key and key not in columns:
        r.p.add(path, lines.find("table", i, "key"), f"table {tid}: key column {key!r} not in {file.name}")
    if key and rows:
        seen: set[str] = set()
        for row in rows:
            k = row.get(key)
            if k in seen:
                r.p.add(file, row.line, f"table {tid}: key {key}={k!r} appears twice")
            seen.add(k)
    declared = item.get("columns") or {}
    if not isinstance(declared, dict):
        r.p.add(path, lines.find("table", i, "columns"), f"table {tid}: columns must be a table of column = type")
        declared = {}
    return Table(
        id=tid, name=str(item.get("name", tid)), columns=columns,
        rows=tuple({c: v.strip() for c, v in row.cells.items()} for row in rows),
        key=key, note=str(item.get("note", "")),
        source=r.source(item.get("source"), path, line, f"table {tid}"),
        file=file.relative_to(r.dir).as_posix(),
        row_lines=tuple(row.line for row in rows),
        column_types={str(c): str(t) for c, t in declared.items()},
        needed_rows=cell_range(item["rows"]) if "rows" in item else (),
    )


def _check_rows(r: Reading, table: Table, wanted: Any, path: Path, line: int) -> None:
    """`rows`: the keys the rules look up (`"1-6"` for a d6 table, or a list); each needs its row."""
    if wanted is None or not table.rows or (table.key and table.key not in table.columns):
        return  # no rows, or a key column the CSV lacks: reported already
    keys = table.needed_rows
    if not keys or not table.key:
        r.p.add(path, line, f"table {table.id}: rows must be a list of keys or a range like \"1-6\" "
                            "(and the table needs a `key`)")
        return
    have = {row[table.key] for row in table.rows}
    missing = [k for k in keys if k not in have]
    if missing:
        r.p.add(r.dir / table.file, table.row_lines[-1],
                f"table {table.id}: no row {table.key}={', '.join(missing)}; the rules look up "
                f"{table.key} {', '.join(keys)} [tables.toml rows]")


def _check_cell_types(r: Reading, tables: dict[str, Table], path: Path, lines: TomlLines,
                      index: dict[str, int]) -> None:
    """Every cell of a column with a declared type (tables.toml [table.columns]) is of that type:
    a CRT code without a row in its result-code table, or `all` where a number is read, is a
    problem at the cell's line (docs/data-format.md "Column types")."""
    keys = {t.id: tuple(row.get(t.key, "") for row in t.rows) for t in tables.values() if t.key in t.columns}
    for table in tables.values():
        for column, text in table.column_types.items():
            where = lines.find("table", index[table.id], "columns")
            if column != "*" and table.columns and column not in table.columns:
                r.p.add(path, where, f"table {table.id}: columns: no column {column!r} in {table.file} "
                                     f"(it has: {', '.join(table.columns)})")
                continue
            try:
                kind = cells.compile_type(text, keys)
            except cells.CellTypeError as err:
                r.p.add(path, where, f"table {table.id}: columns: {column} = {text!r}: {err}")
                continue
            wanted = [c for c in table.columns if c != table.key] if column == "*" else [column]
            for row, line in zip(table.rows, table.row_lines):
                for c in wanted:
                    value = row.get(c) or ""
                    if not kind.matches(value):
                        r.p.add(r.dir / table.file, line, _cell_problem(table, c, value, kind, tables, column))


def _cell_problem(table: Table, column: str, value: str, kind: "cells.CellType", tables: dict[str, Table],
                  declared: str) -> str:
    """Why a cell is not of its column's type, naming what would be (the codes of a referenced table)."""
    text = f"table {table.id}: column {column}: {value!r} is not {cells.describe(kind.text)}"
    for ref in kind.tables:
        other = tables[ref]
        codes = ", ".join(row[other.key] for row in other.rows)
        text += f"; {ref} has: {codes} (a new code needs its row in {other.file})"
    return text + f" [tables.toml: columns {declared!r} = {kind.text!r}, what the rules read]"
