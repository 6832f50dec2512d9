"""A whole game piece: an ordered list of traits, outermost first, :class:`BasicPiece` last.

The engine nests traits like Russian dolls (``VASSAL/counters/Decorator.java``): each trait's
type is ``SequenceEncoder(myType, TAB).append(innerType)``, so the inner part is escaped once
per level, and the state has the same shape. Inside a module a definition is an AddPiece
command ``+/null/type/state`` (``VASSAL/build/module/BasicCommandEncoder.java``).

>>> from vassalfmt.traits import BasicPiece, Marker
>>> p = Piece([Marker.of(Side="UN"), BasicPiece(image="inf.png", name="1st Cav")])
>>> p.type_string()
'mark;Side\\tpiece;;;inf.png;1st Cav'
>>> parse_piece(p.type_string(), p.state_string()) == p
True
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache

from .errors import VassalFormatError
from .sequence import SequenceDecoder, decode, encode, encode_field
from .traits import (
    BasicPiece,
    Comment,
    DynamicProperty,
    Embellishment,
    Labeler,
    Marker,
    RawTrait,
    Trait,
    UsePrototype,
    parse_trait,
)

#: Deeper nesting than this is refused when reading (real pieces have a few dozen traits).
MAX_TRAITS = 500
#: Characters the nested decoding of one piece may scan in total (each level rescans the rest);
#: keeps a hostile definition from costing more than a moment.
MAX_SCAN_CHARS = 50_000_000


@dataclass
class Piece:
    """Traits, outermost first; the last one is the BasicPiece (or, for odd pieces, a RawTrait)."""

    traits: list[Trait] = field(default_factory=list)

    # --- writing ---

    def type_string(self) -> str:
        self._check()
        return nest_traits([trait.type_string() for trait in self.traits])

    def state_string(self) -> str:
        self._check()
        return nest_traits([trait.state_string() for trait in self.traits])

    def add_piece_command(self, piece_id: str | None = None) -> str:
        """``+/id/type/state``; ``None`` gives the ``null`` id used in palettes and prototypes."""
        return add_piece_command(piece_id, self.type_string(), self.state_string())

    def _check(self) -> None:
        if not self.traits:
            raise ValueError("a piece needs at least its BasicPiece")
        for trait in self.traits[:-1]:
            if isinstance(trait, BasicPiece):
                raise ValueError("BasicPiece must be the last (innermost) trait")
        if len(self.traits) > 1 and "\t" in self.traits[-1].type_string():
            # The innermost type is not escaped by any level of its own: the engine would split
            # it at the tab and lose the piece.
            raise ValueError("the BasicPiece's image and name cannot contain a tab")

    # --- reading ---

    @property
    def basic(self) -> BasicPiece | None:
        last = self.traits[-1] if self.traits else None
        return last if isinstance(last, BasicPiece) else None

    @property
    def name(self) -> str:
        basic = self.basic
        return basic.name if basic else ""

    def find(self, cls: type[Trait]) -> list[Trait]:
        """All traits of one class, outermost first."""
        return [t for t in self.traits if isinstance(t, cls)]

    def prototypes(self) -> list[str]:
        return [t.name for t in self.traits if isinstance(t, UsePrototype)]

    def properties(self) -> dict[str, str]:
        """Property values a program can read off the piece, as the engine would see them.

        Marker and Dynamic Property values, Text Label texts (under their property name),
        Layer levels (``<layer>_Level``) and the BasicPiece's persistent properties. Where two
        traits define the same name, the outer one wins, as in the engine.
        """
        props: dict[str, str] = {}
        for trait in reversed(self.traits):
            if isinstance(trait, BasicPiece):
                props.update(trait.properties)
                if trait.name:
                    props["BasicName"] = trait.name
            elif isinstance(trait, Marker):
                props.update(trait.as_dict())
            elif isinstance(trait, DynamicProperty):
                props[trait.name] = trait.value
            elif isinstance(trait, Labeler) and trait.property_name:
                props[trait.property_name] = trait.label
            elif isinstance(trait, Embellishment) and trait.name:
                props[trait.name + "_Level"] = str(abs(trait.level))
                props[trait.name + "_Active"] = "true" if trait.active else "false"
        # A layer that follows a property shows the level that property selects, not the level
        # in its saved state (Embellishment.checkPropertyLevel); the property may come from any
        # trait, so this needs the collected values.
        for trait in self.traits:
            if isinstance(trait, Embellishment) and trait.name and trait.follow_property:
                level = followed_level(trait, props.get(trait.property_name, ""))
                if level is not None:
                    props[trait.name + "_Level"] = str(level)
        return props


def nest_traits(texts: list[str]) -> str:
    """A piece's type (or state) from its traits' own, outermost first: each trait's text
    wraps everything inside it."""
    text = texts[-1]
    for outer in reversed(texts[:-1]):
        text = _nest(outer, text)
    return text


def _nest(outer: str, inner: str) -> str:
    """``encode([outer, inner], TAB)``, written out: a setup nests every trait of every
    piece this way (tens of thousands of calls), and the general encoder's checks and
    generator were a tenth of a module rebuild."""
    return encode_field(outer, "\t", True) + "\t" + encode_field(inner, "\t", False)


def followed_level(layer: Embellishment, value: str) -> int | None:
    """The level a follow-property layer shows for ``value`` (None if not a number)."""
    text = value or str(layer.first_level_value)
    try:
        level = int(text) - layer.first_level_value + 1
    except ValueError:
        return None
    return max(1, min(level, len(layer.image_names)))


def add_piece_command(piece_id: str | None, type_string: str, state_string: str) -> str:
    """The AddPiece command text ``+/id/type/state`` (with ``/`` escaped inside fields)."""
    return "+/" + encode(["null" if piece_id is None else piece_id, type_string, state_string], "/")


def split_piece_type(type_string: str) -> list[str]:
    """Split a nested piece type into its trait types, outermost first (as the engine does)."""
    return _split_nested(type_string, limit=MAX_TRAITS)


def basic_state(state_string: str) -> str:
    """The innermost (BasicPiece) state of a piece's state: where it stands (``map;x;y;...``),
    read without parsing its traits (a replay reads it after every command)."""
    return nested_states(state_string)[-1] if state_string else ""


@lru_cache(maxsize=64)
def nested_states(state_string: str) -> tuple[str, ...]:
    """A piece's state split at each trait's level, outermost first, the BasicPiece's (where it
    stands) last. Kept for the last few states: a replay asks for where a changed piece stands and
    then what it is, of the same state."""
    return tuple(_split_nested(state_string, limit=10_000))


class StateSplits:
    """Piece states split at each trait's level (`nested_states`), each distinct state once.

    The readers of one log meet the same states one after another, tens of thousands of commands
    apart: the saved-game reader, the replay's board, the log check's board and identities (issue
    53: each state was split three times). They share one of these, kept with the commands the
    reader parsed (`vassalfmt.commands.ParsedStream`), so it lives as long as those."""

    def __init__(self) -> None:
        self._split: dict[str, tuple[str, ...]] = {}

    def of(self, state_string: str) -> tuple[str, ...]:
        found = self._split.get(state_string)
        if found is None:
            found = self._split[state_string] = tuple(_split_nested(state_string, limit=10_000))
        return found

    def basic(self, state_string: str) -> str:
        """`basic_state`, of a state split once."""
        return self.of(state_string)[-1] if state_string else ""


def _split_nested(text: str, limit: int) -> list[str]:
    out = []
    rest: str | None = text
    scanned = 0
    while rest is not None:
        if len(out) >= limit:
            raise VassalFormatError(f"piece has more than {limit} traits")
        scanned += len(rest)
        if scanned > MAX_SCAN_CHARS:
            raise VassalFormatError("piece definition is too large or too deeply nested")
        d = SequenceDecoder(rest, "\t")
        out.append(d.next_token())
        rest = d.next_token() if d.has_more() else None
    return out


def _split_states(state_string: str, count: int) -> list[str]:
    """Split the state alongside the types, as ``Decorator.setState`` does.

    Each decorator takes one field and hands the rest on; the innermost piece gets the whole
    remainder. Missing states are empty (the engine would fail).
    """
    states = []
    rest: str | None = state_string
    for i in range(count):
        if rest is None:
            states.append("")
            continue
        if i == count - 1:
            states.append(rest)
            break
        d = SequenceDecoder(rest, "\t")
        states.append(d.next_token())
        rest = d.next_token() if d.has_more() else None
    return states


def parse_piece(type_string: str, state_string: str = "") -> Piece:
    """Read a piece definition (type and state) back into traits."""
    types = split_piece_type(type_string)
    states = _split_states(state_string, len(types))
    traits = []
    for i, (t, s) in enumerate(zip(types, states)):
        innermost = i == len(types) - 1
        if innermost and not t.startswith(BasicPiece.ID):
            traits.append(RawTrait(type=t, state=s))  # e.g. a Deck or a custom basic piece
        else:
            traits.append(parse_trait(t, s))
    return Piece(traits)


def parse_add_piece_command(command: str) -> tuple[str | None, Piece]:
    """Read ``+/id/type/state`` into (id or None, Piece)."""
    if not command.startswith("+/"):
        raise VassalFormatError(f"not an AddPiece command: {command[:40]!r}")
    fields = decode(command[2:], "/")
    if len(fields) < 3:
        raise VassalFormatError(f"AddPiece command with {len(fields)} fields: {command[:60]!r}")
    piece_id = None if fields[0] == "null" else fields[0]
    return piece_id, parse_piece(fields[1], fields[2])


#: Prototypes may use prototypes; deeper than this is treated as a loop.
MAX_PROTOTYPE_DEPTH = 30


def expand_prototypes(piece: Piece, prototypes: Mapping[str, Piece], drop_comments: bool = True,
                      _depth: int = 0, copy_traits: bool = True) -> Piece:
    """Replace every UsePrototype by the prototype's traits, as the engine does for real pieces.

    Why this matters for saved games: the engine stores a piece's state trait by trait, and a
    ``prototype;`` trait has no state of its own. Pieces the engine creates (palette drags,
    at-start stacks) are expanded copies (``VASSAL/counters/PieceCloner.java``), so e.g. a
    Dynamic Property defined in a prototype keeps its value in saves and its changes are sent
    to the other players. A hand-written setup must therefore hold expanded pieces too.

    Mirrors ``PieceCloner.clonePiece``: the prototype's traits (all but its BasicPiece, with the
    prototype definition's states) take the UsePrototype's place, nested prototypes are expanded
    too, a missing prototype contributes nothing, and Comment traits are dropped.
    Prototype parameters (``$name$`` substitution) are not applied.

    The traits are independent copies, so the result may be changed freely; a caller that only
    encodes the result at once may pass ``copy_traits=False`` to share the prototypes' and the
    piece's own trait objects instead (copying was a third of assembling a module's setups).
    """
    if _depth > MAX_PROTOTYPE_DEPTH:
        raise VassalFormatError("prototypes refer to each other in a loop (or nest too deeply)")
    traits = []
    for trait in piece.traits:
        if isinstance(trait, UsePrototype):
            definition = prototypes.get(trait.name)
            if definition is None or not definition.traits:
                continue
            # The recursive call has copied them already (when copying): no second copy.
            inner = expand_prototypes(definition, prototypes, drop_comments, _depth + 1, copy_traits)
            decorators = inner.traits[:-1] if isinstance(inner.traits[-1], BasicPiece) \
                else inner.traits
            traits.extend(decorators)
        elif isinstance(trait, Comment) and drop_comments:
            continue
        else:
            traits.append(copy_trait(trait) if copy_traits else trait)
    return Piece(traits)


#: Values that are never changed in place, so a copy may share them.
_IMMUTABLE = (str, int, float, bool, type(None), bytes)


def copy_trait(value):
    """An independent copy of a trait (or of any value inside one), like ``copy.deepcopy``.

    Why not ``deepcopy`` itself: a setup expands the prototypes of every piece it writes,
    and ``deepcopy``'s generic machinery (memo dict, ``__reduce_ex__``) was a third of a
    module rebuild. Traits hold only strings, numbers, lists, dicts and small dataclasses,
    which this copies directly; anything else still goes through ``deepcopy``.
    """
    if isinstance(value, _IMMUTABLE):
        return value
    kind = type(value)
    if kind is list:
        return [copy_trait(v) for v in value]
    if kind is dict:
        return {k: copy_trait(v) for k, v in value.items()}
    names = _dataclass_field_names(kind)
    if names is None:
        return copy.deepcopy(value)
    new = copy.copy(value)
    for name in names:
        old = getattr(value, name)
        if not isinstance(old, _IMMUTABLE):
            object.__setattr__(new, name, copy_trait(old))  # also works on frozen dataclasses
    return new


@lru_cache(maxsize=None)
def _dataclass_field_names(kind: type) -> tuple[str, ...] | None:
    """The field names of a dataclass type (None for other types)."""
    if not dataclasses.is_dataclass(kind):
        return None
    return tuple(f.name for f in dataclasses.fields(kind))
