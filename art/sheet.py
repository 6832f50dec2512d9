"""Contact sheets: every counter (all steps) and every marker of a game on
one PNG each, captioned, so a person can review the art at a glance.

    from art.sheet import write_sheets
    write_sheets(game, Path("out"))   # out/<game>-counters.png, out/<game>-markers.png

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
PER_ROW = 8  # entries (a unit with its steps) per row


def _sheet(title: str, entries: list[tuple[str, list[Face]]], scale: int) -> Image.Image:
    """Entries side by side, PER_ROW to a row; each entry shows all its faces
    with its caption underneath."""
    if not entries:
        entries = [("(none)", [])]
    face_px = max((f.image.width for _, faces in entries for f in faces), default=75 * scale)
    caption = CAPTION * scale
    widest = max(len(faces) for _, faces in entries) or 1
    cell_w = widest * (face_px + 2 * scale) + GAP * scale
    cell_h = face_px + caption + GAP * scale
    cols = min(PER_ROW, len(entries))
    rows = -(-len(entries) // cols)
    title_h = 28 * scale
    img = Image.new("RGB", (max(cols * cell_w + GAP * scale, 300 * scale), rows * cell_h + title_h + GAP * scale),
                    (255, 255, 255))
    draw_fitted(img, title, Rect(GAP * scale, 4 * scale, img.width - GAP * scale, title_h - 4 * scale),
                (0, 0, 0), bold=True)
    draw = ImageDraw.Draw(img)
    for n, (label, faces) in enumerate(entries):
        x = GAP * scale + (n % cols) * cell_w
        y = title_h + (n // cols) * cell_h
        for i, face in enumerate(faces):
            img.paste(face.image, (x + i * (face_px + 2 * scale), y))
        span = max(1, len(faces)) * (face_px + 2 * scale)
        draw_fitted(img, label, Rect(x, y + face_px + scale, x + span - 2 * scale, y + face_px + caption),
                    (40, 40, 40))
        draw.line((x - 3 * scale, y - 2 * scale, x - 3 * scale, y + cell_h - 4 * scale), fill=(220, 220, 220))
    return img


def counter_sheet(game: Game, scale: int = 1) -> Image.Image:
    entries = [(unit.id, unit_faces(game, unit, scale)) for unit in game.units.values()]
    return _sheet(f"{game.name}: {len(entries)} counters, every step", entries, scale)


def marker_sheet(game: Game, scale: int = 1) -> Image.Image:
    entries = [(m.id, marker_faces(game, m, scale)) for m in game.markers.values()]
    return _sheet(f"{game.name}: {len(entries)} markers, every face", entries, scale)


def write_sheets(game: Game, out_dir: Path, scale: int = 1) -> list[Path]:
    """Write ``<game>-counters.png`` and ``<game>-markers.png``; return their paths."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for kind, image in (("counters", counter_sheet(game, scale)), ("markers", marker_sheet(game, scale))):
        path = out_dir / f"{game.id}-{kind}.png"
        path.write_bytes(encode_png(image))
        paths.append(path)
    return paths
