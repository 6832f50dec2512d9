"""A die type's faces as a bar chart: inline SVG drawn on the server, no script, no library.

One bar per face (its count written on it), a dashed line at the count a fair die would give.
The picture carries its numbers in its label, so a screen reader gets the same as the table beside
it. Element ids for tests: ``dice-chart-d<sides>``, each bar ``data-face`` and ``data-count``.
"""

from __future__ import annotations

from html import escape

from markupsafe import Markup

from adjudicator.ledger.dicestats import DieStats

WIDTH, HEIGHT = 360, 180
MARGIN_LEFT, MARGIN_BOTTOM, MARGIN_TOP = 34, 24, 12
BAR_FILL, UNUSUAL_FILL, EXPECTED_STROKE = "#4f6d8f", "#b3261e", "#222222"


def die_chart(die: DieStats) -> Markup:
    plot_w, plot_h = WIDTH - MARGIN_LEFT - 8, HEIGHT - MARGIN_BOTTOM - MARGIN_TOP
    top = max(max(die.counts, default=0), die.expected, 1) * 1.1
    slot = plot_w / die.sides
    fill = UNUSUAL_FILL if die.unusual else BAR_FILL
    counts = ", ".join(f"{face}: {n}" for face, n in enumerate(die.counts, start=1))
    label = f"d{die.sides} faces, {die.rolls} rolls ({counts}); a fair die gives {die.expected:.1f} each"
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" id="dice-chart-d{die.sides}" class="dice-chart" '
             f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(label)}">',
             f'<title>{escape(label)}</title>']
    base = MARGIN_TOP + plot_h
    parts.append(f'<line x1="{MARGIN_LEFT}" y1="{base}" x2="{WIDTH - 8}" y2="{base}" stroke="#888"/>')
    for face, count in enumerate(die.counts, start=1):
        h = plot_h * count / top
        x = MARGIN_LEFT + (face - 1) * slot + slot * 0.15
        parts.append(f'<rect class="bar" data-face="{face}" data-count="{count}" x="{x:.1f}" y="{base - h:.1f}" '
                     f'width="{slot * 0.7:.1f}" height="{h:.1f}" fill="{fill}"/>')
        parts.append(f'<text x="{x + slot * 0.35:.1f}" y="{base + 16}" text-anchor="middle" font-size="12">{face}</text>')
        if count:
            parts.append(f'<text x="{x + slot * 0.35:.1f}" y="{max(base - h - 3, MARGIN_TOP + 9):.1f}" '
                         f'text-anchor="middle" font-size="10">{count}</text>')
    y = base - plot_h * die.expected / top
    parts.append(f'<line class="expected" x1="{MARGIN_LEFT}" y1="{y:.1f}" x2="{WIDTH - 8}" y2="{y:.1f}" '
                 f'stroke="{EXPECTED_STROKE}" stroke-dasharray="5 4"/>')
    parts.append(f'<text x="{MARGIN_LEFT - 4}" y="{y + 4:.1f}" text-anchor="end" font-size="10">{die.expected:.1f}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))
