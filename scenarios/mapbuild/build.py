"""Build one map: calibrate, classify, draw lines, place towns, apply overrides, write files."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from scenarios import facts, mapstamp
from scenarios.hexgrid import Hex
from scenarios.mapbuild import derived
from scenarios.mapbuild import calibrate as calib
from scenarios.mapbuild import classify, honour, lines, output, overrides, places
from scenarios.mapbuild.config import MapConfig, read_map_config
from scenarios.textfiles import read_text

WATER = ("sea", "lake")


class BuildError(Exception):
    pass


@dataclass
class MapBuild:
    """Everything a build produced, kept in memory so tests can look without reading files back."""

    cfg: MapConfig
    cal: calib.Calibration
    ground: dict[Hex, classify.HexGround]
    terrain: dict[Hex, str]  # game terrain ids, after overrides
    forced_land: list[Hex]
    book_features: list[places.Feature]
    geo_features: list[places.Feature]
    sides: list[lines.SideLine]
    paths: list[lines.PathLine]
    cross_checks: list[places.CrossCheck]
    changes: list[honour.Change] = field(default_factory=list)  # hexes the book's facts changed
    verdicts: list[honour.Verdict] = field(default_factory=list)  # every fact about the map, checked
    fixes: list[overrides.Override] = field(default_factory=list)  # the maintainer's corrections, applied
    files: dict[str, str] = field(default_factory=dict)  # suffix -> text

    def stale(self) -> list[str]:
        """The generated files (suffixes) whose committed bytes are not what this build makes; a
        file edited by hand since it was generated is the maintainer's, not stale."""
        return [suffix for suffix, text in self.files.items()
                if not output.is_hand_edited(self.cfg.path(suffix))
                and (not self.cfg.path(suffix).exists() or read_text(self.cfg.path(suffix)) != text)]

    def shares(self) -> dict[str, float]:
        counts = Counter(self.terrain.values())
        total = len(self.terrain)
        return {tid: counts.get(tid, 0) / total for tid in self.cfg.legend}


def derive_terrain(cfg: MapConfig, generic: dict[Hex, str],
                   features: list[places.Feature]) -> tuple[dict[Hex, str], list[Hex]]:
    """Generic classes -> the game's terrain ids; named land places are never water; city/town terrain."""
    generic = dict(generic)
    forced = sorted({f.hex for f in features if f.kind in cfg.geo.force_land_kinds and generic[f.hex] in WATER})
    for h in forced:
        generic[h] = "clear"
    terrain = {h: cfg.terrain_id(c) for h, c in generic.items()}
    for f in features:
        cls = cfg.geo.terrain_from_features.get(f.kind)
        if cls and cfg.geo.terrain_map.get(cls) in cfg.legend:
            current = terrain[f.hex]
            # a city beats a town in the same hex, whatever order the rows come in
            if not (cls == "town" and current == cfg.geo.terrain_map.get("city")):
                terrain[f.hex] = cfg.geo.terrain_map[cls]
    return terrain, forced


