"""Whole ``.vmod`` files: write one (validated, reproducible, atomic), read one back, check it.

A module is a zip with ``buildFile.xml``, ``moduledata``, images under ``images/`` and any other
files (help pages, predefined setups). This module only packs and unpacks; what goes into the
buildFile is the module generator's business (use :mod:`vassalfmt.buildfile`).

    write_vmod("dist/korea.vmod", root, ModuleData(name="Korea"), images={"inf.png": png},
               files={"setup1.vsav": setup_bytes})
    problems = check_vmod("dist/korea.vmod")      # [] when everything is consistent
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from lxml import etree

from .buildfile import (
    Problem,
    class_names_in_zip,
    image_names_in_zip,
    prototypes_from_buildfile,
    to_bytes,
    validate,
)
from .errors import VassalFormatError
from .moduledata import ModuleData, parse_xml_untrusted
from .piece import Piece
from .savedgame import SavedGame, read_saved_game
from .zipreader import SafeZip, ZipLimits
from .zipwriter import build_zip, write_atomic

BUILDFILE_ENTRY = "buildFile.xml"
MODULEDATA_ENTRY = "moduledata"
IMAGE_DIR = "images/"

#: Modules carry big map images; reading our own or uploaded modules allows more than saves.
MODULE_LIMITS = ZipLimits(max_archive_bytes=512 * 1024 * 1024, max_entries=20_000,
                          max_entry_bytes=256 * 1024 * 1024, max_total_bytes=1024 * 1024 * 1024)


class ModuleInvalid(VassalFormatError):
    """The module would not be written: its buildFile has problems (listed in ``problems``)."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        shown = "\n".join(f"  {p}" for p in problems[:20])
        more = f"\n  ... and {len(problems) - 20} more" if len(problems) > 20 else ""
        super().__init__(f"{len(problems)} problem(s) in buildFile.xml:\n{shown}{more}")


def vmod_entries(root: etree._Element, module: ModuleData,
                 images: Mapping[str, bytes] | None = None,
                 files: Mapping[str, bytes] | None = None) -> dict[str, bytes]:
    """The zip entries of a module: buildFile, moduledata, ``images/<name>``, other files."""
    entries = {BUILDFILE_ENTRY: to_bytes(root), MODULEDATA_ENTRY: module.to_xml()}
    for name, data in (images or {}).items():
        entries[IMAGE_DIR + name] = data
    for name, data in (files or {}).items():
        if name in entries:
            raise ValueError(f"{name!r} is given twice")
        entries[name] = data
    return entries


def write_vmod(path: str | os.PathLike, root: etree._Element, module: ModuleData,
               images: Mapping[str, bytes] | None = None,
               files: Mapping[str, bytes] | None = None, check: bool = True) -> bytes:
    """Validate, pack and atomically write a module; returns the bytes written.

    With ``check`` (the default) nothing is written when :func:`vassalfmt.buildfile.validate`
    finds a problem (raises :class:`ModuleInvalid`), so a bad build never reaches ``dist/``.
    """
    if check:
        problems = validate(root, image_names=set(images or {}), module_classes=class_names_in_zip(files or {}))
        problems += _missing_files(root, set(files or {}))
        if problems:
            raise ModuleInvalid(problems)
    data = build_zip(vmod_entries(root, module, images, files))
    write_atomic(path, data)
    return data


def _missing_files(root: etree._Element, names: set[str]) -> list[Problem]:
    out = []
    for element in root.iter("VASSAL.build.module.PredefinedSetup"):
        wanted = element.get("file")
        if element.get("useFile") == "true" and element.get("isMenu") != "true" and wanted \
                and wanted not in names:
            out.append(Problem(f"PredefinedSetup[{element.get('name', '')}]",
                               f"setup file {wanted!r} is not in the module"))
    return out


@dataclass
class ModuleContents:
    """What :func:`read_vmod` found."""

    buildfile: etree._Element
    moduledata: ModuleData | None
    entry_names: list[str]
    image_names: set[str]
    prototypes: dict[str, Piece]
    #: Predefined setups that use a file: setup name -> the saved game read from the module.
    setups: dict[str, SavedGame] = field(default_factory=dict)


def read_vmod(source: bytes | str | os.PathLike, limits: ZipLimits = MODULE_LIMITS,
              read_setups: bool = True) -> ModuleContents:
    """Open a module (ours or anyone's) safely and read its buildFile, metadata and setups."""
    if isinstance(source, os.PathLike):
        source = os.fspath(source)
    with SafeZip(source, limits, what="module") as archive:
        if not archive.has(BUILDFILE_ENTRY):
            raise VassalFormatError(
                "the zip has no buildFile.xml, so it is not a VASSAL 3.5+ module")
        root = parse_xml_untrusted(archive.read(BUILDFILE_ENTRY), BUILDFILE_ENTRY,
                                   limits.max_entry_bytes)
        moduledata = None
        if archive.has(MODULEDATA_ENTRY):
            moduledata = ModuleData.parse(archive.read(MODULEDATA_ENTRY))
        names = archive.names()
        contents = ModuleContents(buildfile=root, moduledata=moduledata, entry_names=names,
                                  image_names=image_names_in_zip(names),
                                  prototypes=prototypes_from_buildfile(root))
        if read_setups:
            for element in root.iter("VASSAL.build.module.PredefinedSetup"):
                wanted = element.get("file")
                if element.get("useFile") == "true" and element.get("isMenu") != "true" \
                        and wanted and archive.has(wanted):
                    contents.setups[element.get("name", wanted)] = read_saved_game(
                        archive.read(wanted), prototypes=contents.prototypes)
    return contents


def check_vmod(source: bytes | str | os.PathLike) -> list[Problem]:
    """Everything :func:`validate` checks, plus: setup files present and readable, the module
    name in each setup matches, and the module's own metadata is there."""
    try:
        contents = read_vmod(source)
    except VassalFormatError as exc:
        return [Problem("module", str(exc))]
    problems = validate(contents.buildfile, image_names=contents.image_names,
                        module_classes=class_names_in_zip(contents.entry_names))
    problems += _missing_files(contents.buildfile, set(contents.entry_names))
    if contents.moduledata is None:
        problems.append(Problem("module", "no moduledata entry"))
    name = contents.moduledata.name if contents.moduledata else ""
    for setup_name, game in contents.setups.items():
        where = f"PredefinedSetup[{setup_name}]"
        if game.module_name and name and game.module_name != name:
            problems.append(Problem(where, f"saved for module {game.module_name!r}, not {name!r}"))
        if not game.has_setup_stack_marker:
            problems.append(Problem(where, "no SETUP_STACK marker: at-start stacks would be "
                                    "placed again on top of the saved pieces"))
        for warning in game.warnings:
            problems.append(Problem(where, warning))
    return problems
