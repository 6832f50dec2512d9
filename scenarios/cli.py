"""`scenarios` command: check data files and list stand-ins."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from scenarios import standins
from scenarios.loader import DATA_ROOT, check_game_dir, game_ids, load_game_dir, missing_games
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
    if not args.games:  # every game: first, those the code plays that the data folder lacks
        missing = missing_games()
        for line in missing:
            print(line)
        if missing:
            print(f"{DATA_ROOT.name}: {len(missing)} game(s) missing", file=sys.stderr)
        failed += bool(missing)
    for directory in _directories(args.games):
        problems = check_game_dir(directory)
        for line in problems:
            print(line)
        status = "ok" if not problems else f"{len(problems)} problem(s)"
        print(f"{directory.name}: {status}", file=sys.stderr)
        failed += bool(problems)
    return 1 if failed else 0


def cmd_standins(args: argparse.Namespace) -> int:
    unknown = [k for k in args.kind or () if k not in standins.SUPPLY]
    if unknown:
        print(f"scenarios standins: no kind {', '.join(map(repr, unknown))}; kinds: {', '.join(standins.SUPPLY)}",
              file=sys.stderr)
        return 2
    for directory in _directories(args.games):
        try:
            game = load_game_dir(directory)
        except DataError as err:
            print(err, file=sys.stderr)
            return 1
        chosen = standins.select(game.stand_ins, args.kind, args.file)
        filtered = len(chosen) != len(game.stand_ins)
        print(f"# {game.name}: {len(chosen)} stand-in(s)" + (f" of {len(game.stand_ins)}" if filtered else ""))
        _print_summary(standins.summarise(chosen))
        if not args.summary:
            _print_stand_ins(game, chosen)
    return 0


def _print_summary(summary: standins.Summary) -> None:
    print("by kind: " + ", ".join(f"{n} {k}" for k, n in summary.by_kind))
    print("by file:")
    for file, n in summary.by_file:
        print(f"  {n:5d}  {file}")


def _print_stand_ins(game, chosen) -> None:
    """Every stand-in, grouped by kind; what to supply once per kind where it is the same for all."""
    for kind, _ in standins.summarise(chosen).by_kind:
        group = [s for s in chosen if standins.kind(s) == kind]
        texts = {standins.supply(s, game) for s in group}
        print(f"\n## {kind} ({len(group)})")
        if len(texts) == 1:
            print(f"supply: {texts.pop()}")
        for s in group:
            print(f"{s.where}: {s.what}: {s.reason}")
            if len(texts) > 1:
                print(f"  supply: {standins.supply(s, game)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="scenarios", description="Check the games' data files.")
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("check", help="validate data files; exit 1 on any problem")
    check.add_argument("games", nargs="*", help="game ids or directories (default: all games)")
    check.set_defaults(func=cmd_check)
    listing = sub.add_parser("standins", help="every stand-in datum: a summary per kind and file, then each one "
                             "(where, what, why) with what to supply instead")
    listing.add_argument("games", nargs="*", help="game ids or directories (default: all games)")
    listing.add_argument("--kind", action="append", metavar="KIND",
                         help=f"only this kind (repeatable): {', '.join(standins.SUPPLY)}")
    listing.add_argument("--file", action="append", metavar="TEXT",
                         help="only stand-ins in a file whose path contains TEXT (repeatable), e.g. units.csv")
    listing.add_argument("--summary", action="store_true", help="only the counts per kind and file")
    listing.set_defaults(func=cmd_standins)
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:  # `scenarios standins kwb | head`
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
