"""`modgen` command: build modules and contact sheets."""

from __future__ import annotations

import argparse
import sys
import time
from importlib.metadata import PackageNotFoundError, version as package_version
from pathlib import Path

from scenarios import DataError, game_ids, load_game
from scenarios.loader import DATA_ROOT

DEFAULT_CACHE = Path(".cache/art")


def project_version() -> str:
    try:
        return package_version("korea-wargames")
    except PackageNotFoundError:
        return "0.0.0"


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def cmd_build(args: argparse.Namespace) -> int:
    from modgen.extension import ExtensionBuildError, javac_version
    from modgen.uptodate import DataErrors, build_or_copy

    games = game_ids() if args.all else args.games
    if not games:
        say("modgen build: name a game or use --all (games: " + ", ".join(game_ids()) + ")")
        return 2
    unknown = [g for g in games if g not in game_ids()]
    if unknown:
        say(f"modgen build: unknown game(s) {', '.join(unknown)} (games: {', '.join(game_ids())})")
        return 2
    try:
        javac_version()  # every module carries the Adjudicator extension, compiled here
    except ExtensionBuildError as err:
        say(f"modgen build: {err}; nothing written")
        return 1
    version = args.version or project_version()
    started = time.perf_counter()
    # Every game whose inputs changed is loaded (validated) before anything is written.
    modules = build_or_copy({game_id: DATA_ROOT / game_id for game_id in games}, Path(args.out), version,
                            scale=args.scale, cache_dir=Path(args.cache), progress=say)
    try:
        for module in modules:
            report = module.report
            for problem in report.problems:
                say(f"{module.game_id}: warning: {problem}")
            say(f"{module.game_id}: {module.path} — {report.pieces} pieces, {report.prototypes} prototypes, "
                f"{report.setups} setups, {report.images} images, {module.path.stat().st_size / 1e6:.1f} MB, "
                f"{'copied' if module.copied else 'written'} after {time.perf_counter() - started:.1f} s")
            print(module.path)
    except DataErrors as errors:
        for game_id, error in errors.errors.items():
            say(str(error))
            say(f"{game_id}: data errors above; nothing written")
        return 1
    except ExtensionBuildError as err:
        say(f"modgen build: {err}; no further module written")
        return 1
    return 0


def cmd_sheet(args: argparse.Namespace) -> int:
    from art.sheet import write_contact_sheets

    try:
        game = load_game(args.game)
    except KeyError as err:
        say(f"modgen sheet: {err.args[0]}")
        return 2
    except DataError as err:
        say(str(err))
        return 1
    for path in write_contact_sheets(game, Path(args.out), scale=args.scale):
        print(path)
    return 0


def cmd_board(args: argparse.Namespace) -> int:
    """Calibrate a scanned board to the hex centres listed in its map toml, draw the check picture."""
    from art.board import render_overlay, straighten
    from scenarios.board import BoardError, calibrate_map
    from scenarios.loader import read_game_dir
    from scenarios.model import BoardImage, BoardPoint

    directory = Path(args.game) if (Path(args.game) / "game.toml").exists() else DATA_ROOT / args.game
    if not (directory / "game.toml").exists():
        say(f"modgen board: no game {args.game!r} (a game id or a directory with game.toml; games: "
            f"{', '.join(game_ids())})")
        return 2
    game, problems = read_game_dir(directory)  # the board is not calibrated yet: other problems wait for the check
    if game is None or args.map not in game.maps:
        say(f"modgen board: {directory.name} has no map {args.map!r} that loads")
        for problem in problems.items:
            if f"maps/{args.map}." in str(problem):
                say(str(problem))
        return 2
    toml = directory / "maps" / f"{args.map}.toml"
    try:
        done = calibrate_map(game.maps[args.map].grid, toml)
    except BoardError as err:
        say(f"modgen board: {directory.name}/{args.map}: {err}")
        return 1
    for line in done.report():
        print(line)
    print(f"{'wrote' if done.changed else 'unchanged:'} the calibration in {toml}")
    overlay = Path(args.overlay or Path(args.out) / f"{directory.name}-{args.map}-board-check.png")
    overlay.parent.mkdir(parents=True, exist_ok=True)
    board = BoardImage(str(done.image), done.fit.grid, (), to_scan=done.fit.to_scan)
    listed = [BoardPoint(r.point.hex, *done.fit.on_board(r.point.x, r.point.y)) for r in done.fit.residuals]
    try:
        render_overlay(straighten(board), done.fit.grid, listed).save(overlay)
    except (OSError, ValueError) as err:  # Pillow: a file it cannot decode, or cannot write there
        say(f"modgen board: the calibration is written, but no check picture: {err}")
        return 1
    print(f"check picture (the straightened scan, our grid and hex numbers over it): {overlay}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="modgen", description="Build VASSAL modules from the games' data.")
    sub = parser.add_subparsers(dest="command", required=True)
    build = sub.add_parser("build", help="build dist/<game>-<version>.vmod")
    build.add_argument("games", nargs="*", help="game ids (see --all)")
    build.add_argument("--all", action="store_true", help="every game")
    build.add_argument("--out", default="dist", help="output directory (default dist)")
    build.add_argument("--scale", type=int, default=1, choices=(1, 2), help="art scale (2 = double-size art)")
    build.add_argument("--cache", default=str(DEFAULT_CACHE), help="art cache directory")
    build.add_argument("--version", default="", help="module version (default: the project version)")
    build.set_defaults(func=cmd_build)
    sheet = sub.add_parser("sheet", help="contact sheets of every counter and marker")
    sheet.add_argument("game")
    sheet.add_argument("--out", default="dist/sheets")
    sheet.add_argument("--scale", type=int, default=1, choices=(1, 2))
    sheet.set_defaults(func=cmd_sheet)
    board = sub.add_parser("board", help="calibrate a map's scanned board to the hex centres listed in its toml")
    board.add_argument("game", help="game id or data directory")
    board.add_argument("map", help="map id (maps/<map>.toml with a [board] table)")
    board.add_argument("--out", default="dist/boards", help="folder of the check picture (default dist/boards)")
    board.add_argument("--overlay", default="", help="the check picture's file (default <out>/<game>-<map>-board-check.png)")
    board.set_defaults(func=cmd_board)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    raise SystemExit(main())
