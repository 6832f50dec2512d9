"""Draw piles (VASSAL decks): the buildFile ``DrawPile`` and the deck a saved game holds.

A deck appears twice. The module's buildFile has a ``VASSAL.build.module.map.DrawPile`` (where
the pile sits, how it draws); a saved game holds the deck itself, an AddPiece whose type is the
deck's whole configuration (``VASSAL/counters/Deck.java``, ``getType``/``myRefreshType``) and
whose state lists the cards. When a game is loaded the saved type is what the engine uses, so a
setup must write the same configuration the DrawPile has: :class:`DeckSpec` gives both from one
place.

    spec = DeckSpec("Cup of SNAFU", draw_face_up=True)
    component(game_map, "map.DrawPile", **spec.drawpile_attributes(x=120, y=80))
    writer.add_deck("deck-snafu", spec, "Boxes", 120, 80, ["snafu-1", "snafu-2"])
"""

from __future__ import annotations

from dataclasses import dataclass

from .sequence import SequenceEncoder, encode, string_array
from .traits import Color, encode_color, encode_key

DECK_ID = "deck;"
ALWAYS = "Always"
NEVER = "Never"


@dataclass(frozen=True)
class DeckSpec:
    """A draw pile's configuration (the engine's defaults unless given).

    ``shuffle`` ``Always``: every draw takes a random card (``Deck.drawCards``); ``face_down``
    ``Always``: cards lie face down (each card needs a Mask trait to show its back);
    ``draw_face_up``: a drawn card is turned face up for everyone (else it stays masked to all but
    the drawer). ``owners`` with ``restrict_access``: only those sides may draw.
    """

    name: str
    width: int = 60
    height: int = 60
    face_down: str = ALWAYS
    shuffle: str = ALWAYS
    draw_face_up: bool = False
    allow_multiple: bool = False
    allow_select: bool = False
    reversible: bool = False
    draw_outline: bool = True
    color: Color = (0, 0, 0)
    max_stack: int = 10
    restrict_access: bool = False
    owners: tuple[str, ...] = ()
    shuffle_command: str = "Shuffle"
    reverse_command: str = "Reverse"
    draw_multiple_message: str = "Draw multiple cards"
    draw_specific_message: str = "Draw specific cards"
    face_up_message: str = "Face up"
    face_down_message: str = "Face down"
    select_display_property: str = "$BasicName$"

    def type_string(self) -> str:
        """The deck's type in a saved game, field for field as ``Deck.getType`` writes it."""
        se = SequenceEncoder(";")
        se.add_bool(self.draw_outline).add(encode_color(self.color)).add_int(self.width).add_int(self.height)
        se.add(self.face_down).add(self.shuffle).add_bool(self.allow_multiple).add_bool(self.allow_select)
        se.add_bool(self.reversible)
        se.add("").add("").add("")  # reshuffle command, target, report: no "send to another deck"
        se.add(self.name)
        se.add("").add("").add("")  # shuffle, reverse and face-down reports: none
        se.add_bool(self.draw_face_up).add_bool(False)  # persistable (save/load deck): off
        se.add(encode_key(None)).add(encode_key(None))  # shuffle and reshuffle keys
        se.add_int(self.max_stack)
        se.add(string_array([])).add_bool(False)  # count expressions: none
        se.add(string_array([]))  # deck global key commands: none
        se.add_bool(False).add(encode_key(None))  # key on empty: none
        se.add(self.select_display_property).add("")  # sort property
        se.add_bool(False).add("")  # restrict what the deck accepts: no
        se.add(self.shuffle_command).add(self.reverse_command).add(encode_key(None))
        se.add(self.draw_multiple_message).add(self.draw_specific_message)
        se.add(self.face_up_message).add(self.face_down_message)
        se.add(encode_key(None)).add("").add(encode_key(None)).add(encode_key(None))  # face keys, report
        se.add("Save Deck").add(encode_key(None)).add("Deck Saved")
        se.add("Load Deck").add(encode_key(None)).add("Deck Loaded")
        se.add_bool(self.restrict_access).add(string_array(self.owners))
        return DECK_ID + se.value()

    def state_string(self, map_id: str, x: int, y: int, card_ids: list[str]) -> str:
        """``Deck.getState``: map, position, face down now, the cards bottom first."""
        fields = [map_id, str(x), str(y), "true" if self.face_down != NEVER else "false"]
        if card_ids:
            fields.append(encode(card_ids, ","))
        return encode(fields, ";")

    def drawpile_attributes(self, x: int, y: int, owning_board: str = "") -> dict[str, object]:
        """The buildFile ``DrawPile`` attributes of the same configuration."""
        return dict(
            name=self.name, owningBoard=owning_board, x=x, y=y, width=self.width, height=self.height,
            faceDown=self.face_down, drawFaceUp=self.draw_face_up, shuffle=self.shuffle,
            shuffleCommand=self.shuffle_command, allowMultiple=self.allow_multiple,
            drawMultipleMessage=self.draw_multiple_message, allowSelect=self.allow_select,
            drawSpecificMessage=self.draw_specific_message, selectDisplayProperty=self.select_display_property,
            reversible=self.reversible, reverseCommand=self.reverse_command, draw=self.draw_outline,
            color=encode_color(self.color), faceUpMessage=self.face_up_message,
            faceDownMessage=self.face_down_message, reshufflable=False, canSave=False,
            maxStack=self.max_stack, expressionCounting=False, restrictOption=False,
            deckRestrictAccess=self.restrict_access, deckOwners=string_array(self.owners))
