"""Named places: the rulebook's features (read only) and towns from the town table (generated).

``<map>.features.csv`` is the data engineer's transcription of the book; we
read it to keep named places on land and to give city hexes city terrain.
Towns the book does not place become ``<map>.geo-features.csv`` rows, so a
transcribed row is never touched and never duplicated.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from scenarios import geodata
from scenarios.hexgrid import Hex
from scenarios.mapbuild.calibrate import Calibration
from scenarios.textfiles import read_text


SETTLEMENT_KINDS = ("city", "major_city", "capital", "town", "village", "star_city")


@dataclass(frozen=True)
class Feature:
    hex: Hex
    kind: str
    name: str
    side: str = ""
    why: str = ""


def read_book_features(path: Path, cal: Calibration) -> list[Feature]:
    """Rows of a features.csv (comments skipped); rows with bad or off-map hexes are left to `scenarios check`."""
    if not path.exists():
        return []
    lines = [line for line in read_text(path).splitlines()
             if line.strip() and not line.lstrip().startswith("#")]
    out = []
    for row in csv.DictReader(lines):
        try:
            hex = cal.grid.parse(row.get("hex", ""))
        except ValueError:
            continue
        if cal.grid.is_on_map(hex):
            out.append(Feature(hex, (row.get("kind") or "").strip(), (row.get("name") or "").strip(),
                               (row.get("side") or "").strip()))
    return out


def _names_of(town: geodata.Town) -> list[str]:
    return [geodata.fold_name(n) for n in (town.name, *town.alt_names) if geodata.fold_name(n)]


def book_names(town: geodata.Town, features: list[Feature]) -> list[Feature]:
    """Book features that name this town (the feature name starts with one of its names)."""
    keys = _names_of(town)
    return [f for f in features if f.name and any(geodata.fold_name(f.name).startswith(k) for k in keys)]


def town_features(cal: Calibration, features: list[Feature], wanted: dict[str, tuple[str, ...]],
                  land: set[Hex], city_names: tuple[str, ...] = (),
                  extent_km: dict[str, float] | None = None) -> list[Feature]:
    """Feature rows for the towns of the wanted kinds that fall on a land hex of the map.

    ``wanted`` maps the town table's kind to feature kinds (port -> port, city); ``city_names`` are
    towns that are cities whatever their table kind (Pusan and Inch'on are listed as ports).  A kind
    the book already gives a town is never repeated; a town the book places keeps the book's hex.
    """
    cities = {geodata.fold_name(n) for n in city_names}
    out = []
    for town in sorted(geodata.towns(), key=lambda t: t.name):
        kinds = list(wanted.get(town.kind, ()))
        if geodata.fold_name(town.name) in cities and "city" not in kinds:
            kinds.append("city")
        in_book = book_names(town, features)
        kinds = [k for k in kinds if not any(f.kind == k for f in in_book)]
        if any(f.kind in SETTLEMENT_KINDS for f in in_book):  # the book already says city or town: keep its word
            kinds = [k for k in kinds if k not in SETTLEMENT_KINDS]
        if not kinds:
            continue
        if in_book:
            hex = in_book[0].hex
            why = f"towns.csv {town.name} ({town.kind}); hex as features.csv places it"
        else:
            hex = cal.hex_of(town.lat, town.lon)
            if hex not in land:
                hex = _nearest_land(cal, hex, town, land)
                if hex is None:
                    continue
            why = f"towns.csv {town.name} {town.lat:.4f} N {town.lon:.4f} E"
        for kind in kinds:
            out.append(Feature(hex, kind, town.name, "", why))
        radius = (extent_km or {}).get(town.name)
        if radius and "city" in kinds:
            for other in sorted(land - {hex}):
                lat, lon = cal.hex_latlon(other)
                if geodata.distance_km(lat, lon, town.lat, town.lon) <= radius:
                    out.append(Feature(other, "city", town.name, "",
                                       f"towns.csv {town.name}: hex centre within {radius:g} km of the city centre"))
    return sorted(out, key=lambda f: (f.hex, f.kind, f.name))


def _nearest_land(cal: Calibration, hex: Hex, town: geodata.Town, land: set[Hex]) -> Hex | None:
    """A coastal town whose own hex came out as sea goes to the adjacent land hex nearest to it."""
    px, py = cal.latlon_pixel(town.lat, town.lon)
    options = [n for n in cal.grid.neighbours(hex, on_map_only=False) if n in land]
    if not options:
        return None
    return min(options, key=lambda n: ((cal.grid.center(n)[0] - px) ** 2 + (cal.grid.center(n)[1] - py) ** 2, n))


@dataclass(frozen=True)
class CrossCheck:
    name: str
    book_hex: Hex
    geo_hex: Hex
    hexes_apart: int


def cross_check(cal: Calibration, features: list[Feature]) -> list[CrossCheck]:
    """For every book feature named after a town we know: how far the book's hex is from the town's hex."""
    seen = set()
    out = []
    for town in geodata.towns():
        for f in book_names(town, features):
            if geodata.fold_name(f.name) not in _names_of(town) or (town.name, f.hex) in seen:
                continue
            seen.add((town.name, f.hex))
            geo = cal.hex_of(town.lat, town.lon)
            out.append(CrossCheck(town.name, f.hex, geo, cal.grid.distance(f.hex, geo)))
    return sorted(out, key=lambda c: (c.book_hex, c.name))
