"""SPI Korea: The Mobile War (1971) counters.

Strength-movement values (``10-3``, ``25-2``); Chinese gold, North Korean
brown, UN green; UN units other than US carry a nationality letter (S, B, T,
P) printed top-left, which the generic layout takes from
``Nationality.letter``.  Counters have one side, so there is no reduced look
to override.  Supply and naval units (NG, MST, Amph) are ordinary counters
whose unit types draw the supply bar or ship symbols.  The rules describe no
red movement allowance (that is KWB's 2.3.1), so values print in one colour
even for units the data calls mobile.
"""

from scenarios.model import Game, MarkerType, Step, Unit

from art.canvas import Canvas, Face, darker, is_dark
from art.styles.base import CounterStyle


class SpiStyle(CounterStyle):
    name = "spi"

    def value_runs(self, game: Game, unit: Unit, step: Step) -> list[tuple[str, tuple]]:
        return [(step.text, self.text_colour(game, unit))]

    def marker_face(self, game: Game, marker: MarkerType, index: int, text: str, scale: int,
                    trace: bool) -> Face:
        """Entrenched and other SPI markers: a plain counter with a bold word
        and, for the Entrenched marker, a row of earthwork ticks."""
        if "entrench" not in (marker.id + marker.name).lower():
            return super().marker_face(game, marker, index, text, scale, trace)
        bg = self.marker_background(game, marker, index)
        ink = (255, 255, 255) if is_dark(bg) else (0, 0, 0)
        c = Canvas(scale, bg, trace)
        w = c.line_width(1.5)
        y = 24 * c.px_per_unit
        left, right = 10 * c.px_per_unit, 65 * c.px_per_unit
        c.draw.line((left, y, right, y), fill=ink, width=w)
        step = (right - left) / 8
        for i in range(9):
            x = left + i * step
            c.draw.line((x, y, x - step / 2, y + 6 * c.px_per_unit), fill=ink, width=w)
        c.wrapped(text, c.rect(6, 36, 69, 68), ink, start=15)
        c.border(darker(bg, 0.55), 1.0)
        return c.finish(str(index))
