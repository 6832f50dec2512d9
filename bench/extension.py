"""The Adjudicator extension's latency: from the action to its chat lines, in the real engine.

A real adjudicator (gunicorn on a loopback port) and Fire and Ice's module in VASSAL 3.7.26
under Xvfb (tests/engine): the Chinese Intervention setup, the largest, a recorded game created
through the extension, then a combat and a whole-side supply report asked ``REPEAT`` times each.
The harness times each call of the extension from the call to its return, which comes after the
ruling's chat lines are shown and logged (board read, request, server, transcript into the chat).

The bare request it is held against is the same request (the body the extension sent, a new
request id) sent from the same JVM with the JDK's HTTP client right after each call (the
harness's ``http`` step): the same machine at the same moment, so a loaded machine slows both
alike. The target: the extension adds at most 3 ms at p50. The same requests from Python with
``requests`` are shown beside, after the engine run. Skipped, with the reason, without
VASSAL_ENGINE_JAR.
"""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from pathlib import Path

import requests

from bench.results import Section
from bench.server import Gunicorn

GAME = "fireandice"
SCENARIO = "intervention"
REPEAT = 30
WARMUP = 5


def run_extension() -> Section:
    from tests.engine.harness import run_engine, skip_reason

    section = Section("extension")
    reason = skip_reason()
    if reason:
        section.row("skipped", reason)
        section.notes.append(f"skipped: {reason}")
        return section
    with tempfile.TemporaryDirectory(prefix="bench-extension-") as tmp:
        work = Path(tmp)
        server = Gunicorn(workdir=work / "server").start()
        try:
            measure(section, server, work, run_engine)
        finally:
            server.stop()
    return section


def measure(section: Section, server: Gunicorn, work: Path, run_engine) -> None:
    from tests.engine.play import adjacent_combat, call, kept_tokens, player_fields

    module = build_module(work)
    system = next(s for s in requests.get(server.url + "/api/v1/systems", timeout=30).json()["systems"] if s["id"] == GAME)
    # Fire and Ice's combat names the hex fought over and the levels, not the attacking units
    combat = adjacent_combat(GAME, SCENARIO, distance=2)
    fields = json.dumps(player_fields(system, "combat"))
    rounds = WARMUP + REPEAT
    steps = [
        {"do": "setup", "name": combat.scenario.name},
        {"do": "side", "side": combat.attacking_side},
        call("connect", server.url),
        call("createRecordedGame", "", ""),
        {"do": "select", "pieces": [{"id": a} for a in combat.attackers]},
    ]
    starts = {}
    for check, args in (("combat", (combat.defender, fields)), ("supply", (combat.attackers[0], "{}"))):
        starts[check] = len(steps)
        for i in range(rounds):
            asked = len(steps)
            steps.append(call("check", check, *args))
            steps.append(bare_request(check, asked, i))
    run = run_engine(module, steps, timeout=900, prefs_dir=work / "prefs")
    if not run.ok:
        raise RuntimeError(f"extension benchmark: {run.failure()}")
    game_id = run.result(3)["returned"]["game_id"]
    (token,) = kept_tokens(work / "prefs")
    for check, start in starts.items():
        asked = range(start, start + 2 * rounds, 2)
        answers = [run.result(i)["returned"] for i in asked]
        refused = next((a for a in answers if not a["ok"]), None)
        if refused:
            section.row(f"{check}: not measured", f"refused: {refused['title']}: {refused['detail']}")
            continue
        label = "combat" if check == "combat" else f"whole-side supply ({len(answers[0]['request']['positions'])} units)"
        measured = [i for i in asked][WARMUP:]
        ext = percentiles([run.step(i)["ms"] for i in measured])
        bare = percentiles([run.result(i + 1)["ms"] for i in measured])
        py = percentiles(same_request(server, game_id, token, check, answers[0]["request"]))
        split = {phase: statistics.median(run.result(i)["returned"]["ms"][phase] for i in measured)
                 for phase in ("board", "server", "chat")}
        section.row(f"{label}: extension", f"p50 {ext[0]:7.1f} ms  p99 {ext[1]:7.1f} ms")
        section.row(f"{label}: bare request, same JVM", f"p50 {bare[0]:7.1f} ms  p99 {bare[1]:7.1f} ms")
        section.row(f"{label}: extension adds", f"p50 {ext[0] - bare[0]:+7.1f} ms  (target <= +3 ms)")
        section.row(f"{label}: requests from Python", f"p50 {py[0]:7.1f} ms  p99 {py[1]:7.1f} ms")
        section.row(f"{label}: inside the extension", f"p50 board {split['board']:.1f} ms, server {split['server']:.1f} ms, "
                    f"chat ({len(answers[0]['lines'])} lines) {split['chat']:.1f} ms")
        section.numbers.update({f"{check}_{phase}_p50_ms": value for phase, value in split.items()})
        section.numbers.update({f"{check}_extension_p50_ms": ext[0], f"{check}_extension_p99_ms": ext[1],
                                f"{check}_bare_p50_ms": bare[0], f"{check}_bare_p99_ms": bare[1],
                                f"{check}_adds_p50_ms": ext[0] - bare[0],
                                f"{check}_requests_p50_ms": py[0], f"{check}_requests_p99_ms": py[1]})
    section.notes.append(f"{GAME} {SCENARIO}, recorded game, {REPEAT} calls each after {WARMUP} warm-up calls, each followed "
                         "by the bare request; p99 of 30 is the slowest but one. Extension: the call until the chat lines "
                         "are shown and logged (board: reading the pieces; server: its HTTP call; chat: showing and logging "
                         "the lines). Bare request: the extension's body with a new request id, POSTed from the engine's JVM "
                         "with the JDK's HTTP client (?transcript=1&changes=1, as the extension). requests: the same from "
                         "Python after the run.")


