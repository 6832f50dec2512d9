"""Reproducible zips, atomic writes and metadata XML (vassalfmt.zipwriter, vassalfmt.moduledata)."""

import io
import os
import zipfile

import pytest
from lxml import etree

from vassalfmt.errors import VassalFormatError
from vassalfmt.moduledata import ModuleData, SaveData
from vassalfmt.zipwriter import FIXED_DATE_TIME, build_zip, write_atomic, write_zip

ENTRIES = {
    "buildFile.xml": b"<VASSAL.build.GameModule/>",
    "moduledata": ModuleData(name="Korea").to_xml(),
    "images/b.png": b"\x89PNG fake b",
    "images/a.png": b"\x89PNG fake a",
    "help/index.html": b"<html></html>" * 50,
}


def test_two_builds_are_byte_identical():
    assert build_zip(ENTRIES) == build_zip(dict(reversed(list(ENTRIES.items()))))


def test_zip_layout_is_fixed():
    with zipfile.ZipFile(io.BytesIO(build_zip(ENTRIES))) as z:
        infos = z.infolist()
        assert [i.filename for i in infos] == sorted(ENTRIES)
        for info in infos:
            assert info.date_time == FIXED_DATE_TIME
            assert (info.external_attr >> 16) & 0o777 == 0o644
            expected = zipfile.ZIP_STORED if info.filename.endswith(".png") else zipfile.ZIP_DEFLATED
            assert info.compress_type == expected
            assert z.read(info) == ENTRIES[info.filename]


@pytest.mark.parametrize("name", ["", "/abs", "../x", "a/../b", "a\\b", "a//b", "./a"])
def test_bad_entry_names_refused(name):
    with pytest.raises(ValueError):
        build_zip({name: b"x"})


def test_atomic_write_replaces_whole_file(tmp_path):
    target = tmp_path / "dist" / "game.vmod"
    write_zip(target, ENTRIES)
    assert target.read_bytes() == build_zip(ENTRIES)
    assert oct(os.stat(target).st_mode & 0o777) == oct(0o644)
    write_atomic(target, b"new")
    assert target.read_bytes() == b"new"
    assert [p.name for p in target.parent.iterdir()] == ["game.vmod"]


def test_failed_write_leaves_old_file_and_no_temp(tmp_path):
    target = tmp_path / "game.vmod"
    target.write_bytes(b"old")

    class Boom:  # bytes-like object that fails while being written
        def __buffer__(self, flags):
            raise RuntimeError("disk full")

    with pytest.raises((RuntimeError, TypeError)):
        write_atomic(target, Boom())
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["game.vmod"]


def test_failed_zip_build_writes_nothing(tmp_path):
    target = tmp_path / "game.vmod"
    with pytest.raises(ValueError):
        write_zip(target, {"../evil": b"x"})
    assert not target.exists() and list(tmp_path.iterdir()) == []


def test_moduledata_layout_and_round_trip():
    md = ModuleData(name="Korea: Fire & Ice", version="1.2", description="Korea <1950>")
    xml = md.to_xml()
    assert xml.startswith(b'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<data version="1">')
    root = etree.fromstring(xml)
    assert [e.tag for e in root] == ["version", "extra1", "extra2", "VassalVersion", "dateSaved",
                                     "description", "name"]
    assert root.findtext("VassalVersion") == "3.7.26"
    assert ModuleData.parse(xml) == md
    assert md.to_xml() == ModuleData(name="Korea: Fire & Ice", version="1.2",
                                     description="Korea <1950>").to_xml()


def test_savedata_round_trip():
    sd = SaveData(game_version="0.3", description="Scenario 1: Invasion")
    assert SaveData.parse(sd.to_xml()) == sd
    assert b"<name>" not in sd.to_xml()   # the 3.7 engine takes the name from moduledata


@pytest.mark.parametrize("data, message", [
    (b"<data><name>x</data>", "well-formed"),
    (b"<other/>", "root element"),
    (b'<!DOCTYPE data [<!ENTITY a "aaaa">]><data><name>&a;</name></data>', "DOCTYPE"),
    (b"<data>" + b"x" * 2_000_000 + b"</data>", "too large"),
])
def test_metadata_parse_errors(data, message):
    with pytest.raises(VassalFormatError, match=message):
        ModuleData.parse(data)
