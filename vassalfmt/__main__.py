"""Small inspection tool: ``python -m vassalfmt COMMAND FILE``.

* ``pieces GAME.vsav|GAME.vlog [--json]`` — every piece at the end of the file: id, map,
  position, name and properties;
* ``commands GAME.vsav`` — the decoded command stream, one command per line (escaped);
* ``check MODULE.vmod`` — the consistency checks of :func:`vassalfmt.module.check_vmod`.

Exit status: 0 fine, 1 problems found (``check``), 2 unreadable file.
"""

from __future__ import annotations

import argparse
import json
import sys

from .commands import split_commands
from .errors import VassalFormatError
from .module import check_vmod
from .savedgame import SAVED_GAME_ENTRY, deobfuscate, read_saved_game
from .zipreader import SafeZip


def _pieces(path: str, as_json: bool) -> int:
    game = read_saved_game(path)
    rows = [{"id": p.piece_id, "map": p.map_id, "x": p.x, "y": p.y, "name": p.name,
             "stack": p.stack_id, "properties": p.properties} for p in game.pieces]
    if as_json:
        print(json.dumps({"module": game.module_name, "is_log": game.is_log, "pieces": rows,
                          "warnings": game.warnings}, indent=2, ensure_ascii=False))
        return 0
    kind = "log" if game.is_log else "saved game"
    print(f"{path}: {kind} of module {game.module_name!r}, {len(rows)} pieces")
    for row in rows:
        props = ", ".join(f"{k}={v}" for k, v in sorted(row["properties"].items()))
        print(f"  {row['id']}: {row['name']!r} on {row['map']} at ({row['x']}, {row['y']})"
              + (f" [{props}]" if props else ""))
    for warning in game.warnings:
        print(f"  warning: {warning}")
    return 0


def _commands(path: str) -> int:
    with SafeZip(path, what="saved game") as archive:
        text = deobfuscate(archive.read(SAVED_GAME_ENTRY))
    for leaf in split_commands(text):
        line = leaf.text.encode("unicode_escape").decode("ascii")
        print(("LOG " if leaf.logged else "") + line)
    return 0


def _check(path: str) -> int:
    problems = check_vmod(path)
    for problem in problems:
        print(problem)
    print(f"{path}: {len(problems)} problem(s)")
    return 1 if problems else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vassalfmt",
                                     description="Inspect VASSAL 3.7 modules, saved games and logs.")
    sub = parser.add_subparsers(dest="command", required=True)
    pieces = sub.add_parser("pieces", help="pieces and positions at the end of a .vsav/.vlog")
    pieces.add_argument("file")
    pieces.add_argument("--json", action="store_true", help="machine-readable output")
    sub.add_parser("commands", help="the decoded command stream").add_argument("file")
    sub.add_parser("check", help="consistency checks of a .vmod").add_argument("file")
    args = parser.parse_args(argv)
    try:
        if args.command == "pieces":
            return _pieces(args.file, args.json)
        if args.command == "commands":
            return _commands(args.file)
        return _check(args.file)
    except VassalFormatError as exc:
        print(f"{args.file}: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