def bare_request(check: str, asked: int, i: int) -> dict:
    """A harness step POSTing the body the extension sent at step `asked`, with a new request id."""
    return {"do": "http", "method": "POST", "url": "{server}/api/v1/games/{game}/" + check + "?transcript=1&changes=1",
            "body": "{request}", "set": {"request_id": f"bare-{check}-{i}"}, "token": "{token}",
            "from": {"server": [2, "returned", "server"], "game": [3, "returned", "game_id"],
                     "token": [3, "returned", "your_token"], "request": [asked, "returned", "request"]}}


def build_module(work: Path) -> Path:
    from modgen.artwork import collect_images
    from modgen.build import build_entries, write_module
    from scenarios import load_game

    game = load_game(GAME)
    images = collect_images(game, cache_dir=Path(".cache/art"))
    return write_module(build_entries(game, images, "bench"), work, f"{GAME}.vmod")


def same_request(server: Gunicorn, game_id: str, token: str, check: str, body: dict) -> list[float]:
    """The extension's request body sent from Python (a new request id each time, so each is
    a new ruling as the extension's are)."""
    url = f"{server.url}/api/v1/games/{game_id}/{check}?transcript=1"
    times = []
    with requests.Session() as session:
        for i in range(WARMUP + REPEAT):
            body = {**body, "request_id": f"bench-{check}-{i}"}
            started = time.perf_counter()
            answer = session.post(url, json=body, headers={"Authorization": f"Bearer {token}"}, timeout=60)
            elapsed = (time.perf_counter() - started) * 1000
            if answer.status_code != 201:
                raise RuntimeError(f"extension benchmark: {check} from Python: {answer.status_code} {answer.text[:300]}")
            if i >= WARMUP:
                times.append(elapsed)
    return times


def percentiles(values: list[float]) -> tuple[float, float]:
    """p50 and p99 (nearest rank)."""
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, max(0, round(0.99 * len(ordered)) - 1))]
    return statistics.median(ordered), p99
