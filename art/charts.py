"""Chart images from ``Table`` objects — the same tables the adjudicator reads.

A chart is a title bar, a header row and the printed rows, cells word-wrapped
into columns sized by their content.  A stand-in table (its source starts
with "stand-in") gets a red banner on the image itself:
"STAND-IN — not the publisher's table: <reason>", so nobody mistakes it for
the published chart inside the module.
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from scenarios.model import Table

from art.fonts import font, wrap_lines

MAX_COL_PX = 260  # wider cells wrap
BANNER = (190, 20, 20)
HEADER_BG = (60, 70, 90)
ROW_BG = ((255, 255, 255), (236, 238, 242))


def stand_in_banner(table: Table) -> str:
    """The text of the stand-in banner, or "" for a published table."""
    if not table.source.is_stand_in:
        return ""
    reason = table.source.reason or "no reason given"
    return f"STAND-IN \u2014 not the publisher's table: {reason}"


def render_table(table: Table, scale: int = 1) -> Image.Image:
    pad = 5 * scale
    body = font(13 * scale)
    bold = font(13 * scale, bold=True)
    title_font = font(17 * scale, bold=True)
    max_col = MAX_COL_PX * scale
    line_h = body.getmetrics()[0] + body.getmetrics()[1]

    columns = list(table.columns)
    # The key column (die roll, turn...) prints bold, like the row headings of a printed chart.
    cell_fonts = [bold if i == 0 and table.key == c else body for i, c in enumerate(columns)]
    header = [wrap_lines(c, bold, max_col) for c in columns]
    cells = [[wrap_lines(str(row.get(c, "")), cell_fonts[i], max_col) for i, c in enumerate(columns)]
             for row in table.rows]
    widths = []
    for i, _ in enumerate(columns):
        measured = [bold.getlength(t) for t in header[i]]
        measured += [cell_fonts[i].getlength(t) for row in cells for t in row[i]]
        widths.append(math.ceil(max(measured + [8 * scale])) + 2 * pad)
    table_w = sum(widths)

    width = max(table_w, 320 * scale) + 2 * pad
    title_lines = wrap_lines(table.name, title_font, width - 2 * pad)
    banner = stand_in_banner(table)
    banner_lines = wrap_lines(banner, bold, width - 4 * pad) if banner else []
    note_lines = wrap_lines(table.note, body, width - 2 * pad) if table.note else []
    source = f"Source: {table.source.text}" if table.source.text and not banner else ""
    note_lines += wrap_lines(source, body, width - 2 * pad) if source else []

    title_h = len(title_lines) * (title_font.getmetrics()[0] + title_font.getmetrics()[1]) + pad
    banner_h = (len(banner_lines) * line_h + 2 * pad) if banner else 0
    header_h = max(len(h) for h in header) * line_h + 2 * pad if columns else 0
    row_hs = [max((len(c) for c in row), default=1) * line_h + 2 * pad for row in cells]
    notes_h = len(note_lines) * line_h + (2 * pad if note_lines else 0)
    height = pad + title_h + banner_h + header_h + sum(row_hs) + notes_h + pad

    img = Image.new("RGB", (width, height), (250, 248, 240))
    draw = ImageDraw.Draw(img)
    y = pad
    for line in title_lines:
        draw.text((pad, y), line, font=title_font, fill=(0, 0, 0))
        y += title_font.getmetrics()[0] + title_font.getmetrics()[1]
    y += pad
    if banner:
        draw.rectangle((pad, y, width - pad, y + banner_h - pad // 2), fill=BANNER)
        ty = y + pad
        for line in banner_lines:
            draw.text((2 * pad, ty), line, font=bold, fill=(255, 255, 255))
            ty += line_h
        y += banner_h
    x0 = pad
    # header
    draw.rectangle((x0, y, x0 + table_w, y + header_h), fill=HEADER_BG)
    x = x0
    for i, lines in enumerate(header):
        _cell(draw, lines, bold, x, y, widths[i], pad, line_h, (255, 255, 255))
        x += widths[i]
    y += header_h
    for r, (row, h) in enumerate(zip(cells, row_hs)):
        draw.rectangle((x0, y, x0 + table_w, y + h), fill=ROW_BG[r % 2])
        x = x0
        for i, lines in enumerate(row):
            _cell(draw, lines, cell_fonts[i], x, y, widths[i], pad, line_h, (0, 0, 0))
            x += widths[i]
        y += h
    # grid lines
    top = pad + title_h + banner_h
    x = x0
    for w in widths:
        draw.line((x, top, x, y), fill=(150, 150, 150))
        x += w
    draw.line((x, top, x, y), fill=(150, 150, 150))
    draw.rectangle((x0, top, x0 + table_w, y), outline=(60, 60, 60), width=max(1, scale))
    y += pad
    for line in note_lines:
        draw.text((pad, y), line, font=body, fill=(50, 50, 50))
        y += line_h
    return img


def _cell(draw, lines, fnt, x, y, width, pad, line_h, fill) -> None:
    """Short cells are centred; wrapped (multi-line) cells read better ranged left."""
    ty = y + pad
    for line in lines:
        w = fnt.getlength(line)
        left = x + pad if len(lines) > 1 else x + (width - w) / 2
        draw.text((left, ty), line, font=fnt, fill=fill)
        ty += line_h
