"""The chances before the roll (issue 32): every check's odds for its book examples, timed.

For each check with dice: its own example (the form's) and the rulebooks' worked examples that
roll (`adjudicator.odds.book`). Each is computed once to warm up, then timed `repeats` times; a
check's line gives the p99 of its slowest example in wall-clock and in this process's CPU time
(on a shared two-core machine the CPU time says what the work costs, the wall-clock what a player
waits), whether it was exact, and its largest space: the example that took the most runs of the
check, with its combinations. Target: p99 <= 100 ms per check, judged on the CPU time: the machine
is shared, and under other processes' load the wall-clock measures them as much as the odds.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from adjudicator.app import settle_game_data
from adjudicator.checks import get_check_by_key
from adjudicator.odds import odds
from adjudicator.odds.book import BookExample, book_examples
from adjudicator.rules import register_all_games
from adjudicator.rulings import validate
from bench.config import TARGETS, OddsSettings
from bench.profiling import cprofile_call
from bench.results import Section


@dataclass
class Timed:
    example: BookExample
    wall_ms: list[float]
    cpu_ms: list[float]
    answer: dict

    @property
    def p99(self) -> float:
        return percentile(self.wall_ms, 99)

    @property
    def cpu_p99(self) -> float:
        return percentile(self.cpu_ms, 99)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))
    return ordered[index]


def time_example(example: BookExample, settings: OddsSettings) -> Timed:
    spec = get_check_by_key(example.check)
    request = validate(spec.request, example.request)
    start = time.perf_counter()
    answer = odds(spec, request)  # warm-up: the game's data and caches
    warm_ms = (time.perf_counter() - start) * 1000
    repeats = max(settings.min_repeats, min(settings.max_repeats, int(settings.budget_ms / max(warm_ms, 0.1))))
    wall, cpu = [], []
    for _ in range(repeats):
        w, c = time.perf_counter(), time.process_time()
        odds(spec, request)
        cpu.append((time.process_time() - c) * 1000)
        wall.append((time.perf_counter() - w) * 1000)
    return Timed(example, wall, cpu, answer)


def space_text(t: Timed) -> str:
    space = t.answer["space"]
    how = "exact" if t.answer["exact"] else f"sampled {t.answer['sampling']['samples']}"
    return f"{space['combinations']} combinations, {space['runs']} runs, {how}"


def run_odds(settings: OddsSettings = OddsSettings(), profile_on_miss: bool = True) -> Section:
    register_all_games()
    settle_game_data()  # as the app does when it starts
    section = Section("odds")
    by_check: dict[str, list[Timed]] = {}
    for example in book_examples():
        by_check.setdefault(example.check, []).append(time_example(example, settings))
    worst_overall: Timed | None = None
    for check, timed in by_check.items():
        slowest = max(timed, key=lambda t: t.cpu_p99)
        largest = max(timed, key=lambda t: t.answer["space"]["runs"])
        section.row(check, f"p99 {slowest.p99:7.1f} ms wall, {slowest.cpu_p99:7.1f} ms CPU; largest: "
                           f"{largest.example.name[:60]} ({space_text(largest)})")
        section.numbers[f"{check} p99 ms"] = slowest.p99
        section.numbers[f"{check} cpu p99 ms"] = slowest.cpu_p99
        section.numbers[f"{check} runs"] = largest.answer["space"]["runs"]
        section.target(f"{check} p99 (CPU)", slowest.cpu_p99, TARGETS.odds_p99_ms, "ms", at_most=True)
        if worst_overall is None or slowest.cpu_p99 > worst_overall.cpu_p99:
            worst_overall = slowest
    sampled = [t.example for ts in by_check.values() for t in ts if not t.answer["exact"]]
    section.notes.append(f"{sum(len(t) for t in by_check.values())} examples of {len(by_check)} checks; "
                         f"sampled (too many combinations for the budget): "
                         + (", ".join(f"{e.check} ({e.name[:40]})" for e in sampled) or "none"))
    if profile_on_miss and worst_overall is not None and worst_overall.cpu_p99 > TARGETS.odds_p99_ms:
        spec = get_check_by_key(worst_overall.example.check)
        request = validate(spec.request, worst_overall.example.request)
        section.profile = f"{worst_overall.example.check}: {worst_overall.example.name}\n" + cprofile_call(
            lambda: odds(spec, request), top=18)
    return section
