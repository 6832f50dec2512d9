"""Imports run one way, down (docs/architecture.md, "Packages and who imports whom").

The layers are what a newcomer reads the code by: a page may call the recorded-check path, the
ledger never calls a page. An import that runs up (even one inside a function) ties a lower layer
to everything above it, and the next change there breaks something that looked unrelated, so
this test reads every import statement of the project's code and names each one that runs up.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# The project's packages, and which others each may import.
PACKAGES = {
    "scenarios": set(),
    "vassalfmt": set(),
    "art": {"scenarios"},
    "modgen": {"scenarios", "art", "vassalfmt"},
    "adjudicator": {"scenarios", "art", "vassalfmt"},
}

# The adjudicator's own layers, top first: a part may import its own layer and those below it.
# A part is a subpackage (`web`) or a top-level module (`rulings`).
ADJUDICATOR_LAYERS = [
    ("entry points", {"app", "cli", "wsgi", "gunicorn.conf", "testing", "client"}),
    ("pages", {"web"}),
    ("JSON API", {"api"}),
    ("logs received", {"logs"}),
    ("saved games", {"bridge"}),
    ("chances", {"chances", "odds"}),
    ("the recorded-check path", {"rulings"}),
    ("what a running app holds", {"services", "served_data", "problems"}),
    ("rules per game", {"rules"}),
    ("the ledger", {"ledger"}),
    ("what players read", {"words"}),
    ("leaves: registries and the board's description",
     {"checks", "systems", "facts", "greenlets", "boardread", "fog", "canonical", "unit_changes", "unit_owners", "request_units", "piece_actions", "ruled_orders",
      "examples", "config", "json_provider"}),
]


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, dotted module) of every import in a file, module-level or not."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
            found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
    return found


def _part(dotted: str) -> str | None:
    """The adjudicator part a dotted name lies in (`adjudicator.web.csrf` -> `web`), or None."""
    parts = dotted.split(".")
    if parts[0] != "adjudicator" or len(parts) < 2:
        return None
    if (ROOT / "adjudicator" / parts[1]).is_dir() or (ROOT / "adjudicator" / f"{parts[1]}.py").exists():
        return parts[1]
    return None


def _rank() -> dict[str, int]:
    return {part: i for i, (_, parts) in enumerate(ADJUDICATOR_LAYERS) for part in parts}


def test_every_adjudicator_part_has_a_layer():
    rank = _rank()
    parts = {p.stem for p in (ROOT / "adjudicator").glob("*.py") if p.stem != "__init__"}
    parts |= {p.name for p in (ROOT / "adjudicator").iterdir() if (p / "__init__.py").exists()}
    assert sorted(parts - set(rank)) == [], "a new part of the adjudicator: give it a layer here"


def test_packages_import_only_what_they_may():
    wrong = []
    for package, allowed in PACKAGES.items():
        for path in sorted((ROOT / package).rglob("*.py")):
            for line, dotted in _imports(path):
                top = dotted.split(".")[0]
                if top in PACKAGES and top != package and top not in allowed:
                    wrong.append(f"{path.relative_to(ROOT)}:{line}: imports {dotted}")
    assert wrong == []


def test_adjudicator_imports_run_down():
    rank = _rank()
    upward = []
    for path in sorted((ROOT / "adjudicator").rglob("*.py")):
        here = _part("adjudicator." + ".".join(path.relative_to(ROOT / "adjudicator").with_suffix("").parts))
        if here is None:
            here = path.stem
        for line, dotted in _imports(path):
            there = _part(dotted)
            if there is None or there == here or here not in rank or there not in rank:
                continue
            if rank[there] < rank[here]:
                upward.append(f"{path.relative_to(ROOT)}:{line}: {here} ({ADJUDICATOR_LAYERS[rank[here]][0]}) "
                              f"imports {dotted} ({ADJUDICATOR_LAYERS[rank[there]][0]})")
    assert sorted(set(upward)) == []


def test_rules_touch_no_storage_flask_or_randomness():
    """Rules are pure: dice come in as an argument; the only ledger module they use is the draws
    registry they register their reveals into (a registry is a leaf others register into)."""
    wrong = []
    for path in sorted((ROOT / "adjudicator" / "rules").rglob("*.py")):
        for line, dotted in _imports(path):
            top = dotted.split(".")[0]
            if top in {"flask", "random", "secrets", "sqlalchemy"} or (
                    dotted.startswith("adjudicator.ledger") and not dotted.startswith("adjudicator.ledger.draws")):
                wrong.append(f"{path.relative_to(ROOT)}:{line}: imports {dotted}")
    assert wrong == []
