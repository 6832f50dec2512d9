"""Whether a built map has applied its ``overrides.csv`` as the file is now.

A maintainer's correction in ``<map>.overrides.csv`` reaches the map (terrain grid, hexsides, paths)
only when the map build runs again; until then the module, the supply traces and the movement costs
use the map without it. The build records in ``<map>.calibration.txt`` a digest of the override rows
it applied; ``scenarios check`` compares it with the file's rows and names an overrides file edited
since, so the slip is caught where it is made (and the data is refused until the map is rebuilt).
Comments and blank lines are no rows: editing them changes nothing the build makes.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

#: The calibration report's line with the digest of the override rows the build applied.
RECORDED = re.compile(r"^overrides sha256: ([0-9a-f]{16}|none)$", re.M)


def overrides_digest(path: Path) -> str:
    """The digest of an overrides file's rows ("none" when there is no file), as the build records it."""
    if not path.exists():
        return "none"
    rows = [line.strip() for line in path.read_bytes().splitlines()]
    body = b"\n".join(row for row in rows if row and not row.startswith(b"#"))
    return hashlib.sha256(body).hexdigest()[:16]


def recorded_line(path: Path) -> str:
    """The calibration report's line that records the overrides ``path`` as applied now."""
    return f"overrides sha256: {overrides_digest(path)}"


def stale_overrides(overrides: Path, calibration: Path) -> bool:
    """True when the map was built (its report records a digest) from other override rows than the
    file has now. A map without a report, or a report from before the digest was recorded, is not
    judged (the data's own checks and the map build's say what they can)."""
    if not calibration.exists():
        return False
    found = RECORDED.search(calibration.read_bytes().decode("utf-8", errors="replace"))
    return found is not None and found.group(1) != overrides_digest(overrides)
