"""Building ``buildFile.xml`` with lxml, and checking it against the engine's name table.

In a buildFile every element name is a fully qualified Java class name that the engine
instantiates by reflection (``VASSAL/build/Builder.java``); unknown attribute names are silently
ignored, so a typo costs a feature without any error. :func:`validate` catches that before a
module ships, using ``data/buildfile-names-3.7.26.json``: every buildFile element class of the
VASSAL 3.7.26 engine with its attribute names/types and the children its editor allows. That
table was generated from the engine itself (``tools/vassal-check/src/vcheck/DumpSchema.java``
run against an engine built from vassalengine/vassal tag 3.7.26) and is factual data, copied
here so the package works on its own.

Building::

    root = new_module("Korea: The Mobile War", version="1.0")
    m = component(root, "Map", mapName="Main Map", markMoved="Always")
    component(m, "map.PieceMover")
    slot = component(palette, "PieceSlot", piece.add_piece_command(), entryName="1 Cav", gpid=7)
    problems = validate(root, image_names={"inf.png"})

Short class names are accepted where they are unambiguous ("Map", "PieceSlot",
"map.PieceMover", "turn.TurnTracker"); the full name always works.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import PurePosixPath

from lxml import etree

from .errors import VassalFormatError
from .keys import KeyStroke
from .moduledata import DEFAULT_VASSAL_VERSION, parse_xml_untrusted
from .piece import Piece, parse_add_piece_command, split_piece_type
from .sequence import decode, java_bool, java_double, string_array
from .traits import (
    BasicPiece,
    DynamicKeyCommand,
    Embellishment,
    RawTrait,
    UsePrototype,
    trait_id_of,
)

SCHEMA_FILE = "buildfile-names-3.7.26.json"
ROOT_CLASS = "VASSAL.build.GameModule"
_PREFIX = "VASSAL.build."

#: Children the engine puts in place itself (so its editor never offers them), by parent.
IMPLICIT_CHILDREN: dict[str, set[str]] = {
    ROOT_CLASS: {f"VASSAL.build.module.{n}" for n in (
        "BasicCommandEncoder", "Documentation", "PlayerRoster", "GlobalOptions", "Chatter",
        "KeyNamer", "PrototypesContainer", "BasicLogger", "EventLog", "ConnectionWindow",
        "DieManager", "gamepieceimage.GamePieceImageDefinitions", "properties.GlobalProperties",
        "properties.GlobalTranslatableMessages", "properties.ScenarioPropertiesOptionTab",
        "ModuleExtension")} | {"VASSAL.i18n.Language", "VASSAL.script.ScriptContainer",
                               "VASSAL.chat.ui.ChatServerControls", "VASSAL.tools.DebugControls",
                               "VASSAL.script.BshCommandEncoder"},
    "VASSAL.build.module.Map": {f"VASSAL.build.module.{n}" for n in (
        "map.BoardPicker", "map.StackMetrics", "map.ForwardToKeyBuffer", "map.Scroller",
        "map.ForwardToChatter", "map.MenuDisplayer", "map.MapCenterer", "map.StackExpander",
        "map.PieceMover", "map.KeyBufferer", "properties.GlobalProperties",
        "map.SelectionHighlighters", "map.HighlightLastMoved",
        "map.boardPicker.board.mapgrid.ZonedGridHighlighter")},
    "VASSAL.build.module.map.boardPicker.board.ZonedGrid": {
        "VASSAL.build.module.map.boardPicker.board.mapgrid.ZonedGridHighlighter"},
}
for _map_like in ("VASSAL.build.module.PrivateMap", "VASSAL.build.module.PlayerHand",
                  "VASSAL.build.widget.WidgetMap"):
    IMPLICIT_CHILDREN[_map_like] = IMPLICIT_CHILDREN["VASSAL.build.module.Map"]

# Widgets nest freely; inside a ChartWindow they hold charts rather than pieces (the
# engine's Widget takes its allowed leaves from the window it sits in; verified: a
# ChartWindow/TabWidget/Chart module loads with no warning in 3.7.26).
_WIDGETS = {f"VASSAL.build.widget.{n}" for n in ("TabWidget", "PanelWidget", "BoxWidget",
                                                  "ListWidget", "PieceSlot", "Chart", "HtmlChart",
                                                  "MapWidget")}
#: Containers the name table lists without editor children (they nest freely).
FREE_CONTAINERS: dict[str, set[str]] = {
    "VASSAL.build.widget.TabWidget": _WIDGETS,
    "VASSAL.build.widget.PanelWidget": _WIDGETS,
    "VASSAL.build.widget.BoxWidget": _WIDGETS,
    "VASSAL.build.widget.ListWidget": _WIDGETS,
    "VASSAL.build.module.PredefinedSetup": {"VASSAL.build.module.PredefinedSetup"},
}

#: Plain (non-class) child elements some components read themselves.
PLAIN_CHILDREN: dict[str, set[str] | None] = {
    "VASSAL.build.module.PlayerRoster": None,        # any element: each one's text is a side
    "VASSAL.build.module.GlobalOptions": {"option"},
    "VASSAL.build.module.map.BoardPicker": {"setup"},
}

#: Attributes read directly in build() by components the name table lists without attributes.
EXTRA_ATTRIBUTES: dict[str, set[str]] = {
    "VASSAL.build.module.map.BoardPicker": {"slotScale", "slotHeight", "slotWidth", "title",
                                            "addRowText", "addColumnText", "boardPrompt",
                                            "maxColumns"},
    # Not AbstractConfigurable (so the table has no attributes), but built from these names:
    "VASSAL.build.module.documentation.BrowserHelpFile": {"title", "contents", "startingPage"},
    "VASSAL.build.module.map.GlobalMap": {"tooltip", "buttonText", "icon", "hotkey", "scale",
                                          "color"},
    "VASSAL.build.module.map.HidePiecesButton": {"buttonText", "tooltip", "hotkey",
                                                 "showingIcon", "hiddenIcon"},
    "VASSAL.build.module.map.PieceMover": {"icon"},
    "VASSAL.build.module.map.Scroller": {"prompt"},
    # GlobalOptions.build hands every attribute to setAttribute, which also knows these:
    "VASSAL.build.module.GlobalOptions": {"markMoved", "centerOnMove",
                                          "centerOnMoveSensitivity"},
    # Listed with no attributes in the table, but read directly in build():
    "VASSAL.build.widget.PieceSlot": {"entryName", "gpid", "width", "height"},
    "VASSAL.build.widget.CardSlot": {"entryName", "gpid", "width", "height"},
    "VASSAL.build.module.PrototypeDefinition": {"name", "description"},
}

#: Elements whose text is a piece definition (``+/null/type/state``).
PIECE_TEXT_CLASSES = {"VASSAL.build.widget.PieceSlot", "VASSAL.build.widget.CardSlot",
                      "VASSAL.build.module.PrototypeDefinition"}

#: Trait ids the 3.7.26 engine's BasicCommandEncoder knows (anything else: "Unknown type").
ENGINE_TRAIT_IDS = frozenset("""
piece; immob; emb2; emb; hide; obs; label; table; propertysheet; rotate; pivot; nonRect;
nonRect2; mark; locmsg; restrict; placemark; replace; report; markmoved; footprint; return;
sendto; prototype; clone; delete; submenu; menuSeparator; translate; AreaOfEffect; globalkey;
macro; PROP; calcProp; setprop; setpieceprop; hideCmd; playSound; button; globalhotkey;
deselect; mat; matPiece; basicName; border; attach; locCommand; cmt;
""".split())


@dataclass(frozen=True)
class Problem:
    """One finding of :func:`validate`; ``where`` is a readable element path."""

    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


@lru_cache(maxsize=1)
def schema() -> dict[str, dict]:
    """The engine's class table: ``{class: {"attributes": {...}, "allowed_children": [...]}}``."""
    text = resources.files(__package__).joinpath("data", SCHEMA_FILE).read_text("utf-8")
    return json.loads(text)["classes"]