def build_map(game_dir: Path, map_id: str) -> MapBuild:
    cfg = read_map_config(game_dir, map_id)
    game = honour.game_for(game_dir)
    gm = game.maps.get(map_id) if game is not None else None
    book_facts = honour.map_facts(game, map_id)
    cal = calib.calibrate(cfg)
    if cfg.geo.warp:  # the book's coast hexes that the fit leaves far inland are bent onto the shore
        pulls = honour.coast_pulls(cal, [f.hex for f in book_facts if facts.COAST in f.demands and f.is_book],
                                   cfg.geo.scale_km)
        cal = calib.bend_to(cal, cfg, pulls) if pulls else cal
    problems = calib.check(cal, cfg)
    if problems:
        raise BuildError("\n".join(problems))
    ground = classify.classify(cal, cfg.geo.thresholds)
    book = places.read_book_features(cfg.path(".features.csv"), cal)
    generic = {h: g.generic for h, g in ground.items()}
    changes = honour.honour_water(cal, ground, generic, cfg.geo.thresholds, book_facts,
                                  {f.hex for f in book if f.kind in cfg.geo.force_land_kinds}, cfg.geo.scale_km)
    generic_land = {h for h, c in generic.items() if c not in WATER} | {
        f.hex for f in book if f.kind in cfg.geo.force_land_kinds}
    geo_feats = places.town_features(cal, book, cfg.geo.town_features, generic_land, cfg.geo.city_names,
                                     cfg.geo.city_extent_km)
    all_facts = book_facts + honour.port_facts(map_id, geo_feats)
    changes += honour.honour_water(cal, ground, generic, cfg.geo.thresholds, all_facts,
                                   {f.hex for f in book + geo_feats if f.kind in cfg.geo.force_land_kinds}, cfg.geo.scale_km)
    terrain, forced = derive_terrain(cfg, generic, book + geo_feats)
    water_ids = {cfg.terrain_id("sea"), cfg.terrain_id("lake")}
    water_view = {h: ("sea" if t in water_ids else t) for h, t in terrain.items()}
    sides: list[lines.SideLine] = []
    if cfg.geo.rivers or cfg.geo.major_rivers:
        sides += lines.river_sides(cal, water_view, cfg.geo.rivers, cfg.geo.river_kind,
                                   cfg.geo.major_rivers, cfg.geo.major_river_kind)
    for p in cfg.geo.parallels:
        sides += lines.parallel_sides(cal, water_view, p.lat, p.kind, p.name)
    for r in cfg.geo.row_lines:
        sides += lines.row_line_sides(cal, r.row, r.columns, r.kind, r.name, r.source)
    if cfg.geo.sea_cut_kind or cfg.geo.crest_cut_kind:
        sides += lines.cut_sides(cal, water_view, cfg.geo.sea_cut_kind, cfg.geo.crest_cut_kind, cfg.geo.crest_cut_m,
                                cfg.geo.crest_cut_prominence_m)
    sides = sorted(sides, key=lambda s: (s.side, s.kind))
    fixes = overrides.read_overrides(cfg.path(".overrides.csv"), cal.grid, cfg.legend)
    terrain, sides = overrides.apply_overrides(fixes, terrain, sides)
    paths = lines.path_lines(cal, cfg.geo.path_kinds, {h for h, t in terrain.items() if t in water_ids})
    paths = overrides.apply_path_overrides(fixes, paths)
    verdicts: list[honour.Verdict] = []
    if gm is not None:
        finished = honour.built_map(gm, terrain, book + geo_feats, paths)
        changes += honour.honour_bans(finished, terrain, all_facts, game, cfg.terrain_id("clear"),
                                      {o.hex_a for o in fixes if o.action == "terrain"})
        verdicts = honour.verify(honour.built_map(gm, terrain, book + geo_feats, paths), all_facts, game)
    broken = [v for v in verdicts if not v.holds and honour.bends_map(v.fact)]
    if broken:
        raise BuildError("\n".join(f"{map_id}: {v.fact.where}: {v.fact.subject}: {'; '.join(v.broken)} "
                                    f"[{v.fact.source}]" for v in broken))
    result = MapBuild(cfg, cal, ground, terrain, forced, book, geo_feats, sides, paths,
                      places.cross_check(cal, book), changes, verdicts, fixes)
    result.files = render_files(result)
    return result


def _header(cfg: MapConfig, what: str) -> list[str]:
    return [f"{what} of {cfg.game}/{cfg.map_id} ({cfg.name}): GENERATED by `python -m scenarios.mapbuild "
            f"{cfg.game} {cfg.map_id}`",
            "from scenarios/geodata and this map's .geo.cfg and .overrides.csv; see docs/maps.md.",
            "stand-in: derived from geography, not copied from the published map. Correct it through",
            f"{cfg.map_id}.overrides.csv and rebuild (a file edited by hand is kept, not rebuilt: docs/maps.md)."]


def render_files(b: MapBuild) -> dict[str, str]:
    cfg, grid = b.cfg, b.cal.grid
    return {
        ".terrain.txt": output.terrain_text(grid, b.terrain, cfg.legend, _header(cfg, "Terrain grid") + [
            "provenance: stand-in (derived from geography)",
            f"row, then one character per column {grid.label(Hex(grid.first_col, 0))[:-2] or grid.first_col}.."
            f"{grid.last_col}; legend in {cfg.map_id}.toml"]),
        ".hexsides.csv": output.hexsides_csv(grid, b.sides, _header(cfg, "Hexsides")),
        ".paths.csv": output.paths_csv(grid, b.paths, _header(cfg, "Railways and roads")),
        ".geo-features.csv": output.features_csv(grid, b.geo_features, _header(cfg, "Towns from the town table") + [
            "Only towns the rulebook does not place (features.csv); loaded as extra features."]),
        ".calibration.txt": report(b),
    }


