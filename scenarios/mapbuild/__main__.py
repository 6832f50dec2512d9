"""python -m scenarios.mapbuild <game> [<map>...] [--force] [--check] [--adopt-edits]

Builds every map of the game that has a maps/<map>.geo.cfg (or the maps named).
Exit status 1 with a message per problem when a calibration misses by more than
half a hex, a config or an override is wrong, or (--check) a file is out of date.
A generated file edited by hand since it was generated is kept as it is and
reported; --adopt-edits moves its edits into <map>.overrides.csv and rebuilds,
--force overwrites it.
<game> is a game id or a game's data directory.
--check builds in memory and fails if any committed file differs (nothing written).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from scenarios.loader import DATA_ROOT
from scenarios.mapbuild import adopt
from scenarios.mapbuild.build import BuildError, MapBuild, build_map, write_map
from scenarios.mapbuild.calibrate import CalibrationError
from scenarios.mapbuild.config import ConfigError, map_ids
from scenarios.mapbuild.overrides import OverrideError
from scenarios.problems import DataError
from scenarios.textfiles import Unreadable

#: What stops one map's build with a message (every problem as `file:line: what is wrong`), never a traceback.
FAILURES = (BuildError, CalibrationError, ConfigError, OverrideError, adopt.AdoptError, KeyError, DataError,
            Unreadable)


def game_directory(name: str) -> Path | None:
    path = Path(name)
    if (path / "game.toml").exists():
        return path
    if (DATA_ROOT / name / "game.toml").exists():
        return DATA_ROOT / name
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scenarios.mapbuild", description=__doc__.splitlines()[2])
    parser.add_argument("game", help="game id or data directory")
    parser.add_argument("maps", nargs="*")
    parser.add_argument("--force", action="store_true", help="overwrite generated files edited by hand")
    parser.add_argument("--check", action="store_true", help="fail if the committed files are not up to date")
    parser.add_argument("--adopt-edits", action="store_true",
                        help="move hand edits of terrain.txt, hexsides.csv, paths.csv into overrides.csv, rebuild")
    args = parser.parse_args(argv)
    game_dir = game_directory(args.game)
    if game_dir is None:
        print(f"mapbuild: no game {args.game!r} (a game id in {DATA_ROOT} or a directory with game.toml)",
              file=sys.stderr)
        return 2
    ids = args.maps or map_ids(game_dir)
    if not ids:
        print(f"mapbuild: {args.game} has no maps/<map>.geo.cfg", file=sys.stderr)
        return 2
    failed = 0
    for map_id in ids:
        try:
            failed += not build_one(game_dir, map_id, args)
        except FAILURES as err:
            print(f"mapbuild: {game_dir.name}/{map_id}: FAILED\n{err}", file=sys.stderr)
            failed += 1
    return 1 if failed else 0


def build_one(game_dir: Path, map_id: str, args: argparse.Namespace) -> bool:
    """Build (and unless --check, write) one map; False if it failed."""
    b = build_map(game_dir, map_id)
    if args.check:
        stale = b.stale()
        if stale:
            print(f"mapbuild: {game_dir.name}/{map_id}: out of date: {', '.join(stale)}", file=sys.stderr)
            return False
        print(summary(game_dir, map_id, b) + " (up to date)")
        return True
    force = args.force
    if args.adopt_edits:
        b, adopted = adopt_edits(b, game_dir, map_id)
        force = force or adopted
    written = write_map(b, force=force)
    print(summary(game_dir, map_id, b))
    for path in written.changed:
        print(f"  wrote {path}")
    for path in written.kept:
        print(f"mapbuild: {game_dir.name}/{map_id}: kept {path.name}: edited by hand since it was generated, so "
              f"this build (and {map_id}.overrides.csv) does not change it; --adopt-edits moves the edits into "
              f"{map_id}.overrides.csv, --force overwrites them", file=sys.stderr)
    return True


def adopt_edits(b: MapBuild, game_dir: Path, map_id: str) -> tuple[MapBuild, bool]:
    """Hand edits -> override rows, then the build again (which must now make the edited files)."""
    found = adopt.adopt(b)
    if not found:
        print(f"  {map_id}: no hand-edited terrain, hexsides or paths to adopt")
        return b, False
    overrides = b.cfg.path(".overrides.csv")
    for item in found:
        adopt.append_rows(overrides, item.rows)
        print(f"  {map_id}: {len(item.rows)} override row(s) from {item.file.name} added to {overrides.name}")
    b = build_map(game_dir, map_id)
    left = [a.file.name for a in adopt.adopt(b) if a.rows]
    if left:
        raise adopt.AdoptError(f"after adopting, the build still differs from {', '.join(left)}")
    return b, True


def summary(game_dir: Path, map_id: str, b: MapBuild) -> str:
    cal = b.cal
    return (f"{game_dir.name}/{map_id}: residual rms {cal.rms_km:.2f} km, max {cal.max_km:.2f} km "
            f"(half hex {cal.half_hex_km:.2f}), shifted_columns {cal.shifted_columns}, "
            + ", ".join(f"{k} {v * 100:.0f}%" for k, v in b.shares().items()))


if __name__ == "__main__":
    sys.exit(main())
