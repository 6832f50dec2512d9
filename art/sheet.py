"""Contact sheets: every counter (all steps) and every marker of a game on
one PNG each, captioned, so a person can review the art at a glance.

    from art.sheet import write_contact_sheets
    write_contact_sheets(game, Path("out"))   # out/<game>-counters.png, out/<game>-markers.png

The lead wires this to ``modgen sheet <game>``.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

from scenarios.model import Game

from art.canvas import Face
from art.counters import unit_faces
from art.fonts import Rect, draw_fitted
from art.markers import marker_faces
from art.render import encode_png

CAPTION = 14
GAP = 6
ROW_FACES = 16  # counters per row of a sheet


def _sheet(title: str, entries: list[tuple[str, list[Face]]], scale: int) -> Image.Image:
    """Entries flowed left to right, wrapping at ``ROW_FACES`` counters per
    row; each entry shows all its faces side by side, captioned with its id."""
    if not entries:
        entries = [("(none)", [])]
    face_px = max((f.image.width for _, faces in entries for f in faces), default=75 * scale)
    step = face_px + 2 * scale
    gap = GAP * scale
    caption = CAPTION * scale
    row_h = face_px + caption + gap
    row_w = ROW_FACES * step
    title_h = 28 * scale

    # Lay out first (so the image can be sized), then draw.
    places: list[tuple[int, int]] = []
    x = y = 0
    for _, faces in entries:
        w = max(1, len(faces)) * step
        if x and x + w > row_w:
            x, y = 0, y + row_h
        places.append((x, y))
        x += w + gap
    width = max(row_w, 300 * scale) + 2 * gap
    height = title_h + y + row_h + gap
    img = Image.new("RGB", (width, height), (255, 255, 255))
    draw_fitted(img, title, Rect(gap, 4 * scale, width - gap, title_h - 4 * scale), (0, 0, 0), bold=True)
    draw = ImageDraw.Draw(img)
    for (label, faces), (x, y) in zip(entries, places):
        x, y = x + gap, y + title_h
        for i, face in enumerate(faces):
            img.paste(face.image, (x + i * step, y))
        span = max(1, len(faces)) * step
        draw_fitted(img, label, Rect(x, y + face_px + scale, x + span - 2 * scale, y + face_px + caption),
                    (40, 40, 40))
        draw.line((x - gap // 2, y, x - gap // 2, y + face_px + caption), fill=(225, 225, 225))
    return img


def counter_sheet(game: Game, scale: int = 1) -> Image.Image:
    entries = [(unit.id, unit_faces(game, unit, scale)) for unit in game.units.values()]
    return _sheet(f"{game.name}: {len(entries)} counters, every step", entries, scale)


def marker_sheet(game: Game, scale: int = 1) -> Image.Image:
    entries = [(m.id, marker_faces(game, m, scale)) for m in game.markers.values()]
    return _sheet(f"{game.name}: {len(entries)} markers, every face", entries, scale)


def write_contact_sheets(game: Game, out_dir: Path, scale: int = 1) -> list[Path]:
    """Write ``<game>-counters.png`` and ``<game>-markers.png``; return their paths."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for kind, image in (("counters", counter_sheet(game, scale)), ("markers", marker_sheet(game, scale))):
        path = out_dir / f"{game.id}-{kind}.png"
        path.write_bytes(encode_png(image))
        paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    """``python -m art.sheet <game id or data dir> [out dir] [--scale N]``
    (``modgen sheet <game>`` calls ``write_contact_sheets`` too)."""
    import argparse

    from scenarios import load_game, load_game_dir

    parser = argparse.ArgumentParser(prog="python -m art.sheet", description=main.__doc__)
    parser.add_argument("game", help="a game id (kwb) or a game data directory (docs/example)")
    parser.add_argument("out", nargs="?", default=".", help="directory for the sheets")
    parser.add_argument("--scale", type=int, default=1)
    args = parser.parse_args(argv)
    game = load_game_dir(args.game) if Path(args.game).is_dir() else load_game(args.game)
    for path in write_contact_sheets(game, Path(args.out), args.scale):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
