"""python -m scenarios.mapbuild <game> [<map>...] [--force] [--check]

Builds every map of the game that has a maps/<map>.geo.cfg (or the maps named).
Exit status 1 with a message per problem when a calibration misses by more than
half a hex, a config is wrong, or a generated terrain grid was edited by hand.
--check builds in memory and fails if any committed file differs (nothing written).
"""

from __future__ import annotations

import argparse
import sys

from scenarios.loader import DATA_ROOT
from scenarios.mapbuild.build import BuildError, build_map, write_map
from scenarios.mapbuild.calibrate import CalibrationError
from scenarios.mapbuild.config import ConfigError, map_ids
from scenarios.mapbuild.output import HandEditedError
from scenarios.mapbuild.overrides import OverrideError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scenarios.mapbuild", description=__doc__.splitlines()[2])
    parser.add_argument("game")
    parser.add_argument("maps", nargs="*")
    parser.add_argument("--force", action="store_true", help="overwrite a hand-edited terrain grid")
    parser.add_argument("--check", action="store_true", help="fail if the committed files are not up to date")
    args = parser.parse_args(argv)
    game_dir = DATA_ROOT / args.game
    if not (game_dir / "game.toml").exists():
        print(f"mapbuild: no game {args.game!r} in {DATA_ROOT}", file=sys.stderr)
        return 2
    ids = args.maps or map_ids(game_dir)
    if not ids:
        print(f"mapbuild: {args.game} has no maps/<map>.geo.cfg", file=sys.stderr)
        return 2
    failed = 0
    for map_id in ids:
        try:
            b = build_map(game_dir, map_id)
        except (BuildError, CalibrationError, ConfigError, OverrideError, KeyError) as err:
            print(f"mapbuild: {args.game}/{map_id}: FAILED\n{err}", file=sys.stderr)
            failed += 1
            continue
        cal = b.cal
        summary = (f"{args.game}/{map_id}: residual rms {cal.rms_km:.2f} km, max {cal.max_km:.2f} km "
                   f"(half hex {cal.half_hex_km:.2f}), shifted_columns {cal.shifted_columns}, "
                   + ", ".join(f"{k} {v * 100:.0f}%" for k, v in b.shares().items()))
        if args.check:
            stale = [s for s, text in b.files.items()
                     if not b.cfg.path(s).exists() or b.cfg.path(s).read_text(encoding="utf-8") != text]
            if stale:
                print(f"mapbuild: {args.game}/{map_id}: out of date: {', '.join(stale)}", file=sys.stderr)
                failed += 1
            else:
                print(summary + " (up to date)")
            continue
        try:
            changed = write_map(b, force=args.force)
        except HandEditedError as err:
            print(f"mapbuild: {err}", file=sys.stderr)
            failed += 1
            continue
        print(summary)
        for path in changed:
            print(f"  wrote {path.relative_to(DATA_ROOT.parent.parent)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
