"""HoldFast Korea blocks (Worthington, 2015), rules 2-4.

A block stands upright facing its owner and loses strength by turning: the
label prints the strength on each edge, and the edge at the top is the
current SP.  So a block has ONE label; its step images are that label turned
a quarter turn clockwise per step (step k shows ``steps[k]`` on top), which
is what the module's rotate trait would show too.  Red blocks are Communist,
blue UN (colours from the data).  Two-block units (8/4 Chinese armies, the
6 and 2-1 Marine blocks) are two units in the data, each drawn here.

Fog of war (rules 3): the opponent sees only a block's back, a plain block
in its side's colour.  ``block_back`` draws it, same size and edges as a
label so a hidden block and a revealed one line up on the map.
"""

from PIL import Image

from scenarios.model import Game, MarkerType, Unit

from art.canvas import Canvas, Face, darker, mix, rgb, rotate_canvas_ccw
from art.nato import draw_unit_symbol
from art.styles.base import NEUTRAL_MARKER, WHITE, CounterStyle, side_colour

EDGES = 4


class HoldFastStyle(CounterStyle):
    name = "holdfast"

    def unit_faces(self, game: Game, unit: Unit, scale: int = 1, trace: bool = False) -> list[Face]:
        label = self.block_label(game, unit, scale, trace)
        faces = []
        for k, step in enumerate(unit.steps):
            image, mask = label.image, label.text_mask
            for _ in range(k % EDGES):
                image = image.transpose(Image.Transpose.ROTATE_270)  # a quarter turn clockwise
                mask = mask.transpose(Image.Transpose.ROTATE_270) if mask is not None else None
            faces.append(Face(step.name, image, mask))
        return faces

    def block_label(self, game: Game, unit: Unit, scale: int, trace: bool) -> Face:
        """The label with steps[0] on the top edge, steps[1] on the left,
        steps[2] at the bottom, steps[3] on the right (each upright when its
        edge is turned to the top)."""
        block = rgb(self.nationality(game, unit).background)
        ink = self.text_colour(game, unit)
        c = Canvas(scale, darker(block, 0.25), trace)
        c.fill(c.rect(3, 3, 72, 72), block)
        strengths = [s.text for s in unit.steps[:EDGES]]
        for i in reversed(range(EDGES)):
            rotate_canvas_ccw(c)
            if i < len(strengths):
                c.text(strengths[i], c.rect(24, 4, 51, 20), ink, bold=True)
        draw_unit_symbol(c.image, c.rect(24, 22, 51, 40), self.symbol(game, unit), ink,
                         mix(block, WHITE, 0.3), c.line_width(1.2))
        c.text(unit.designation, c.rect(21, 41, 54, 53), ink, bold=True, start=11)
        c.border(darker(block, 0.6), 1.0)
        return c.finish(unit.steps[0].name)

    def block_back(self, game: Game, side: str, scale: int = 1) -> Image.Image:
        """The back of a ``side`` block: its colour and edges, no label (what
        the opponent sees of a block standing upright facing its owner)."""
        block = rgb(side_colour(game, side))
        c = Canvas(scale, darker(block, 0.25))
        c.fill(c.rect(3, 3, 72, 72), block)
        c.border(darker(block, 0.6), 1.0)
        return c.finish(f"back {side}").image

    def marker_face(self, game: Game, marker: MarkerType, index: int, text: str, scale: int,
                    trace: bool) -> Face:
        """A side's block (RP, support) in its colour; the turn and weather labels "should be
        placed on blue blocks" (3): the blue block shows as a rim around a neutral label, so
        the turn block is never taken for a UN unit."""
        if marker.side:
            return super().marker_face(game, marker, index, text, scale, trace)
        block = rgb(side_colour(game, "un")) if "un" in game.sides else rgb("#3a66b0")
        label = rgb(NEUTRAL_MARKER)
        label = darker(label, 0.18) if index % 2 else label
        c = Canvas(scale, darker(block, 0.25), trace)
        c.fill(c.rect(3, 3, 72, 72), block)
        c.fill(c.rect(8, 8, 67, 67), label, outline=darker(label, 0.4), width_units=0.8)
        c.wrapped(text, c.rect(10, 11, 65, 64), (0, 0, 0), start=17)
        c.border(darker(block, 0.6), 1.0)
        return c.finish(str(index))
