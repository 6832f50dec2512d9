"""Per-game counter styles; ``style_for`` picks one by game id.

A game without a style of its own (the example game, a new game) gets the
generic look, so every game with data renders.
"""

from scenarios.model import Game

from art.styles.base import CounterStyle
from art.styles.fireandice import FireAndIceStyle
from art.styles.holdfast import HoldFastStyle
from art.styles.kwb import KwbStyle
from art.styles.spi import SpiStyle

STYLES: dict[str, type[CounterStyle]] = {
    "kwb": KwbStyle,
    "spi": SpiStyle,
    "holdfast": HoldFastStyle,
    "fireandice": FireAndIceStyle,
}


def style_for(game: Game) -> CounterStyle:
    return STYLES.get(game.id, CounterStyle)()


__all__ = ["CounterStyle", "STYLES", "style_for"]
