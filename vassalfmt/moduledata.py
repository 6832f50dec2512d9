"""``moduledata`` and ``savedata``: the small metadata XML files inside modules and saves.

Layout as the 3.7.26 engine writes it (``VASSAL/build/module/metadata/AbstractMetaData.java``
``save``, ``ModuleMetaData.java``, ``SaveMetaData.java``)::

    <?xml version="1.0" encoding="UTF-8" standalone="no"?>
    <data version="1">
      <version>1.0</version>
      <extra1/> <extra2/>                  (moduledata only, when set)
      <VassalVersion>3.7.26</VassalVersion>
      <dateSaved>1700000000000</dateSaved>
      <description>...</description>
      <name>Module Name</name>             (moduledata only)
    </data>

A saved game's ``savedata`` has the same root with the module's *game version* as ``version``
and no name: the engine takes the module name from the copy of ``moduledata`` stored in the save,
and checks it against the running module when a file is loaded from the menu.

Parsing is for untrusted files: no DTDs, no entities, no network, bounded size.
"""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from .errors import VassalFormatError

DEFAULT_VASSAL_VERSION = "3.7.26"
#: A fixed timestamp (ms since epoch) so that builds are byte-reproducible by default.
FIXED_DATE_SAVED = 1_700_000_000_000
MAX_METADATA_BYTES = 1_000_000

_DECLARATION = b'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'


def _text_element(root: etree._Element, tag: str, text: str | None) -> None:
    if text is None:
        return
    element = etree.SubElement(root, tag)
    element.text = text


def _serialize(root: etree._Element) -> bytes:
    etree.indent(root, space="  ")
    return _DECLARATION + etree.tostring(root, encoding="UTF-8") + b"\n"


@dataclass
class ModuleData:
    """The ``moduledata`` entry of a module (and its copy inside every saved game)."""

    name: str
    version: str = "1.0"
    vassal_version: str = DEFAULT_VASSAL_VERSION
    description: str = ""
    date_saved: int = FIXED_DATE_SAVED
    extra1: str | None = ""   # the module's ModuleOther1/2; the engine writes <extra1/> when empty
    extra2: str | None = ""

    def to_xml(self) -> bytes:
        root = etree.Element("data", version="1")
        _text_element(root, "version", self.version)
        _text_element(root, "extra1", self.extra1)
        _text_element(root, "extra2", self.extra2)
        _text_element(root, "VassalVersion", self.vassal_version)
        _text_element(root, "dateSaved", str(self.date_saved))
        _text_element(root, "description", self.description)
        _text_element(root, "name", self.name)
        return _serialize(root)

    @classmethod
    def parse(cls, data: bytes) -> ModuleData:
        fields = _parse_fields(data, "moduledata")
        return cls(name=fields.get("name", ""), version=fields.get("version", ""),
                   vassal_version=fields.get("VassalVersion", ""),
                   description=fields.get("description", ""),
                   date_saved=_int_or_zero(fields.get("dateSaved", "")),
                   extra1=fields.get("extra1"), extra2=fields.get("extra2"))


@dataclass
class SaveData:
    """The ``savedata`` entry of a saved game or log."""

    game_version: str = "1.0"
    vassal_version: str = DEFAULT_VASSAL_VERSION
    description: str = ""
    date_saved: int = FIXED_DATE_SAVED
    #: Older engines wrote these; the 3.7 engine reads the name from the ``moduledata`` copy.
    module_name: str | None = None
    module_version: str | None = None

    def to_xml(self) -> bytes:
        root = etree.Element("data", version="1")
        _text_element(root, "version", self.game_version)
        _text_element(root, "VassalVersion", self.vassal_version)
        _text_element(root, "dateSaved", str(self.date_saved))
        if self.description:
            _text_element(root, "description", self.description)
        _text_element(root, "moduleName", self.module_name)
        _text_element(root, "moduleVersion", self.module_version)
        return _serialize(root)

    @classmethod
    def parse(cls, data: bytes) -> SaveData:
        fields = _parse_fields(data, "savedata")
        return cls(game_version=fields.get("version", ""),
                   vassal_version=fields.get("VassalVersion", ""),
                   description=fields.get("description", ""),
                   date_saved=_int_or_zero(fields.get("dateSaved", "")),
                   module_name=fields.get("moduleName"),
                   module_version=fields.get("moduleVersion"))


def _int_or_zero(text: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        return 0


def safe_xml_parser() -> etree.XMLParser:
    """An lxml parser that never resolves entities, loads DTDs or touches the network."""
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                           dtd_validation=False, huge_tree=False, remove_comments=True,
                           remove_pis=True)


def parse_xml_untrusted(data: bytes, what: str, max_bytes: int) -> etree._Element:
    """Parse XML from an untrusted file; refuse DOCTYPEs (the entity-expansion attacks)."""
    if len(data) > max_bytes:
        raise VassalFormatError(f"{what} is too large ({len(data)} bytes, limit {max_bytes})")
    if b"<!DOCTYPE" in data or b"<!ENTITY" in data:
        raise VassalFormatError(f"{what} contains a DOCTYPE/ENTITY declaration, which is refused")
    try:
        return etree.fromstring(data, parser=safe_xml_parser())
    except etree.XMLSyntaxError as exc:
        raise VassalFormatError(f"{what} is not well-formed XML: {exc}") from None


def _parse_fields(data: bytes, what: str) -> dict[str, str]:
    root = parse_xml_untrusted(data, what, MAX_METADATA_BYTES)
    if root.tag != "data":
        raise VassalFormatError(f"{what}: root element is <{root.tag}>, expected <data>")
    fields: dict[str, str] = {}
    for child in root:
        if not isinstance(child.tag, str) or child.get("lang"):
            continue  # translations of the description/name are not needed here
        fields.setdefault(child.tag, (child.text or "").strip())
    return fields