def report(b: MapBuild) -> str:
    cfg, cal, grid = b.cfg, b.cal, b.cal.grid
    g = cfg.geo
    out = [f"Calibration report: {cfg.game}/{cfg.map_id} ({cfg.name})",
           f"GENERATED by `python -m scenarios.mapbuild {cfg.game} {cfg.map_id}`; do not edit.", ""]
    out.append(f"scale: book {g.scale_km:g} km per hex ({g.scale_source or 'no source given'}); "
               + (f"fitted {cal.km_per_hex:.2f} km per hex (fit_scale = true)" if g.fit_scale
                  else "book scale held fixed (fit_scale = false)"))
    if g.transform == "affine":
        kx, ky = cal.transform.axis_km_per_pixel()
        out.append(f"transform: affine (rows and columns scaled apart): {kx * grid.dx:.2f} km per column step, "
                   f"{ky * grid.dy:.2f} km per row (a regular hex grid at the book scale: "
                   f"{g.scale_km * grid.dx / grid.dy:.2f} and {g.scale_km:.2f})")
    out.append(f"anchors: {g.anchor_source}" if g.anchor_source else "anchors: see geo.cfg")
    out.append(f"convention: shifted_columns = \"{cal.shifted_columns}\""
               + (" (mirrored)" if cal.mirror else "") + "; conventions tried (rms / max residual, km):")
    for shifted, mirror, rms, mx in cal.tried:
        chosen = " <- chosen" if (shifted, mirror) == (cal.shifted_columns, cal.mirror) else ""
        out.append(f"  shifted_columns = {shifted:<4} {'mirrored' if mirror else 'as printed':<10} "
                   f"rms {rms:7.2f}  max {mx:7.2f}{chosen}")
    out.append(f"projection: azimuthal equidistant about {cal.projection.lat0:.4f} N {cal.projection.lon0:.4f} E; "
               f"the board's top edge faces {cal.rotation_deg:.1f} degrees (0 = north, 90 = east)")
    corners = [Hex(grid.first_col, grid.first_row), Hex(grid.last_col, grid.first_row),
               Hex(grid.first_col, grid.last_row), Hex(grid.last_col, grid.last_row)]
    out.append("corner hexes: " + "; ".join(
        f"{grid.label(h)} {cal.hex_latlon(h)[0]:.3f} N {cal.hex_latlon(h)[1]:.3f} E" for h in corners))
    out.append("")
    if cal.warp is not None:
        out.append(f"warp: the plain fit is rubber-sheeted through the anchors (Gaussian radius {g.warp_radius_km:g} km); "
                   f"a plain residual over {g.max_plain_residual_hexes:g} hexes fails the build; the largest bend of any hex "
                   f"centre is {cal.max_warp_km():.1f} km")
    out.append(f"residuals per anchor (km; the build fails over half a hex = {cal.half_hex_km:.2f} km):")
    out.append(f"  {'hex':<10} {'place':<22} {'final':>6} {'plain fit':>10}")
    for a in cal.anchors:
        where = f"  the place falls in {a.fitted_hex}" if a.fitted_hex else ""
        out.append(f"  {a.label:<10} {a.place:<22} {a.residual_km:6.2f} {a.plain_km:10.2f}{where}")
    out.append(f"  rms {cal.rms_km:.2f} km, max {cal.max_km:.2f} km")
    out.append("")
    t = g.thresholds
    out.append(f"thresholds: sea below {t.sea_below:g} land share of 13 sample points; lake from 0.5 inside a lake "
               f"shore; rough from {t.rough_elevation:g} m mean elevation or {t.rough_relief:g} m relief; mountain "
               f"from {t.mountain_elevation:g} m or {t.mountain_relief:g} m relief (relief radius "
               f"{t.relief_radius_km:g} km)")
    shares = b.shares()
    out.append("terrain shares (all hexes): " + ", ".join(f"{tid} {shares[tid] * 100:.1f} %" for tid in cfg.legend))
    land = [h for h, tid in b.terrain.items() if tid not in (cfg.terrain_id("sea"), cfg.terrain_id("lake"))]
    land_counts = Counter(b.terrain[h] for h in land)
    out.append(f"terrain shares (land hexes, {len(land)}): " + ", ".join(
        f"{tid} {land_counts.get(tid, 0) / max(1, len(land)) * 100:.1f} %" for tid in cfg.legend
        if land_counts.get(tid, 0)))
    if b.forced_land:
        out.append("named places kept on land (the ground says water): " + " ".join(grid.label(h) for h in b.forced_land))
    out.append("")
    kinds = Counter(s.kind for s in b.sides)
    out.append("hexsides: " + (", ".join(f"{k} {n}" for k, n in sorted(kinds.items())) or "none"))
    names = Counter((s.kind, s.name) for s in b.sides if s.name)
    for (kind, name), n in sorted(names.items()):
        out.append(f"  {kind} {name}: {n}")
    out.append("paths: " + (", ".join(f"{p.kind} {p.name} ({len(p.hexes)} hexes)" for p in b.paths) or "none"))
    out.append(f"generated town features: {len(b.geo_features)}")
    out += fixes_report(b)
    out += facts_report(b)
    if b.cross_checks:
        out.append("")
        out.append("book features named after a town in the town table (book hex, town's hex, hexes apart):")
        for c in b.cross_checks:
            out.append(f"  {c.name:<22} {grid.label(c.book_hex)}  {grid.label(c.geo_hex)}  {c.hexes_apart}")
    return "\n".join(out) + "\n"


