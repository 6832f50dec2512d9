"""`scenarios` command: check data files and list stand-ins."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from scenarios.loader import DATA_ROOT, check_game_dir, game_ids, load_game_dir
from scenarios.problems import DataError


def _directories(names: list[str]) -> list[Path]:
    """Game ids or directory paths -> directories (all games when empty)."""
    if not names:
        return [DATA_ROOT / g for g in game_ids()]
    result = []
    for name in names:
        path = Path(name)
        if path.is_dir():
            result.append(path)
        elif (DATA_ROOT / name / "game.toml").exists():
            result.append(DATA_ROOT / name)
        else:
            raise SystemExit(f"scenarios: no game or directory {name!r} (games: {', '.join(game_ids())})")
    return result


def cmd_check(args: argparse.Namespace) -> int:
    failed = 0
    for directory in _directories(args.games):
        problems = check_game_dir(directory)
        for line in problems:
            print(line)
        status = "ok" if not problems else f"{len(problems)} problem(s)"
        print(f"{directory.name}: {status}", file=sys.stderr)
        failed += bool(problems)
    return 1 if failed else 0


def cmd_standins(args: argparse.Namespace) -> int:
    for directory in _directories(args.games):
        try:
            game = load_game_dir(directory)
        except DataError as err:
            print(err, file=sys.stderr)
            return 1
        print(f"# {game.name}: {len(game.stand_ins)} stand-in(s)")
        for s in game.stand_ins:
            print(f"{s.where}: {s.what}: {s.reason}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="scenarios", description="Check the games' data files.")
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("check", help="validate data files; exit 1 on any problem")
    check.add_argument("games", nargs="*", help="game ids or directories (default: all games)")
    check.set_defaults(func=cmd_check)
    standins = sub.add_parser("standins", help="list every stand-in datum (what, where, why)")
    standins.add_argument("games", nargs="*")
    standins.set_defaults(func=cmd_standins)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    raise SystemExit(main())
