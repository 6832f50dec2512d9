"""Result records every section returns, the results file and the printed table."""

from __future__ import annotations

import json
import os
import platform
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

RESULTS_DIR = Path(__file__).resolve().parent / "results"


@dataclass
class TargetCheck:
    """One target from issue 11 and whether this run met it."""

    name: str
    measured: float
    target: float
    unit: str  # "x" (ratio), "ms", "s"
    at_most: bool  # True: measured must be <= target; False: >=

    @property
    def passed(self) -> bool:
        return self.measured <= self.target if self.at_most else self.measured >= self.target

    def to_json(self) -> dict:
        return {**asdict(self), "passed": self.passed}


@dataclass
class Section:
    """What one benchmark section measured: rows of numbers, the targets, notes, profiles."""

    name: str
    rows: list[tuple[str, str]] = field(default_factory=list)  # (label, value as shown)
    numbers: dict[str, float] = field(default_factory=dict)  # raw numbers for the JSON file
    targets: list[TargetCheck] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    profile: str = ""
    failure: str = ""  # the traceback of a section that stopped with an error (its run is not measured)

    def row(self, label: str, shown: str) -> None:
        self.rows.append((label, shown))

    def target(self, name: str, measured: float, target: float, unit: str, at_most: bool) -> TargetCheck:
        check = TargetCheck(name, measured, target, unit, at_most)
        self.targets.append(check)
        return check

    @classmethod
    def skipped(cls, name: str, reason: str | None) -> Section | None:
        """The section of a benchmark that cannot run here, saying why; None when it can."""
        if not reason:
            return None
        section = cls(name)
        section.row("skipped", reason)
        section.notes.append(f"skipped: {reason}")
        return section

    @classmethod
    def failed(cls, name: str, failure: str) -> Section:
        """A section that stopped with an error: the error's last line shown, the whole in the file."""
        section = cls(name, failure=failure)
        section.row("FAILED", failure.strip().splitlines()[-1][:200])
        return section

    def to_json(self) -> dict:
        return {"name": self.name, "rows": [list(r) for r in self.rows], "numbers": self.numbers,
                "targets": [t.to_json() for t in self.targets], "notes": self.notes, "profile": self.profile,
                **({"failure": self.failure} if self.failure else {})}


def machine() -> dict:
    return {"python": platform.python_version(), "platform": platform.platform(), "cpus": os.cpu_count()}


def write_results(sections: list[Section], directory: Path = RESULTS_DIR, path: Path | None = None) -> Path:
    """The results file (a new one named by the time, or `path` written again as sections finish)."""
    directory.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    path = path or directory / f"{stamp}.json"
    document = {"time": path.stem, "machine": machine(), "sections": [s.to_json() for s in sections]}
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    return path


def _fmt(value: float, unit: str) -> str:
    if unit == "x":
        return f"{value:.2f}x"
    if unit == "ms":
        return f"{value:.2f} ms"
    return f"{value:.2f} {unit}"


def table(sections: list[Section]) -> str:
    lines = []
    for s in sections:
        lines.append(f"== {s.name} ==")
        width = max([len(label) for label, _ in s.rows] + [10])
        for label, shown in s.rows:
            lines.append(f"  {label:<{width}}  {shown}")
        for t in s.targets:
            op = "<=" if t.at_most else ">="
            verdict = "PASS" if t.passed else "FAIL"
            lines.append(f"  [{verdict}] {t.name}: {_fmt(t.measured, t.unit)} (target {op} {_fmt(t.target, t.unit)})")
        for note in s.notes:
            lines.append(f"  note: {note}")
        if s.profile:
            lines.append("  profile (hot spots):")
            lines.extend("    " + ln for ln in s.profile.splitlines())
        lines.append("")
    return "\n".join(lines)
