"""Cups and random pools as VASSAL draw piles.

Each box with ``draw`` (``scenarios.model.DRAW_KINDS``) becomes a DrawPile on the *Boxes* map,
sitting on its box: shuffled, face down, one piece drawn at random per drag.  How a drawn piece
shows follows the box's ``draw``:

- ``open`` (combat chits, SNAFU, random regiments): turned face up for everyone as it is drawn;
- ``secret`` and ``unseen`` (support fire, objectives): it stays masked to all but the owning
  side, as a HoldFast block is (``sides:`` access), and only that side reveals it, when the rule
  the box's ``reveal`` quotes says so;
- a sealed pool (``placeholders``: KWB's scratch units, which nobody may see, not even their
  owner) holds identical placeholder counters, drawn face up: each shows the same face to both
  sides and nothing in the piece says which counter it stands for. The adjudicator draws that
  when the rules reveal it, and the Adjudicator extension turns the placeholder into the counter.

Every piece of a pool carries the mask (a face-down deck shows a card's mask, the pool's back)
and, when the box says when it ``returns``, a *Return* command that puts it back in the pile.
The mask's name is the pool's back label, so neither the deck, the chat nor the inventory names
a face-down piece's value.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scenarios.model import DRAW_OPEN, Box, Game
from scenarios.pools import MARKER_PREFIX, shown_contents
from vassalfmt import DeckSpec, Obscurable, RawTrait, ReturnToDeck, Trait, access_sides, key
from vassalfmt.sequence import encode

HIDE = key("Ctrl+H")
RETURN = key("Ctrl+U")
DECK_MARGIN = 8


def owner_only_reveal(side_name: str) -> RawTrait:
    """Restrict Commands (``hideCmd;``): the Ctrl+H key does nothing unless the current
    player's side owns the piece.

    Why, on top of the mask's own access: the engine keeps Reveal/Hide out of the opponent's
    menu, but it still obeys the Ctrl+H *key* on a revealed enemy piece (Obscurable masks any
    unmasked piece for the current side), which would mask the piece for a side its access
    list excludes, so nobody could see it.  Type fields: name, action ("Hide" the command),
    the BeanShell filter on the global ``PlayerSide``, the watched keys (a ``,``-list).
    """
    watched = encode([HIDE.encode()], ",")
    fields = ["only the owning side reveals or hides", "Hide", f'{{PlayerSide!="{side_name}"}}', watched]
    return RawTrait(type="hideCmd;" + encode(fields, ";"))


def is_hidden_pool(box: Box) -> bool:
    """A pool whose drawn pieces stay hidden from the other side (``secret``, ``unseen``)."""
    return box.draw != DRAW_OPEN and bool(box.side)


def back_label(box: Box) -> str:
    return box.back or box.name


def deck_spec(game: Game, box: Box, counter: int) -> DeckSpec:
    """The pile's configuration: a side's pool only that side may draw from."""
    owners = (game.sides[box.side].name,) if box.side else ()
    return DeckSpec(box.name, width=counter + DECK_MARGIN, height=counter + DECK_MARGIN,
                    draw_face_up=box.draw == DRAW_OPEN or bool(box.placeholders), restrict_access=bool(owners),
                    owners=owners)


@dataclass
class PoolPlan:
    """Which pool each piece belongs to, and the traits that make it a card of that pool."""

    game: Game
    backs: dict[str, str]  # box id -> back image
    member_of: dict[str, Box] = field(default_factory=dict)  # unit id or marker:<id> -> pool

    @classmethod
    def of(cls, game: Game, backs: dict[str, str]) -> PoolPlan:
        plan = cls(game, backs)
        for scenario in game.scenarios.values():
            for box_id, contents in shown_contents(game, scenario).items():
                for entry in contents:
                    plan.member_of.setdefault(entry, game.boxes[box_id])
        for box in game.boxes.values():
            for marker in game.markers.values():
                if box.draw and box.holds and marker.kind == box.holds and marker.side in ("", box.side):
                    plan.member_of.setdefault(MARKER_PREFIX + marker.id, box)
        return plan

    def pool_of(self, entry: str) -> Box | None:
        return self.member_of.get(entry)

    def traits(self, entry: str) -> list[Trait]:
        """The mask (and Return command) of a pool's piece; none for any other piece, nor for a sealed
        pool's placeholders (all alike: they hide nothing)."""
        box = self.pool_of(entry)
        if box is None or box.placeholders:
            return []
        label = back_label(box)
        traits: list[Trait] = []
        if is_hidden_pool(box):
            side = self.game.sides[box.side].name
            traits.append(owner_only_reveal(side))
            traits.append(Obscurable(
                key=HIDE, image=self.backs[box.id], hide_command=f"Reveal/Hide ({box.reveal})" if box.reveal
                else "Reveal/Hide", display_style="I", mask_name=label, access=access_sides([side]),
                description=f"{box.name}: hidden from the other side; {box.source}"))
        else:
            traits.append(Obscurable(image=self.backs[box.id], hide_command="", display_style="B",
                                     mask_name=label, description=f"{box.name}: face down in the pile"))
        if box.returns:
            traits.append(ReturnToDeck(command_name=f"Return to {box.name}", key=RETURN, deck_name=box.name,
                                       description=f"returns {box.returns}"))
        return traits
