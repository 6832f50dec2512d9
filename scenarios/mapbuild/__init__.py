"""Build the games' stand-in hex maps from the committed Korea geography.

The pipeline for one map (``build.build_map``), in the order it runs:

1. ``config``     read the data engineer's ``maps/<map>.toml`` (grid, terrain legend) and our
                  ``maps/<map>.geo.cfg`` (scale, anchor hexes, thresholds, which lines to draw).
2. ``calibrate``  fit hex centres to the ground from the anchors (``fit`` does the least squares,
                  ``projection`` turns lat/lon into km, ``warp`` rubber-sheets a drawn map's
                  distortion), trying the numbering conventions; fails past half a hex.
3. ``classify``   sea / lake / clear / rough / mountain per hex from land mask and elevation.
4. ``lines``      rivers and parallels as hexsides, railways and roads as hex paths, red lines.
5. ``places``     towns from the town table as extra features (``<map>.geo-features.csv``).
6. ``overrides``  the maintainer's hand corrections (``<map>.overrides.csv``), applied last.
7. ``output``     the generated files and the calibration report, byte-for-byte deterministic.

Run it with ``python -m scenarios.mapbuild <game> [<map>]``; see docs/maps.md.
Standard library only: it reads nothing but the repository.
"""

SOURCE_PREFIX = "stand-in: derived from geography"


def derived(what: str) -> str:
    """The ``source`` text every generated row carries."""
    return f"{SOURCE_PREFIX} ({what})"
