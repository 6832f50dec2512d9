"""Piece traits: the parts a VASSAL game piece definition is made of.

Each trait is a dataclass with ``type_string()`` (the static definition, ``ID`` + ``;``-fields)
and ``state_string()`` (the dynamic part), plus ``parse(type, state)`` to read one back.
Field order and the engine's defaults for missing fields follow VASSAL 3.7.26
(``myGetType``/``mySetType``/``myGetState`` of each class in ``VASSAL/counters/``), because the
engine round-trips every definition it loads and the checker reports any difference.

Traits we do not model are kept verbatim as :class:`RawTrait`, so reading any module's saved
game never loses data.

A whole piece (outermost trait first, :class:`BasicPiece` last) is :class:`vassalfmt.piece.Piece`.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import ClassVar

from .errors import VassalFormatError
from .keys import CTRL_DOWN_MASK, KeyStroke, decode_key_list, encode_key, encode_key_list
from .sequence import (
    SequenceDecoder,
    SequenceEncoder,
    decode,
    encode,
    java_double,
    parse_string_array,
    string_array,
)

Color = tuple[int, int, int]


# --- small shared helpers -------------------------------------------------------------------

def _fields(type_string: str, trait_id: str) -> SequenceDecoder:
    """The ``;``-fields after the trait id (what ``mySetType`` reads)."""
    if not type_string.startswith(trait_id):
        raise VassalFormatError(f"expected a {trait_id!r} trait, got {type_string[:40]!r}")
    return SequenceDecoder(type_string[len(trait_id):], ";")


def _next_key(d: SequenceDecoder, default: KeyStroke | None = None) -> KeyStroke | None:
    """``Decoder.nextNamedKeyStroke``: missing field -> default, empty -> no key."""
    if not d.has_more():
        return default
    return KeyStroke.decode(d.next_token())


def encode_color(color: Color | None) -> str:
    """``ColorConfigurer.colorToString``: ``"r,g,b"``, or ``""`` for no colour."""
    if color is None:
        return ""
    r, g, b = color
    return f"{int(r)},{int(g)},{int(b)}"


def parse_color(text: str) -> Color | None:
    """``ColorConfigurer.stringToColor`` for the forms modules use (``r,g,b[,a]``, ``0xRRGGBB``)."""
    if not text or text == "null":
        return None
    try:
        if text[:2] in ("0x", "0X"):
            value = int(text, 16)
            return ((value >> 16) & 255, (value >> 8) & 255, value & 255)
        parts = [int(p) for p in text.split(",")]
    except ValueError:
        raise VassalFormatError(f"bad colour {text!r}") from None
    if len(parts) < 3:
        raise VassalFormatError(f"bad colour {text!r}")
    return (parts[0], parts[1], parts[2])


def _next_color(d: SequenceDecoder, default: Color | None) -> Color | None:
    """``Decoder.nextColor``: missing -> default, empty -> None."""
    if not d.has_more():
        return default
    return parse_color(d.next_token())


def _java_trim(text: str) -> str:
    """``String.trim``: removes characters up to U+0020 at both ends (not other whitespace)."""
    start, end = 0, len(text)
    while start < end and text[start] <= " ":
        start += 1
    while end > start and text[end - 1] <= " ":
        end -= 1
    return text[start:end]


class Trait:
    """Base of all traits. Subclasses set ``ID`` and implement the three methods."""

    ID: ClassVar[str] = ""

    def type_string(self) -> str:
        raise NotImplementedError

    def state_string(self) -> str:
        return ""

    @classmethod
    def parse(cls, type_string: str, state_string: str = "") -> Trait:
        raise NotImplementedError


# --- BasicPiece (innermost) -------------------------------------------------------------------

@dataclass
class BasicPiece(Trait):
    """``piece;`` — image and name; its state holds the map, position and persistent properties.

    ``map_id`` is the Map's ``mapName`` (``None`` = not on a map, written ``null``).
    ``properties`` are the persistent properties (e.g. the engine's ``UniqueID``).
    """

    ID: ClassVar[str] = "piece;"
    image: str = ""
    name: str = ""
    clone_key: str = ""   # legacy single-character keys; leave empty
    delete_key: str = ""
    map_id: str | None = None
    x: int = 0
    y: int = 0
    gpid: str = ""
    properties: dict[str, str] = field(default_factory=dict)

    def type_string(self) -> str:
        return self.ID + encode([self.clone_key[:1], self.delete_key[:1], self.image, self.name],
                                ";")

    def state_string(self) -> str:
        se = SequenceEncoder(";").add("null" if self.map_id is None else self.map_id)
        se.add_int(self.x).add_int(self.y).add(self.gpid).add_int(len(self.properties))
        for key, value in self.properties.items():
            se.add(key).add(value)
        return se.value()

    @classmethod
    def parse(cls, type_string: str, state_string: str = "") -> BasicPiece:
        d = _fields(type_string, cls.ID)
        clone_key = d.next_char("\0").strip("\0")
        delete_key = d.next_char("\0").strip("\0")
        piece = cls(clone_key=clone_key, delete_key=delete_key, image=d.next_token(""),
                    name=d.next_token(""))
        piece.set_state(state_string)
        return piece

    def set_state(self, state_string: str) -> None:
        s = SequenceDecoder(state_string or None, ";")
        map_id = s.next_token("null")
        self.map_id = None if map_id == "null" else map_id
        self.x = s.next_int(0)
        self.y = s.next_int(0)
        self.gpid = s.next_token("")
        count = s.next_int(0)
        props = {}
        for _ in range(max(0, count)):
            if not s.has_more():
                break
            key = s.next_token("")
            props[key] = s.next_token("")
        self.properties = props


# --- Marker, prototype, comment, separators ----------------------------------------------------

@dataclass
class Marker(Trait):
    """``mark;`` — fixed properties (``keys``) with values kept in the state."""

    ID: ClassVar[str] = "mark;"
    keys: list[str] = field(default_factory=list)
    values: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, **props: str) -> Marker:
        """``Marker.of(UnitId="1-7", Side="UN")``."""
        return cls(keys=list(props), values=[str(v) for v in props.values()])

    def _values(self) -> list[str]:
        vals = list(self.values[: len(self.keys)])
        return vals + [""] * (len(self.keys) - len(vals))

    def type_string(self) -> str:
        return self.ID + encode(self.keys, ",")

    def state_string(self) -> str:
        return encode(self._values(), ",")

    def as_dict(self) -> dict[str, str]:
        return dict(zip(self.keys, self._values()))

    @classmethod
    def parse(cls, type_string: str, state_string: str = "") -> Marker:
        if not type_string.startswith(cls.ID):
            raise VassalFormatError(f"expected a mark; trait, got {type_string[:40]!r}")
        keys = decode(type_string[len(cls.ID):], ",")
        values = [""] * len(keys)
        for i, value in enumerate(decode(state_string, ",")[: len(keys)]):
            values[i] = value
        return cls(keys=keys, values=values)


@dataclass
class UsePrototype(Trait):
    """``prototype;`` — expands the named PrototypeDefinition in place.

    The engine keeps this type verbatim, so it round-trips whatever we write.
    """

    ID: ClassVar[str] = "prototype;"
    name: str = ""
    parameters: dict[str, str] = field(default_factory=dict)

    def type_string(self) -> str:
        if not self.parameters:
            return self.ID + encode([self.name], ";")
        params = encode([encode([k, v], "=") for k, v in self.parameters.items()], ",")
        return self.ID + encode([self.name, params], ";")

    @classmethod
    def parse(cls, type_string: str, state_string: str = "") -> UsePrototype:
        d = _fields(type_string, cls.ID)
        name = d.next_token("")
        params = {}
        if d.has_more():
            for item in decode(d.next_token(), ","):
                kv = decode(item, "=")
                if len(kv) >= 2:
                    params[kv[0]] = kv[1]
        return cls(name=name, parameters=params)


@dataclass
class Comment(Trait):
    """``cmt;`` — a note for module designers (3.7)."""

    ID: ClassVar[str] = "cmt;"
    comment: str = ""

    def type_string(self) -> str:
        return self.ID + encode([self.comment], ";")

    @classmethod
    def parse(cls, type_string: str, state_string: str = "") -> Comment:
        return cls(comment=_fields(type_string, cls.ID).next_token(""))


@dataclass
class SubMenu(Trait):
    """``submenu;`` — folds the named menu commands into a sub-menu."""

    ID: ClassVar[str] = "submenu;"
    menu_name: str = ""
    commands: list[str] = field(default_factory=list)
    description: str = ""

    def type_string(self) -> str:
        return self.ID + encode([self.menu_name, string_array(self.commands), self.description],
                                ";")

    @classmethod
    def parse(cls, type_string: str, state_string: str = "") -> SubMenu:
        d = _fields(type_string, cls.ID)
        return cls(menu_name=d.next_token(""), commands=parse_string_array(d.next_token("")),
                   description=d.next_token(""))


@dataclass
class MenuSeparator(Trait):
    """``menuSeparator;`` — a line in the right-click menu."""

    ID: ClassVar[str] = "menuSeparator;"
    description: str = ""
    key: KeyStroke | None = None

    def type_string(self) -> str:
        return self.ID + encode([self.description, encode_key(self.key)], ";")

    @classmethod
    def parse(cls, type_string: str, state_string: str = "") -> MenuSeparator:
        d = _fields(type_string, cls.ID)
        return cls(description=d.next_token(""), key=_next_key(d))


# --- Layer (Embellishment) ---------------------------------------------------------------------

@dataclass
class Embellishment(Trait):
    """``emb2;`` — a Layer: one image per level (step-loss side, rotated block, ...).

    ``level`` is the state: 1-based current level, negative while the layer is inactive
    (only meaningful when ``always_active`` is false). For a flip layer that is always on, use
    ``always_active=True`` and ``increase_key``/``decrease_key`` (or ``follow_property``).
    """

    ID: ClassVar[str] = "emb2;"
    activate_command: str = ""
    activate_modifiers: int = CTRL_DOWN_MASK
    activate_key: str = ""
    up_command: str = ""
    up_modifiers: int = CTRL_DOWN_MASK
    up_key: str = ""
    down_command: str = ""
    down_modifiers: int = CTRL_DOWN_MASK
    down_key: str = ""
    reset_command: str = ""
    reset_key: KeyStroke | None = None
    reset_level: str = "1"
    draw_underneath_when_selected: bool = False
    x_off: int = 0
    y_off: int = 0
    image_names: list[str] = field(default_factory=lambda: [""])
    level_names: list[str] = field(default_factory=lambda: [""])
    loop_levels: bool = True
    name: str = ""
    random_key: KeyStroke | None = None
    random_text: str = ""
    follow_property: bool = False
    property_name: str = ""
    first_level_value: int = 1
    version: int = 1
    always_active: bool = True
    activate_keystroke: KeyStroke | None = None
    increase_keystroke: KeyStroke | None = None
    decrease_keystroke: KeyStroke | None = None
    description: str = ""
    scale: float = 1.0
    only_property_name: str = ""
    only_property_state: str = "true"
    level: int = 1

    def __post_init__(self) -> None:
        # Same normal form as the engine: at least one level, one name per image.
        self.image_names = list(self.image_names) or [""]
        self.level_names = list(self.level_names)
        self.level_names += [""] * (len(self.image_names) - len(self.level_names))

    def _images(self) -> list[str]:
        return list(self.image_names) or [""]

    def _names(self) -> list[str]:
        # The engine pads the level names to the number of images (nextStringArray(minLength)).
        names = list(self.level_names)
        return names + [""] * (len(self._images()) - len(names))

    def type_string(self) -> str:
        se = SequenceEncoder(";")
        se.add(self.activate_command).add_int(self.activate_modifiers).add(self.activate_key)
        se.add(self.up_command).add_int(self.up_modifiers).add(self.up_key)
        se.add(self.down_command).add_int(self.down_modifiers).add(self.down_key)
        se.add(self.reset_command).add(encode_key(self.reset_key)).add(self.reset_level)
        se.add_bool(self.draw_underneath_when_selected).add_int(self.x_off).add_int(self.y_off)
        se.add_list(self._images()).add_list(self._names())
        se.add_bool(self.loop_levels).add(self.name)
        se.add(encode_key(self.random_key)).add(self.random_text)
        se.add_bool(self.follow_property).add(self.property_name).add_int(self.first_level_value)
        se.add_int(self.version).add_bool(self.always_active)
        se.add(encode_key(self.activate_keystroke)).add(encode_key(self.increase_keystroke))
        se.add(encode_key(self.decrease_keystroke))
        se.add(self.description).add_double(self.scale)
        se.add(self.only_property_name).add(self.only_property_state)
        return self.ID + se.value()

    def state_string(self) -> str:
        return str(self.level)

    @classmethod
    def parse(cls, type_string: str, state_string: str = "") -> Embellishment:
        d = _fields(type_string, cls.ID)
        e = cls()
        e.activate_command = d.next_token("")
        e.activate_modifiers = d.next_int(CTRL_DOWN_MASK)
        e.activate_key = d.next_token("A")
        e.up_command = d.next_token("")
        e.up_modifiers = d.next_int(CTRL_DOWN_MASK)
        e.up_key = d.next_token("")
        e.down_command = d.next_token("")
        e.down_modifiers = d.next_int(CTRL_DOWN_MASK)
        e.down_key = d.next_token("")
        e.reset_command = d.next_token("")
        e.reset_key = _next_key(d)
        e.reset_level = d.next_token("1")
        e.draw_underneath_when_selected = d.next_bool(False)
        e.x_off = d.next_int(0)
        e.y_off = d.next_int(0)
        e.image_names = parse_string_array(d.next_token("")) if d.has_more() else []
        if not e.image_names:
            e.image_names = [""]
        names = parse_string_array(d.next_token("")) if d.has_more() else []
        e.level_names = names + [""] * (len(e.image_names) - len(names))
        e.loop_levels = d.next_bool(True)
        e.name = d.next_token("")
        e.random_key = _next_key(d)
        e.random_text = d.next_token("")
        e.follow_property = d.next_bool(False)
        e.property_name = d.next_token("")
        e.first_level_value = d.next_int(1)
        e.version = d.next_int(0)
        e.always_active = d.next_bool(True)
        e.activate_keystroke = _next_key(d)
        e.increase_keystroke = _next_key(d)
        e.decrease_keystroke = _next_key(d)
        e.description = d.next_token("")
        e.scale = d.next_double(1.0)
        e.only_property_name = d.next_token("")
        e.only_property_state = d.next_token("true")
        e.level = _parse_level(state_string, len(e.image_names))
        return e

    @property
    def active(self) -> bool:
        return self.level > 0

    @property
    def current_image(self) -> str:
        """The image shown now (``""`` when inactive)."""
        if self.level <= 0:
            return ""
        return self._images()[min(self.level, len(self._images())) - 1]


def _parse_level(state_string: str, n_levels: int) -> int:
    value = SequenceDecoder(state_string or None, ";").next_int(-1)
    return max(-n_levels, min(value, n_levels))


# --- Text label ---------------------------------------------------------------------------------

@dataclass
class Labeler(Trait):
    """``label;`` — Text Label; ``label`` (the state) is the text shown."""

    ID: ClassVar[str] = "label;"
    label_key: KeyStroke | None = None
    menu_command: str = "Change Label"
    font_size: int = 10
    bg_color: Color | None = None
    fg_color: Color | None = (0, 0, 0)
    vertical_pos: str = "t"
    vertical_offset: int = 0
    horizontal_pos: str = "c"
    horizontal_offset: int = 0
    vertical_just: str = "b"
    horizontal_just: str = "c"
    name_format: str = "$pieceName$ ($label$)"
    font_family: str = "Dialog"
    font_style: int = 0
    rotate_degrees: int = 0
    property_name: str = "TextLabel"
    description: str = ""
    always_use_format: bool = False
    label: str = ""

    def type_string(self) -> str:
        se = SequenceEncoder(";").add(encode_key(self.label_key)).add(self.menu_command)
        se.add_int(self.font_size).add(encode_color(self.bg_color)).add(encode_color(self.fg_color))
        se.add(self.vertical_pos[:1]).add_int(self.vertical_offset)
        se.add(self.horizontal_pos[:1]).add_int(self.horizontal_offset)
        se.add(self.vertical_just[:1]).add(self.horizontal_just[:1])
        se.add(self.name_format.replace("$PieceName$", "$pieceName$"))
        se.add(self.font_family).add_int(self.font_style).add_int(self.rotate_degrees)
        se.add(self.property_name).add(self.description).add_bool(self.always_use_format)
        return self.ID + se.value()

    def state_string(self) -> str:
        return self.label

    @classmethod
    def parse(cls, type_string: str, state_string: str = "") -> Labeler:
        d = _fields(type_string, cls.ID)
        return cls(
            label_key=_next_key(d), menu_command=d.next_token("Change Label"),
            font_size=d.next_int(10), bg_color=_next_color(d, None),
            fg_color=_next_color(d, (0, 0, 0)), vertical_pos=d.next_char("t"),
            vertical_offset=d.next_int(0), horizontal_pos=d.next_char("c"),
            horizontal_offset=d.next_int(0), vertical_just=d.next_char("b"),
            horizontal_just=d.next_char("c"),
            name_format=d.next_token("$pieceName$ ($label$)").replace("$PieceName$",
                                                                     "$pieceName$"),
            font_family=d.next_token("Dialog"), font_style=d.next_int(0),
            rotate_degrees=d.next_int(0), property_name=d.next_token("TextLabel"),
            description=d.next_token(""), always_use_format=d.next_bool(False),
            label=_java_trim(state_string),
        )


# --- simple command traits ----------------------------------------------------------------------

@dataclass
class Delete(Trait):
    """``delete;`` — a menu command that removes the piece."""

    ID: ClassVar[str] = "delete;"
    command_name: str = "Delete"
    key: KeyStroke | None = None
    description: str = ""

    def type_string(self) -> str:
        return self.ID + encode([self.command_name, encode_key(self.key), self.description], ";")

    @classmethod
    def parse(cls, type_string: str, state_string: str = "") -> Delete:
        d = _fields(type_string, cls.ID)
        return cls(command_name=d.next_token(""),
                   key=_next_key(d, KeyStroke(ord("D"), CTRL_DOWN_MASK)),
                   description=d.next_token(""))


@dataclass
class Clone(Trait):
    """``clone;`` — a menu command that copies the piece."""

    ID: ClassVar[str] = "clone;"
    command_name: str = "Clone"
    key: KeyStroke | None = None
    description: str = ""

    def type_string(self) -> str:
        return self.ID + encode([self.command_name, encode_key(self.key), self.description], ";")

    @classmethod
    def parse(cls, type_string: str, state_string: str = "") -> Clone:
        d = _fields(type_string, cls.ID)
        return cls(command_name=d.next_token(""),
                   key=_next_key(d, KeyStroke(ord("C"), CTRL_DOWN_MASK)),
                   description=d.next_token(""))


@dataclass
class ReportState(Trait):
    """``report;`` — writes ``report_format`` to the chat when one of ``keys`` is used."""

    ID: ClassVar[str] = "report;"
    keys: list[KeyStroke] = field(default_factory=list)
    report_format: str = "$location$: $newPieceName$ *"
    cycle_down_keys: list[KeyStroke] = field(default_factory=list)
    cycle_report_formats: list[str] = field(default_factory=list)
    description: str = ""
    no_suppress: bool = False
    cycle_index: int = -1

    def type_string(self) -> str:
        se = SequenceEncoder(";").add(encode_key_list(self.keys)).add(self.report_format)
        se.add(encode_key_list(self.cycle_down_keys)).add_list(self.cycle_report_formats)
        se.add(self.description).add_bool(self.no_suppress)
        return self.ID + se.value()

    def state_string(self) -> str:
        return str(self.cycle_index)

    @classmethod
    def parse(cls, type_string: str, state_string: str = "") -> ReportState:
        d = _fields(type_string, cls.ID)
        keys = _report_keys(d.next_token(""))
        report_format = d.next_token("$location$: $newPieceName$ *")
        cycle_keys = _report_keys(d.next_token(""))
        index = -1
        if state_string:
            try:
                index = int(state_string)
            except ValueError:
                index = -1
        return cls(keys=keys, report_format=report_format, cycle_down_keys=cycle_keys,
                   cycle_report_formats=parse_string_array(d.next_token("")),
                   description=d.next_token(""), no_suppress=d.next_bool(False),
                   cycle_index=index)


def _report_keys(text: str) -> list[KeyStroke]:
    if text.find(",") > 0:
        return decode_key_list(text)
    # Legacy form: each character is a Ctrl+character key.
    return [KeyStroke(ord(c.upper()), CTRL_DOWN_MASK) for c in text]


@dataclass
class SendToLocation(Trait):
    """``sendto;`` — a command that moves the piece (e.g. to the dead pile).

    ``destination``: ``L`` location (map/board/x/y), ``Z`` zone, ``R`` region, ``G`` grid location,
    ``A``/``C``/``N`` another counter. The state remembers where "back" returns to.
    """

    ID: ClassVar[str] = "sendto;"
    command_name: str = ""
    key: KeyStroke | None = None
    map_id: str = ""
    board_name: str = ""
    x: str = "0"
    y: str = "0"
    back_command_name: str = ""
    back_key: KeyStroke | None = None
    x_index: str = "0"
    y_index: str = "0"
    x_offset: str = "1"
    y_offset: str = "1"
    description: str = ""
    destination: str = "L"
    zone: str = ""
    region: str = ""
    property_filter: str = ""
    grid_location: str = ""
    back_map: str = ""
    back_x: str = ""
    back_y: str = ""

    def type_string(self) -> str:
        se = SequenceEncoder(";").add(self.command_name).add(encode_key(self.key))
        se.add(self.map_id).add(self.board_name).add(str(self.x)).add(str(self.y))
        se.add(self.back_command_name).add(encode_key(self.back_key))
        se.add(str(self.x_index)).add(str(self.y_index))
        se.add(str(self.x_offset)).add(str(self.y_offset)).add(self.description)
        se.add(self.destination or "L").add(self.zone).add(self.region)
        se.add(self.property_filter).add(self.grid_location)
        return self.ID + se.value()

    def state_string(self) -> str:
        return encode([self.back_map, self.back_x, self.back_y], ";")

    @classmethod
    def parse(cls, type_string: str, state_string: str = "") -> SendToLocation:
        d = _fields(type_string, cls.ID)
        t = cls(command_name=d.next_token(""), key=_next_key(d), map_id=d.next_token(""),
                board_name=d.next_token(""), x=d.next_token("0"), y=d.next_token("0"),
                back_command_name=d.next_token(""), back_key=_next_key(d),
                x_index=d.next_token("0"), y_index=d.next_token("0"),
                x_offset=d.next_token("1"), y_offset=d.next_token("1"),
                description=d.next_token(""), destination=d.next_token("L") or "L",
                zone=d.next_token(""), region=d.next_token(""),
                property_filter=d.next_token(""), grid_location=d.next_token(""))
        s = SequenceDecoder(state_string or None, ";")
        t.back_map, t.back_x, t.back_y = s.next_token(""), s.next_token(""), s.next_token("")
        return t


@dataclass
class MovementMarkable(Trait):
    """``markmoved;`` — the "moved" flag and its overlay icon; state ``true``/``false``."""

    ID: ClassVar[str] = "markmoved;"
    moved_icon: str = "/images/moved.gif"
    x_offset: int = 0
    y_offset: int = 0
    command: str = "Mark Moved"
    key: KeyStroke | None = None
    description: str = ""
    ignore_same_location: bool = False
    command_true: str = ""
    key_true: KeyStroke | None = None
    command_false: str = ""
    key_false: KeyStroke | None = None
    moved: bool = False

    def type_string(self) -> str:
        se = SequenceEncoder(";").add(self.moved_icon).add_int(self.x_offset).add_int(self.y_offset)
        se.add(self.command).add(encode_key(self.key)).add(self.description)
        se.add_bool(self.ignore_same_location).add(self.command_true).add(encode_key(self.key_true))
        se.add(self.command_false).add(encode_key(self.key_false))
        return self.ID + se.value()

    def state_string(self) -> str:
        return "true" if self.moved else "false"

    @classmethod
    def parse(cls, type_string: str, state_string: str = "") -> MovementMarkable:
        d = _fields(type_string, cls.ID)
        return cls(moved_icon=d.next_token(""), x_offset=d.next_int(0), y_offset=d.next_int(0),
                   command=d.next_token("Mark Moved"),
                   key=_next_key(d, KeyStroke(ord("M"), CTRL_DOWN_MASK)),
                   description=d.next_token(""), ignore_same_location=d.next_bool(False),
                   command_true=d.next_token(""), key_true=_next_key(d),
                   command_false=d.next_token(""), key_false=_next_key(d),
                   moved=state_string == "true")


# --- rotation -----------------------------------------------------------------------------------

@dataclass
class FreeRotator(Trait):
    """``rotate;`` — Can Rotate. ``facings`` fixed facings (1 = free rotation).

    State: for fixed facings the 0-based ``angle_index``; for free rotation ``free_angle``
    in degrees (written as a Java double).
    """

    ID: ClassVar[str] = "rotate;"
    facings: int = 6
    rotate_cw_key: KeyStroke | None = None
    rotate_ccw_key: KeyStroke | None = None
    rotate_cw_text: str = ""
    rotate_ccw_text: str = ""
    set_angle_key: KeyStroke | None = None
    set_angle_text: str = ""
    random_key: KeyStroke | None = None
    random_text: str = ""
    name: str = ""
    description: str = ""
    direct_key: KeyStroke | None = None
    direct_text: str = ""
    direct_expression: str = ""
    direct_type_facing: bool = True
    angle_index: int = 0
    free_angle: float = 0.0

    @property
    def is_free(self) -> bool:
        return self.facings == 1

    def type_string(self) -> str:
        se = SequenceEncoder(";").add_int(self.facings)
        if self.is_free:
            se.add(encode_key(self.set_angle_key)).add(self.set_angle_text)
        else:
            se.add(encode_key(self.rotate_cw_key)).add(encode_key(self.rotate_ccw_key))
            se.add(self.rotate_cw_text).add(self.rotate_ccw_text)
        se.add(encode_key(self.random_key)).add(self.random_text)
        se.add(self.name).add(self.description)
        se.add(encode_key(self.direct_key)).add(self.direct_text).add(self.direct_expression)
        se.add_bool(self.direct_type_facing)
        return self.ID + se.value()

    def state_string(self) -> str:
        return java_double(self.free_angle) if self.is_free else str(self.angle_index)

    @property
    def angle(self) -> float:
        """Current rotation in degrees, as the engine computes it (negative = clockwise)."""
        if self.is_free:
            return self.free_angle
        return -self.angle_index * (360.0 / self.facings)

    @classmethod
    def parse(cls, type_string: str, state_string: str = "") -> FreeRotator:
        d = _fields(type_string, cls.ID)
        facings_text = d.next_token("")
        try:
            facings = int(facings_text)
        except ValueError:
            raise VassalFormatError(
                f"rotate; trait with bad facing count {facings_text!r}") from None
        if facings < 1:
            raise VassalFormatError(f"rotate; trait with facing count {facings}")
        t = cls(facings=facings)
        if t.is_free:
            t.set_angle_key = _next_key(d)
            if d.has_more():
                t.set_angle_text = d.next_token()
        else:
            t.rotate_cw_key = _next_key(d)
            t.rotate_ccw_key = _next_key(d)
            t.rotate_cw_text = d.next_token("")
            t.rotate_ccw_text = d.next_token("")
        t.random_key = _next_key(d)
        t.random_text = d.next_token("")
        t.name = d.next_token("")
        t.description = d.next_token("")
        t.direct_key = _next_key(d)
        t.direct_text = d.next_token("")
        t.direct_expression = d.next_token("")
        t.direct_type_facing = d.next_bool(True)
        try:
            if t.is_free:
                t.free_angle = float(state_string) if state_string else 0.0
            else:
                t.angle_index = min(int(state_string), facings - 1) if state_string else 0
        except ValueError:
            pass  # the engine reports and keeps its current value
        return t


# --- properties ---------------------------------------------------------------------------------

@dataclass
class PropertyChanger:
    """How a DynamicProperty command changes the value.

    ``kind``: ``P`` set to ``value`` (an expression allowed), ``I`` increment by ``value``,
    ``R`` prompt the player (``value`` is the prompt), ``E`` choose from ``valid_values``
    (``value`` is the prompt). (``PropertyChangerConfigurer``)
    """

    kind: str = "P"
    value: str = ""
    valid_values: list[str] = field(default_factory=list)

    def encode(self) -> str:
        se = SequenceEncoder(",").add(self.kind).add(self.value)
        if self.kind == "E":
            se.add_list(self.valid_values)
        return se.value()

    @classmethod
    def decode(cls, text: str) -> PropertyChanger:
        d = SequenceDecoder(text or "P", ",")
        kind = d.next_char("P")
        if kind == "R":
            return cls("R", d.next_token("Enter new value"))
        if kind == "I":
            return cls("I", d.next_token("1"))
        if kind == "E":
            prompt = d.next_token("Select new value")
            return cls("E", prompt, parse_string_array(d.next_token("")) if d.has_more() else [])
        return cls("P", d.next_token("new value"))


@dataclass
class DynamicKeyCommand:
    """One menu/key command of a DynamicProperty."""

    name: str = ""
    key: KeyStroke | None = None
    changer: PropertyChanger = field(default_factory=PropertyChanger)

    def encode(self) -> str:
        return encode([self.name, encode_key(self.key), self.changer.encode()], ":")

    @classmethod
    def decode(cls, text: str) -> DynamicKeyCommand:
        d = SequenceDecoder(text or "", ":")
        name = d.next_token("")
        key = _next_key(d)
        return cls(name, key, PropertyChanger.decode(d.next_token("")))


@dataclass
class DynamicProperty(Trait):
    """``PROP;`` — a property whose value (the state) changes through key commands."""

    ID: ClassVar[str] = "PROP;"
    name: str = "name"
    numeric: bool = False
    min_value: int = 0
    max_value: int = 100
    wrap: bool = False
    commands: list[DynamicKeyCommand] = field(default_factory=list)
    description: str = ""
    value: str = ""

    def type_string(self) -> str:
        constraints = SequenceEncoder(",").add_bool(self.numeric).add_int(self.min_value)
        constraints.add_int(self.max_value).add_bool(self.wrap)
        commands = encode([c.encode() for c in self.commands], ",") if self.commands else ""
        return self.ID + encode([self.name, constraints.value(), commands, self.description], ";")

    def state_string(self) -> str:
        return self.value

    @classmethod
    def parse(cls, type_string: str, state_string: str = "") -> DynamicProperty:
        d = _fields(type_string, cls.ID)
        name = d.next_token("name")
        c = SequenceDecoder(d.next_token(""), ",")
        numeric, lo = c.next_bool(False), c.next_int(0)
        hi, wrap = c.next_int(100), c.next_bool(False)
        commands_text = d.next_token("")
        commands = [DynamicKeyCommand.decode(t) for t in decode(commands_text, ",")] \
            if commands_text else []
        return cls(name=name, numeric=numeric, min_value=lo, max_value=hi, wrap=wrap,
                   commands=commands, description=d.next_token(""), value=state_string)


@dataclass
class CalculatedProperty(Trait):
    """``calcProp;`` — a property computed from a BeanShell ``expression`` (e.g. ``{A*2}``)."""

    ID: ClassVar[str] = "calcProp;"
    name: str = ""
    expression: str = ""
    description: str = ""

    def type_string(self) -> str:
        return self.ID + encode([self.name, self.expression, self.description], ";")

    @classmethod
    def parse(cls, type_string: str, state_string: str = "") -> CalculatedProperty:
        d = _fields(type_string, cls.ID)
        return cls(name=d.next_token(""), expression=d.next_token(""),
                   description=d.next_token(""))


# --- area of effect, immobilized ----------------------------------------------------------------

def java_percent_roundtrip(percent: int) -> int:
    """What the engine writes back for a transparency percentage it read.

    It stores ``percent / 100.0F`` as a float and writes ``(int) (level * 100)`` in float
    arithmetic, which can lose one (e.g. if the float product lands just below the integer).
    """
    level = struct.unpack("f", struct.pack("f", percent / 100.0))[0]
    product = struct.unpack("f", struct.pack("f", level * 100.0))[0]
    return int(product)


@dataclass
class AreaOfEffect(Trait):
    """``AreaOfEffect;`` — shades the hexes within ``radius`` (a ZOC highlight).

    State: ``true``/``false`` whether it is switched on (always ``false`` when ``always_active``).
    """

    ID: ClassVar[str] = "AreaOfEffect;"
    color: Color | None = (128, 128, 128)
    transparency: int = 30            # percent
    radius: int = 1
    always_active: bool = True
    activate_command: str = "Show Area"
    activate_key: KeyStroke | None = None
    map_shader_name: str = ""
    fixed_radius: bool = True
    radius_marker: str = ""
    description: str = ""
    name: str = ""
    on_menu_text: str = ""
    on_key: KeyStroke | None = None
    off_menu_text: str = ""
    off_key: KeyStroke | None = None
    globally_visible: bool = True
    active: bool = False  # switched on by its command (ignored when always_active)

    @property
    def shown(self) -> bool:
        return self.always_active or self.active

    def type_string(self) -> str:
        se = SequenceEncoder(";").add(encode_color(self.color))
        se.add_int(java_percent_roundtrip(self.transparency)).add_int(self.radius)
        se.add_bool(self.always_active).add(self.activate_command)
        se.add(encode_key(self.activate_key))
        se.add(self.map_shader_name).add_bool(self.fixed_radius).add(self.radius_marker)
        se.add(self.description).add(self.name)
        se.add(self.on_menu_text).add(encode_key(self.on_key))
        se.add(self.off_menu_text).add(encode_key(self.off_key)).add_bool(self.globally_visible)
        return self.ID + se.value()

    def state_string(self) -> str:
        if self.always_active or not self.globally_visible:
            return "false"
        return "true" if self.active else "false"

    @classmethod
    def parse(cls, type_string: str, state_string: str = "") -> AreaOfEffect:
        d = _fields(type_string, cls.ID)
        t = cls(color=_next_color(d, (128, 128, 128)), transparency=d.next_int(30),
                radius=d.next_int(1), always_active=d.next_bool(True),
                activate_command=d.next_token("Show Area"), activate_key=_next_key(d),
                map_shader_name=d.next_token(""), fixed_radius=d.next_bool(True),
                radius_marker=d.next_token(""), description=d.next_token(""),
                name=d.next_token(""), on_menu_text=d.next_token(""), on_key=_next_key(d),
                off_menu_text=d.next_token(""), off_key=_next_key(d),
                globally_visible=d.next_bool(True))
        t.active = state_string == "true"
        return t


@dataclass
class Immobilized(Trait):
    """``immob;`` — Does Not Stack: selection, movement and stacking rules.

    ``select``: ``""`` normal, ``n`` never, ``i`` shift-click, ``t`` ctrl-click, ``c`` alt-click.
    ``band_select``: ``""`` normal, ``Z`` never, ``A`` alt-drag, ``B`` alt-shift-drag.
    ``movement``: ``N`` normal, ``I`` only when selected, ``V`` never.
    ``type_string`` writes the canonical form the engine writes (``immob;g;N;R;``).
    """

    ID: ClassVar[str] = "immob;"
    select: str = ""
    ignore_grid: bool = False
    band_select: str = ""
    movement: str = "N"
    stacks: bool = False
    description: str = ""

    def type_string(self) -> str:
        head = self.select[:1] if self.select[:1] in ("n", "i", "t", "c") else ""
        if self.ignore_grid:
            head += "g"
        if self.band_select[:1] in ("Z", "A", "B"):
            head += self.band_select[:1]
        movement = self.movement[:1] if self.movement[:1] in ("N", "I", "V") else "N"
        return f"{self.ID}{head};{movement};{'L' if self.stacks else 'R'};{self.description}"

    @classmethod
    def parse(cls, type_string: str, state_string: str = "") -> Immobilized:
        d = _fields(type_string, cls.ID)
        selection, movement_text = d.next_token(""), d.next_token("")
        stacking, description = d.next_token("R"), d.next_token("")
        # Same precedence as the engine's mySetType/myGetType.
        never_select = "n" in selection
        select = next((c for c in "nitc" if c in selection), "")
        move_if_selected = select in ("i", "t", "c")
        never_move = never_select
        if movement_text:
            never_move = movement_text[0] == "V"
            move_if_selected = movement_text[0] == "I"
        movement = "V" if never_move else ("I" if move_if_selected else "N")
        band = next((c for c in "ZAB" if c in selection), "")
        return cls(select=select, ignore_grid="g" in selection, band_select=band,
                   movement=movement, stacks=stacking[:1] == "L", description=description)


# --- macros and access --------------------------------------------------------------------------

@dataclass
class TriggerAction(Trait):
    """``macro;`` — Trigger Action: on ``key`` (or any of ``watch_keys``), if ``property_match``
    holds, send ``action_keys`` to the piece in order (e.g. "Eliminate" = report + send to pile).
    """

    ID: ClassVar[str] = "macro;"
    name: str = ""
    command: str = ""
    key: KeyStroke | None = None
    property_match: str = ""
    watch_keys: list[KeyStroke] = field(default_factory=list)
    action_keys: list[KeyStroke] = field(default_factory=list)
    loop: bool = False
    pre_loop_key: KeyStroke | None = None
    post_loop_key: KeyStroke | None = None
    loop_type: str = "counted"      # counted, while, until, forEach
    while_expression: str = ""
    until_expression: str = ""
    loop_count: str = ""
    index: bool = False
    index_property: str = ""
    index_start: str = "1"
    index_step: str = "1"

    def type_string(self) -> str:
        se = SequenceEncoder(";").add(self.name).add(self.command).add(encode_key(self.key))
        se.add(self.property_match).add(encode_key_list(self.watch_keys))
        se.add(encode_key_list(self.action_keys)).add_bool(self.loop)
        se.add(encode_key(self.pre_loop_key)).add(encode_key(self.post_loop_key))
        se.add(self.loop_type).add(self.while_expression).add(self.until_expression)
        se.add(self.loop_count).add_bool(self.index).add(self.index_property)
        se.add(self.index_start).add(self.index_step)
        return self.ID + se.value()

    @classmethod
    def parse(cls, type_string: str, state_string: str = "") -> TriggerAction:
        d = _fields(type_string, cls.ID)
        return cls(name=d.next_token(""), command=d.next_token("Trigger"),
                   key=_next_key(d, KeyStroke(ord("T"), CTRL_DOWN_MASK)),
                   property_match=d.next_token(""), watch_keys=_report_keys(d.next_token("")),
                   action_keys=_report_keys(d.next_token("")), loop=d.next_bool(False),
                   pre_loop_key=_next_key(d), post_loop_key=_next_key(d),
                   loop_type=d.next_token("counted"), while_expression=d.next_token(""),
                   until_expression=d.next_token(""), loop_count=d.next_token(""),
                   index=d.next_bool(False), index_property=d.next_token(""),
                   index_start=d.next_token("1"), index_step=d.next_token("1"))


@dataclass
class Restricted(Trait):
    """``restrict;`` — Restricted Access: only the listed ``sides`` may use/move the piece.

    State: the id of the player who owns it (when ``restrict_by_player``).
    """

    ID: ClassVar[str] = "restrict;"
    sides: list[str] = field(default_factory=list)
    restrict_by_player: bool = False
    restrict_movement: bool = True
    description: str = ""
    owning_player: str = ""

    def type_string(self) -> str:
        se = SequenceEncoder(";").add_list(self.sides).add_bool(self.restrict_by_player)
        se.add_bool(self.restrict_movement).add(self.description)
        return self.ID + se.value()

    def state_string(self) -> str:
        return self.owning_player

    @classmethod
    def parse(cls, type_string: str, state_string: str = "") -> Restricted:
        d = _fields(type_string, cls.ID)
        sides = parse_string_array(d.next_token("")) if d.has_more() else []
        return cls(sides=sides, restrict_by_player=d.next_bool(False),
                   restrict_movement=d.next_bool(True), description=d.next_token(""),
                   owning_player=state_string)


# --- masking (hidden blocks) ---------------------------------------------------------------------

def access_sides(sides: list[str]) -> str:
    """The access field for "only these sides" (``PieceAccessConfigurer``): ``sides:A:B``."""
    return "sides:" + encode(sides, ":") if sides else "sides:"


@dataclass
class Obscurable(Trait):
    """``obs;`` — Mask: who may see the piece; others see ``image`` (or the piece drawn in the
    chosen style). For HoldFast blocks the owning side sees the unit, the other side the back.

    ``display_style``: ``I`` inset, ``B`` background, ``P`` peek (``peek_key``), ``G`` others
    see ``others_image``, ``2`` inset variant. ``access``: ``player:`` (who masked it),
    ``side:`` (that player's side), or :func:`access_sides`. State: the id of the player who
    masked it (``None`` = not masked) and the game's masking options.
    """

    ID: ClassVar[str] = "obs;"
    key: KeyStroke | None = None
    image: str = ""
    hide_command: str = "Mask"
    display_style: str = "I"
    peek_key: KeyStroke | None = None
    others_image: str = ""
    mask_name: str = "?"
    access: str = "player:"
    peek_command: str = "Peek"
    description: str = ""
    auto_peek_rollover: bool = True
    deal_key: KeyStroke | None = None
    deal_expression: str = ""
    obscured_by: str | None = None
    options: str = ""

    def _style_field(self) -> str:
        style = (self.display_style or "I")[0]
        if style == "P":
            return "P" + (self.peek_key.encode() if self.peek_key else "")
        if style == "G":
            return "G" + self.others_image
        return style

    def type_string(self) -> str:
        se = SequenceEncoder(";").add(encode_key(self.key)).add(self.image).add(self.hide_command)
        se.add(self._style_field()).add(self.mask_name).add(self.access).add(self.peek_command)
        se.add(self.description).add_bool(self.auto_peek_rollover)
        se.add(encode_key(self.deal_key)).add(self.deal_expression)
        return self.ID + se.value()

    def state_string(self) -> str:
        if self.obscured_by is None:
            return encode(["null", ""], ";")
        return encode([self.obscured_by, self.options], ";")

    @classmethod
    def parse(cls, type_string: str, state_string: str = "") -> Obscurable:
        d = _fields(type_string, cls.ID)
        t = cls(key=_next_key(d), image=d.next_token(""), hide_command=d.next_token("Mask"))
        existing = d.has_more()
        if existing:
            style = d.next_token("I") or "I"
            t.display_style = style[0]
            if style[0] == "P" and len(style) > 1:
                t.peek_key = (KeyStroke(ord(style[1].upper()), CTRL_DOWN_MASK) if len(style) == 2
                              else KeyStroke.decode(style[1:]))
            elif style[0] == "G":
                t.others_image = style[1:]
        t.mask_name = d.next_token("?")
        access = d.next_token("") if d.has_more() else ""
        t.access = access if access.startswith(("side:", "sides:")) else "player:"
        t.peek_command = d.next_token("Peek")
        t.description = d.next_token("")
        t.auto_peek_rollover = d.next_bool(not existing)
        t.deal_key = _next_key(d)
        t.deal_expression = d.next_token("")
        s = SequenceDecoder(state_string or None, ";")
        who = s.next_token("null")
        t.obscured_by = None if who == "null" else who
        t.options = s.next_token("") if t.obscured_by is not None else ""
        return t


@dataclass
class ReturnToDeck(Trait):
    """``return;`` — a menu command that puts the piece back into a named draw pile (a cup).

    Written in the engine's version-2 form with a fixed deck (``deckSelect`` false): the deck is
    found by ``deck_name``, the DrawPile's name, when the command is used.
    """

    ID: ClassVar[str] = "return;"
    command_name: str = "Return to deck"
    key: KeyStroke | None = None
    deck_name: str = ""
    prompt: str = "Select destination"
    description: str = ""

    def type_string(self) -> str:
        se = SequenceEncoder(";").add(self.command_name).add(encode_key(self.key)).add(self.deck_name)
        se.add(self.prompt).add(self.description).add_int(2).add_bool(False).add(self.deck_name)
        return self.ID + se.value()

    @classmethod
    def parse(cls, type_string: str, state_string: str = "") -> ReturnToDeck:
        d = _fields(type_string, cls.ID)
        t = cls(command_name=d.next_token(""), key=_next_key(d), deck_name=d.next_token(""),
                prompt=d.next_token("Select destination"), description=d.next_token(""))
        if d.next_int(0) >= 2:
            d.next_bool(True)
            t.deck_name = d.next_token("") or t.deck_name
        return t


# --- anything else ------------------------------------------------------------------------------

@dataclass
class RawTrait(Trait):
    """A trait we do not model, kept verbatim (its id is the text up to the first ``;``)."""

    type: str = ""
    state: str = ""

    @property
    def trait_id(self) -> str:
        head, sep, _ = self.type.partition(";")
        return head + sep

    def type_string(self) -> str:
        return self.type

    def state_string(self) -> str:
        return self.state

    @classmethod
    def parse(cls, type_string: str, state_string: str = "") -> RawTrait:
        return cls(type=type_string, state=state_string)


#: Trait classes by id, for :func:`parse_trait`.
TRAIT_CLASSES: dict[str, type[Trait]] = {
    cls.ID: cls
    for cls in (BasicPiece, Marker, UsePrototype, Comment, SubMenu, MenuSeparator, Embellishment,
                Labeler, Delete, Clone, ReportState, SendToLocation, MovementMarkable, FreeRotator,
                DynamicProperty, CalculatedProperty, AreaOfEffect, Immobilized, TriggerAction,
                Restricted, Obscurable, ReturnToDeck)
}


def trait_id_of(type_string: str) -> str:
    """The factory key the engine uses: the text up to and including the first ``;``."""
    head, sep, _ = type_string.partition(";")
    return head + sep


def parse_trait(type_string: str, state_string: str = "") -> Trait:
    """Read one trait; unknown ids come back as :class:`RawTrait`."""
    cls = TRAIT_CLASSES.get(trait_id_of(type_string))
    if cls is None:
        return RawTrait(type=type_string, state=state_string)
    return cls.parse(type_string, state_string)