@lru_cache(maxsize=None)
def resolve_class(name: str) -> str:
    """Full class name for ``name`` ("Map", "map.PieceMover", or already full)."""
    classes = schema()
    if name in classes:
        return name
    if _PREFIX + name in classes:
        return _PREFIX + name
    if "VASSAL.build.module." + name in classes:
        return "VASSAL.build.module." + name
    matches = [c for c in classes if c.endswith("." + name)]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise ValueError(f"no VASSAL buildFile class called {name!r}")
    raise ValueError(f"{name!r} is ambiguous: {', '.join(sorted(matches))}")


def attribute_value(value) -> str:
    """How a Python value is written as an attribute (the engine's string forms)."""
    if isinstance(value, bool):
        return java_bool(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return java_double(value)
    if isinstance(value, KeyStroke):
        return value.encode()
    if isinstance(value, tuple) and len(value) == 3 and all(isinstance(v, int) for v in value):
        return f"{value[0]},{value[1]},{value[2]}"
    if isinstance(value, (list, tuple)):
        return string_array([str(v) for v in value])
    return str(value)


def component(parent: etree._Element | None, class_name: str, text: str | None = None, /,
              attrs: Mapping[str, object] | None = None, **more: object) -> etree._Element:
    """Add a component element (class by full or short name) with attributes and optional text.

    Attributes whose value is ``None`` are left out (the engine keeps its default). ``text``
    (a piece definition) is positional only, so a ``text=`` keyword is the attribute many
    toolbar buttons are labelled by, not the element's text.
    """
    full = resolve_class(class_name)
    values = {**(attrs or {}), **more}
    element = etree.Element(full) if parent is None else etree.SubElement(parent, full)
    for key in sorted(values):
        if values[key] is not None:
            element.set(key, attribute_value(values[key]))
    if text is not None:
        element.text = text
    return element


def plain(parent: etree._Element, tag: str, text: str = "",
          attrs: Mapping[str, str] | None = None) -> etree._Element:
    """A plain child element such as PlayerRoster's ``<entry>`` or GlobalOptions' ``<option>``."""
    element = etree.SubElement(parent, tag, {k: str(v) for k, v in (attrs or {}).items()})
    element.text = text
    return element


def new_module(name: str, version: str = "1.0", description: str = "",
               vassal_version: str = DEFAULT_VASSAL_VERSION, next_piece_slot_id: int = 1,
               **attrs: object) -> etree._Element:
    """The root ``VASSAL.build.GameModule`` element."""
    return component(None, ROOT_CLASS, attrs={
        "name": name, "version": version, "description": description,
        "VassalVersion": vassal_version, "nextPieceSlotId": next_piece_slot_id, **attrs})


def to_bytes(root: etree._Element) -> bytes:
    """Serialise with an XML declaration, UTF-8, two-space indentation (text is untouched)."""
    root = etree.fromstring(etree.tostring(root))  # indent a copy, not the caller's tree
    etree.indent(root, space="  ")
    return (b'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' +
            etree.tostring(root, encoding="UTF-8") + b"\n")


# --- validation ---------------------------------------------------------------------------------

def _where(element: etree._Element) -> str:
    parts = []
    node = element
    while node is not None:
        tag = node.tag if isinstance(node.tag, str) else "?"
        short = tag.rsplit(".", 1)[-1]
        label = node.get("name") or node.get("mapName") or node.get("entryName")
        parts.append(f"{short}[{label}]" if label else short)
        node = node.getparent()
    return "/".join(reversed(parts))


def validate(root: etree._Element | bytes, image_names: Iterable[str] | None = None,
             check_pieces: bool = True, module_classes: Iterable[str] = ()) -> list[Problem]:
    """Check a buildFile against the engine's name table; return what is wrong (empty = fine).

    * every element class exists in the 3.7.26 engine, every attribute name is one it reads;
      ``module_classes`` are the module's own classes (packed in its zip, found by the engine's
      class loader: see :func:`class_names_in_zip`), whose elements are not in the table;
    * children are ones the engine's editor allows there (plus the ones the engine adds itself);
    * with ``check_pieces``: every PieceSlot/PrototypeDefinition text is an AddPiece command
      that decodes, uses only trait ids the engine knows, re-encodes to the same text with
      our encoder (what the engine's own round trip checks), and names existing prototypes;
      ``gpid`` values are unique and below ``nextPieceSlotId``;
    * with ``image_names`` (bare names present under ``images/``): every image a piece or a
      board refers to exists.
    """
    if isinstance(root, (bytes, bytearray)):
        root = parse_xml_untrusted(bytes(root), "buildFile.xml", 64 * 1024 * 1024)
    problems: list[Problem] = []
    classes = schema()
    if root.tag not in (ROOT_CLASS, "VASSAL.launch.BasicModule"):
        problems.append(Problem(_where(root), f"root element must be {ROOT_CLASS}"))
    images = set(image_names) if image_names is not None else None
    own = set(module_classes)
    for element in root.iter():
        if not isinstance(element.tag, str) or element.tag in own:
            continue
        parent = element.getparent()
        if parent is not None and parent.tag in PLAIN_CHILDREN:
            allowed_plain = PLAIN_CHILDREN[parent.tag]
            if not element.tag.startswith("VASSAL.") and (allowed_plain is None or
                                                         element.tag in allowed_plain):
                continue
        info = classes.get(element.tag)
        if info is None:
            problems.append(Problem(_where(element), f"unknown class {element.tag!r} "
                                    "(the engine would fail to load it)"))
            continue
        _check_attributes(element, info, problems)
        _check_text(element, problems)
        if parent is not None and parent.tag in classes:
            _check_child(parent, element, problems)
        if images is not None:
            _check_component_images(element, info, images, problems)
    if check_pieces:
        _check_pieces(root, images, problems)
    return problems


def _check_attributes(element: etree._Element, info: dict, problems: list[Problem]) -> None:
    known = set(info.get("attributes", {})) | EXTRA_ATTRIBUTES.get(element.tag, set())
    for name in element.attrib:
        if name not in known:
            problems.append(Problem(_where(element), f"attribute {name!r} is not read by "
                                    f"{element.tag.rsplit('.', 1)[-1]} (it would be ignored)"))


def _check_text(element: etree._Element, problems: list[Problem]) -> None:
    """Only piece slots and prototypes read their element text; anywhere else the engine
    ignores it (a button's label written as text, not as its ``text`` attribute, shows the
    engine's default)."""
    text = (element.text or "").strip()
    if text and element.tag not in PIECE_TEXT_CLASSES:
        problems.append(Problem(_where(element), f"text {text[:40]!r} is ignored by "
                                f"{element.tag.rsplit('.', 1)[-1]} (an attribute?)"))


def _check_child(parent: etree._Element, child: etree._Element, problems: list[Problem]) -> None:
    info = schema()[parent.tag]
    if "allowed_children" in info:
        allowed = set(info["allowed_children"]) | IMPLICIT_CHILDREN.get(parent.tag, set())
    else:
        allowed = FREE_CONTAINERS.get(parent.tag, set()) | IMPLICIT_CHILDREN.get(parent.tag, set())
    if child.tag not in allowed:
        problems.append(Problem(_where(child), f"{child.tag.rsplit('.', 1)[-1]} is not allowed "
                                f"inside {parent.tag.rsplit('.', 1)[-1]}"))


def _check_component_images(element: etree._Element, info: dict, images: set[str],
                            problems: list[Problem]) -> None:
    for name, kind in info.get("attributes", {}).items():
        value = element.get(name)
        if kind == "Image" and value and not value.startswith("/") \
                and not _image_present(value, images):
            problems.append(Problem(_where(element), f"image {value!r} ({name}) is not in images/"))


def _check_pieces(root: etree._Element, images: set[str] | None,
                  problems: list[Problem]) -> None:
    prototypes = {e.get("name", "") for e in root.iter("VASSAL.build.module.PrototypeDefinition")}
    gpids: dict[str, str] = {}
    try:
        next_id = int(root.get("nextPieceSlotId", "0"))
    except ValueError:
        next_id = 0
        problems.append(Problem(_where(root), "nextPieceSlotId is not a number"))
    for element in root.iter(*PIECE_TEXT_CLASSES):
        where = _where(element)
        text = element.text or ""
        in_slot = element.tag != "VASSAL.build.module.PrototypeDefinition"
        for problem in check_piece_definition(text, prototypes, images, in_slot):
            problems.append(Problem(where, problem))
        gpid = element.get("gpid")
        if element.tag != "VASSAL.build.module.PrototypeDefinition" and gpid is not None:
            if gpid in gpids:
                problems.append(Problem(where, f"gpid {gpid} also used by {gpids[gpid]}"))
            gpids[gpid] = where
            if gpid.isdigit() and int(gpid) >= next_id:
                problems.append(Problem(where, f"gpid {gpid} is not below nextPieceSlotId "
                                        f"{next_id} (the editor would renumber)"))


def check_piece_definition(text: str, prototypes: set[str] | None = None,
                           images: set[str] | None = None, in_slot: bool = False) -> list[str]:
    """Problems with one ``+/null/type/state`` piece definition (empty list = fine).

    ``in_slot``: the definition is a PieceSlot/CardSlot, whose traits the engine's round-trip
    check compares field by field. A named key written as ``0,0,Name`` there always differs
    from the engine's re-encoding (it replaces the code with its own, see
    :mod:`vassalfmt.keys`), so it is reported; named keys inside prototypes are not compared.
    """
    try:
        _, piece = parse_add_piece_command(text)
    except VassalFormatError as exc:
        return [f"piece definition does not decode: {exc}"]
    out = []
    fields = decode(text[2:], "/")
    original_types = split_piece_type(fields[1])
    piece_id = None if fields[0] == "null" else fields[0]
    for trait in piece.traits:
        tid = trait.trait_id if isinstance(trait, RawTrait) else trait.ID
        if tid not in ENGINE_TRAIT_IDS:
            out.append(f"trait id {tid!r} is unknown to the engine")
    if piece.add_piece_command(piece_id) != text:
        retyped = [t.type_string() for t in piece.traits]
        pairs = [(a, b) for a, b in zip(original_types, retyped) if a != b]
        if pairs and all(_only_appended(a, b) for a, b in pairs):
            out.append("piece definition uses an older field layout (the engine appends default "
                       f"fields): {pairs[0][0]!r} -> {pairs[0][1]!r}")
        else:
            diffs = [f"{a!r} -> {b!r}" for a, b in pairs if not _only_appended(a, b)]
            out.append("piece definition does not re-encode to itself"
                       + (f": {diffs[0]}" if diffs else ""))
    if in_slot:
        for trait in piece.traits:
            names = {s.name for s in trait_key_strokes(trait)
                     if s.name and not NAMED_KEY_FIRST <= s.code <= NAMED_KEY_LAST}
            for name in sorted(names):
                out.append(f"named key {name!r} in a {trait_id_of(trait.type_string())} "
                           "trait of a palette slot: the engine rewrites its code, so the "
                           "round-trip check fails; move the trait into a prototype or use "
                           "a plain key")
    if not isinstance(piece.traits[-1], BasicPiece):
        out.append("innermost trait is not a BasicPiece (piece;)")
    for trait in piece.traits:
        if isinstance(trait, UsePrototype) and prototypes is not None \
                and trait.name not in prototypes:
            out.append(f"prototype {trait.name!r} does not exist")
        if images is not None:
            for image in _trait_images(trait):
                if not _image_present(image, images):
                    out.append(f"image {image!r} is not in images/")
    return out


def _only_appended(given: str, engine: str) -> bool:
    """True when every ``;``-field written came back unchanged and only fields were added."""
    a, b = decode(given, ";"), decode(engine, ";")
    return len(a) < len(b) and b[:len(a)] == a


#: The engine gives named keys private key codes in this range (VASSAL/tools/NamedKeyManager.java).
NAMED_KEY_FIRST = 0xE000
NAMED_KEY_LAST = 0xF8FE


def trait_key_strokes(trait) -> list[KeyStroke]:
    """Every key stroke a trait holds (fields, key lists, Dynamic Property commands)."""
    out = []
    for value in vars(trait).values():
        items = value if isinstance(value, list) else [value]
        for item in items:
            if isinstance(item, KeyStroke):
                out.append(item)
            elif isinstance(item, DynamicKeyCommand) and item.key is not None:
                out.append(item.key)
    return out


def _image_present(name: str, images: set[str]) -> bool:
    # DataArchive also tries the name with ".gif" appended (old extensionless GIFs).
    return name in images or name + ".gif" in images


def _trait_images(trait) -> list[str]:
    if isinstance(trait, BasicPiece):
        return [trait.image] if trait.image else []
    if isinstance(trait, Embellishment):
        return [i for i in trait.image_names if i]
    return []


def prototypes_from_buildfile(root: etree._Element | bytes) -> dict[str, Piece]:
    """The module's prototypes, name -> Piece (for expansion when writing or reading saves)."""
    if isinstance(root, (bytes, bytearray)):
        root = parse_xml_untrusted(bytes(root), "buildFile.xml", 64 * 1024 * 1024)
    out = {}
    for element in root.iter("VASSAL.build.module.PrototypeDefinition"):
        _, piece = parse_add_piece_command(element.text or "")
        out[element.get("name", "")] = piece
    return out


def image_names_in_zip(entry_names: Iterable[str]) -> set[str]:
    """Bare image names (as pieces refer to them) from a module's zip entry names."""
    out = set()
    for name in entry_names:
        path = PurePosixPath(name)
        if len(path.parts) >= 2 and path.parts[0] == "images":
            out.add("/".join(path.parts[1:]))
    return out


def class_names_in_zip(entry_names: Iterable[str]) -> set[str]:
    """Java class names a module carries itself (``pkg/Name.class`` entries; nested classes left out).

    The engine's class loader (``VASSAL.tools.DataArchive``) reads such an entry when a buildFile
    element names a class the engine does not have, so these elements are the module's own.
    """
    out = set()
    for name in entry_names:
        if name.endswith(".class") and "$" not in name and not name.startswith("images/"):
            out.add(name[: -len(".class")].replace("/", "."))
    return out


__all__ = ["Problem", "attribute_value", "check_piece_definition", "class_names_in_zip", "component",
           "image_names_in_zip", "new_module", "plain", "prototypes_from_buildfile",
           "resolve_class", "schema", "to_bytes", "trait_key_strokes", "validate"]
