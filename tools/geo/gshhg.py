"""Read GMT's "binned" GSHHG / WDBII netCDF-4 files (Debian package gmt-gshhg-high).

Layout (GMT's own format, documented in GMT's gshhg_to_bin sources and checked by hand on these files):
the world is cut into square bins (2 degrees for the `h` resolution); each bin lists segments; each
segment is a run of uint16 offsets from the bin's south-west corner in units of bin_size/65535 degrees.
River and border files give a point count and a level per segment; coast files pack them into one word
(npts = v >> 9, level = (v >> 6) & 7). Segments are clipped at bin edges, so `join_segments` glues the
pieces back into longer polylines.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class Segment:
    """One piece of a coast or river line: its GSHHG level and an (n, 2) array of lon, lat."""

    level: int
    lonlat: np.ndarray


def read_binned(path: str, lat0: float, lat1: float, lon0: float, lon1: float) -> list[Segment]:
    """Return the segments of every bin that touches the box (not yet clipped to it)."""
    import netCDF4  # only needed for extraction

    with netCDF4.Dataset(path) as d:
        bin_deg = int(d["Bin_size_in_minutes"][0]) / 60.0
        nx = int(d["N_bins_in_360_longitude_range"][0])
        first = np.asarray(d["Id_of_first_segment_in_a_bin"][:])
        nseg = np.asarray(d["N_segments_in_a_bin"][:])
        if "N_points_for_a_segment" in d.variables:  # river and border files
            npts = np.asarray(d["N_points_for_a_segment"][:]).astype(np.int64) & 0xFFFF
            levels = np.asarray(d["Hierarchial_level_of_a_segment"][:]).astype(np.int64)
        else:  # coast files pack count and level into one word
            info = np.asarray(d["Embedded_npts_levels_exit_entry_for_a_segment"][:]).astype(np.int64)
            npts = info >> 9
            levels = (info >> 6) & 7
        p0 = np.asarray(d["Id_of_first_point_in_a_segment"][:]).astype(np.int64)
        dx = np.asarray(d["Relative_longitude_from_SW_corner_of_bin"][:]).view(np.uint16)
        dy = np.asarray(d["Relative_latitude_from_SW_corner_of_bin"][:]).view(np.uint16)

    out: list[Segment] = []
    for b in range(len(first)):
        lon_sw = (b % nx) * bin_deg
        lat_sw = 90.0 - (b // nx + 1) * bin_deg
        if lon_sw + bin_deg < lon0 or lon_sw > lon1 or lat_sw + bin_deg < lat0 or lat_sw > lat1:
            continue
        for s in range(int(first[b]), int(first[b] + nseg[b])):
            i, n = int(p0[s]), int(npts[s])
            lon = lon_sw + dx[i:i + n].astype(np.float64) * bin_deg / 65535.0
            lat = lat_sw + dy[i:i + n].astype(np.float64) * bin_deg / 65535.0
            out.append(Segment(int(levels[s]), np.column_stack([lon, lat])))
    return out


def join_segments(segments: list[Segment], tol_deg: float = 2e-4) -> list[Segment]:
    """Glue segments whose end meets another's start (same level), as long as the junction is unambiguous.

    GSHHG cuts every line at bin edges and sometimes stores a two-point stub on the edge itself;
    stubs of zero length are dropped. Confluences (three or more ends at a point) are left as breaks,
    so each river stays one tributary-free chain where possible.
    """
    pieces = [s for s in segments if len(s.lonlat) >= 2 and np.ptp(s.lonlat, axis=0).max() > 0]

    def key(p: np.ndarray) -> tuple[int, int]:
        return (round(p[0] / tol_deg), round(p[1] / tol_deg))

    changed = True
    while changed:
        changed = False
        ends: dict[tuple[int, int, int], list[tuple[int, str]]] = {}
        for idx, s in enumerate(pieces):
            ends.setdefault((s.level, *key(s.lonlat[0])), []).append((idx, "start"))
            ends.setdefault((s.level, *key(s.lonlat[-1])), []).append((idx, "end"))
        for node, members in ends.items():
            if len(members) != 2:
                continue
            (ia, ea), (ib, eb) = members
            if ia == ib:
                continue  # a closed ring
            a, b = pieces[ia].lonlat, pieces[ib].lonlat
            # orient so that a's end meets b's start
            if ea == "start":
                a = a[::-1]
            if eb == "end":
                b = b[::-1]
            merged = Segment(pieces[ia].level, np.vstack([a, b[1:]]))
            pieces = [p for k, p in enumerate(pieces) if k not in (ia, ib)] + [merged]
            changed = True
            break
    return pieces