def facts_report(b: MapBuild) -> list[str]:
    """Every book fact about the map and whether it holds; our stand-in facts counted, broken ones listed."""
    grid = b.cal.grid
    out = ["", "hexes the data's facts changed (docs/maps.md \"Facts\"):"]
    out += [f"  {grid.label(c.hex)} {c.before} -> {c.after}: {c.why}" for c in b.changes] or ["  none"]
    book = [v for v in b.verdicts if v.fact.is_book]
    ours = [v for v in b.verdicts if not v.fact.is_book]
    out += ["", f"book facts ({len(book)}; {sum(v.holds for v in book)} hold):"]
    for v in book:
        state = "holds" if v.holds else "BROKEN: " + "; ".join(v.broken)
        out.append(f"  {grid.label(v.fact.hex)} {facts.describe(v.fact.demands)}: {v.fact.subject} "
                   f"[{v.fact.source}; {v.fact.where}]: {state}")
    out.append(f"stand-in facts (our placements and derived places; {len(ours)}; "
               f"{sum(v.holds for v in ours)} hold)" + (":" if any(not v.holds for v in ours) else ""))
    for v in ours:
        if not v.holds:
            out.append(f"  {grid.label(v.fact.hex)} {v.fact.subject} [{v.fact.where}]: BROKEN: {'; '.join(v.broken)}")
    return out


def fixes_report(b: MapBuild) -> list[str]:
    """The maintainer's corrections (overrides.csv), each with the source it gives the map."""
    grid = b.cal.grid
    out = [f"hand corrections applied ({b.cfg.map_id}.overrides.csv): {len(b.fixes)}",
           mapstamp.recorded_line(b.cfg.path(".overrides.csv"))]
    for o in b.fixes:
        hexes = " ".join(grid.label(h) for h in (o.chain or (o.hex_a, o.hex_b)) if h is not None)
        what = " ".join(x for x in (o.action, hexes, o.value, o.name) if x)
        out.append(f"  line {o.line}: {what} [{o.source or derived(o.why)}]")
    return out


@dataclass
class Written:
    """What ``write_map`` did: files whose bytes changed, and hand-edited files it left alone."""

    changed: list[Path] = field(default_factory=list)
    kept: list[Path] = field(default_factory=list)


def write_map(b: MapBuild, force: bool = False) -> Written:
    """Write the generated files, except one edited by hand since it was generated (unless
    ``force``): that one is the maintainer's now and is kept as it is."""
    written = Written()
    for suffix, text in b.files.items():
        path = b.cfg.path(suffix)
        if not force and output.is_hand_edited(path):
            written.kept.append(path)
            continue
        if output.write_if_changed(path, text):
            written.changed.append(path)
    if b.cal.shifted_columns != b.cfg.grid.shifted_columns:
        toml = b.cfg.directory / f"{b.cfg.map_id}.toml"
        if output.set_grid_convention(toml, b.cal.shifted_columns):
            written.changed.append(toml)
    return written
