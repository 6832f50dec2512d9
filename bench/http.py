"""HTTP benchmark: gunicorn on loopback, wrk, /ping vs compute mode vs game mode.

The three loads run one after another against the same server in the same
run, so their ratio to ``/ping`` is fair even when the machine is noisy.
Game mode writes a ledger record per request (unique request ids), which is
the expensive path: hash chain, Ed25519 receipt, SQLite commit.
"""

from __future__ import annotations

import os
import statistics
import tempfile
from pathlib import Path

import requests

from bench.checks import body_json, compute_body, compute_path, game_path
from bench.config import CHECK, TARGETS, CheckChoice, HttpSettings
from bench.profiling import start_py_spy, summarise_collapsed
from bench.results import Section
from bench.server import Gunicorn, new_game
from bench.wrk import Target, WrkResult, run_wrk

JSON = {"Content-Type": "application/json"}


def create_games(url: str, choice: CheckChoice, count: int) -> list[Target]:
    """`count` games of the chosen system, each as a (path, side-token header) target."""
    targets = []
    for _ in range(count):
        game_id, token, _ = new_game(url, choice.system, choice.scenario)
        targets.append(Target(game_path(choice, game_id), {**JSON, "Authorization": f"Bearer {token}"}))
    return targets


def check_once(url: str, target: Target, body: str) -> None:
    """One request before the load, so a wrong body fails loudly instead of measuring 422s."""
    response = requests.post(url + target.path, data=body, headers=target.headers, timeout=30)
    if response.status_code >= 300:
        raise RuntimeError(f"{target.path} answered {response.status_code}: {response.text[:500]}")


def run_http(settings: HttpSettings = HttpSettings(), choice: CheckChoice = CHECK,
             profile_on_miss: bool = True) -> Section:
    section = Section("http")
    costs = in_process_costs(choice, settings.sqlite_synchronous)
    with tempfile.TemporaryDirectory(prefix="bench-http-") as tmp:
        server = Gunicorn(Path(tmp), workers=settings.workers, extra_env={
            "ADJUDICATOR_WORKER_CLASS": settings.worker_class,
            "ADJUDICATOR_THREADS": str(settings.worker_threads),
            "ADJUDICATOR_SQLITE_SYNCHRONOUS": settings.sqlite_synchronous}).start()
        try:
            loads = prepare_loads(server.url, choice, settings)
            for name, (targets, body, unique) in loads.items():  # warm-up
                run_wrk(server.url, targets, body=body, unique_ids=unique, duration_s=2,
                        connections=settings.connections, threads=settings.threads)
            rounds: list[dict[str, WrkResult]] = []
            for _ in range(settings.rounds):  # ping, compute, game; again: each ratio from neighbours
                rounds.append({name: measured_load(server, targets, body, unique, settings)
                               for name, (targets, body, unique) in loads.items()})
            report(section, rounds, choice, settings)
            for name, ms in costs.items():
                section.row(f"{name}, in-process CPU", f"{ms:6.2f} ms per request ({ms / costs['ping']:.1f}x ping; "
                                                        f"the WSGI app called directly, SQLite {settings.sqlite_synchronous})")
                section.numbers[f"{name}_cpu_ms"] = ms
            missed = [t for t in section.targets if not t.passed]
            if missed and profile_on_miss:
                section.profile = profile_game_mode(server, loads["game"], settings, Path(tmp))
        finally:
            server.stop()
    return section


def measured_load(server: Gunicorn, targets: list[Target], body: str | None, unique: bool,
                  settings: HttpSettings) -> WrkResult:
    """One wrk load, with the CPU the server's workers spent per request.

    Requests per second move with everything else on the machine; the workers' CPU per
    request moves much less, and says what a change to the service saved.
    """
    pids = server.worker_pids()
    before = workers_cpu_s(pids)
    result = run_wrk(server.url, targets, body=body, unique_ids=unique, duration_s=settings.duration_s,
                     connections=settings.connections, threads=settings.threads)
    if result.requests:
        result.server_cpu_ms = (workers_cpu_s(pids) - before) * 1000 / result.requests
    return result


def workers_cpu_s(pids: list[int]) -> float:
    """User + system CPU seconds of these processes so far (Linux /proc)."""
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # not Linux, or the worker was replaced
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def in_process_costs(choice: CheckChoice, sqlite_synchronous: str, requests_each: int = 300) -> dict[str, float]:
    """CPU milliseconds per request of each load through the WSGI app in this process (no
    sockets, no wrk): the service's own cost, steady even when the machine is shared.

    The app is called as a WSGI server calls it, with each request's environ built
    beforehand: Flask's test client costs about as much again as /ping itself and would
    blur the ratios (the best of three passes is kept).
    """
    import time

    from adjudicator.testing import make_app

    with tempfile.TemporaryDirectory(prefix="bench-inproc-") as tmp:
        app = make_app(Path(tmp), ADJUDICATOR_SQLITE_SYNCHRONOUS=sqlite_synchronous)
        client = app.test_client()
        game = client.post("/api/v1/games", json={"system": choice.system, "scenario": choice.scenario}).get_json()
        token = next(t for role, t in game["tokens"].items() if role != "observer")
        compute = body_json(compute_body(choice)).encode("utf-8")
        requests_of = {
            "ping": lambda i: _environ("/ping", "GET"),
            "compute": lambda i: _environ(compute_path(choice), "POST", compute),
            "game": lambda i: _environ(game_path(choice, game["game_id"]), "POST",
                                       body_json({**choice.body, "request_id": f"r{i}"}).encode("utf-8"),
                                       {"Authorization": f"Bearer {token}"}),
        }
        costs = {}
        for name, make_request in requests_of.items():
            passes = [[make_request(f"{p}-{i}") for i in range(requests_each)] for p in range(3)]
            _call_wsgi(app, make_request("warm"), name)
            best = None
            for prepared in passes:
                started = time.process_time()
                for environ in prepared:
                    _call_wsgi(app, environ, name)
                spent = (time.process_time() - started) * 1000 / requests_each
                best = spent if best is None else min(best, spent)
            costs[name] = best
        return costs


def _environ(path: str, method: str, body: bytes = b"", headers: dict[str, str] | None = None) -> dict:
    from werkzeug.test import EnvironBuilder

    builder = EnvironBuilder(path=path, method=method, data=body, headers=headers or {},
                             content_type=JSON["Content-Type"] if body else None)
    environ = builder.get_environ()
    environ["bench.body"] = body
    return environ


def _call_wsgi(app, environ: dict, name: str) -> None:
    import io

    environ["wsgi.input"] = io.BytesIO(environ["bench.body"])
    status = []
    body = b"".join(app(environ, lambda s, headers, exc_info=None: status.append(s)))
    if not status[0].startswith("2"):
        raise RuntimeError(f"in-process {name}: {status[0]} {body[:300]!r}")


def prepare_loads(url: str, choice: CheckChoice, settings: HttpSettings) -> dict:
    compute = body_json(compute_body(choice))
    game = body_json(dict(choice.body))
    compute_target = Target(compute_path(choice), JSON)
    game_targets = create_games(url, choice, settings.games)
    check_once(url, compute_target, compute)
    check_once(url, game_targets[0], body_json({**choice.body, "request_id": "bench-probe"}))
    return {
        "ping": ([Target("/ping", {})], None, False),
        "compute": ([compute_target], compute, False),
        "game": (game_targets, game, True),
    }


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else 0.0


def report(section: Section, rounds: list[dict[str, WrkResult]], choice: CheckChoice, settings: HttpSettings) -> None:
    """Medians over the rounds; each ratio to /ping is taken within a round, then the median."""
    section.notes.append(f"check: {choice.system}.{choice.name}; {settings.connections} connections, "
                         f"{settings.threads} wrk threads, {settings.workers} gunicorn {settings.worker_class} workers "
                         f"x {settings.worker_threads} thread(s), {settings.rounds} rounds of "
                         f"{settings.duration_s} s per load (medians shown), "
                         f"SQLite synchronous={settings.sqlite_synchronous}")
    ratios: dict[str, float] = {}
    for name in rounds[0]:
        runs = [r[name] for r in rounds]
        rps = _median([r.rps for r in runs])
        ratio = _median([r[name].rps / r["ping"].rps for r in rounds if r["ping"].rps])
        ratios[name] = ratio
        p50, p99 = _median([r.p50_ms for r in runs]), _median([r.p99_ms for r in runs])
        server_ms = _median([r.server_cpu_ms for r in runs])
        non_2xx, errors = sum(r.non_2xx for r in runs), sum(r.socket_errors for r in runs)
        spread = ", ".join(f"{r.rps:.0f}" for r in runs)
        section.row(name, f"{rps:8.0f} req/s  {ratio:5.2f}x ping  p50 {p50:6.2f} ms  p99 {p99:6.2f} ms  "
                          f"server CPU {server_ms:5.2f} ms/req  non-2xx {non_2xx}  socket errors {errors}  "
                          f"(rounds: {spread} req/s)")
        section.numbers.update({f"{name}_rps": rps, f"{name}_over_ping": ratio, f"{name}_p50_ms": p50,
                                f"{name}_p99_ms": p99, f"{name}_non_2xx": non_2xx,
                                f"{name}_server_cpu_ms": server_ms})
        if non_2xx or errors:
            section.notes.append(f"{name}: {non_2xx} non-2xx responses, {errors} socket errors")
    section.target("game-mode req/s over /ping", ratios["game"], TARGETS.game_over_ping, "x", at_most=False)
    section.target("compute-mode req/s over /ping", ratios["compute"], TARGETS.compute_over_ping, "x", at_most=False)
    for name, target in (("compute", TARGETS.compute_over_ping), ("game", TARGETS.game_over_ping)):
        section.notes.append(cpu_budget_note(name, target, section.numbers))
    section.target(f"game-mode p99 at {settings.connections} connections", section.numbers["game_p99_ms"],
                   TARGETS.p99_ms, "ms", at_most=True)


def cpu_budget_note(name: str, target: float, numbers: dict[str, float], cores: int | None = None) -> str:
    """What a ratio target allows a load to cost, in CPU, next to what its workers spend.

    With every core busy, /ping's rate says what one request costs the whole machine (server,
    kernel, wrk): cores / rate. A load reaches `target` x that rate only if it adds at most
    (1 / target - 1) x that cost. The workers' own added CPU (their CPU per request minus
    /ping's) is the part the service controls; the rest of the machine's cost barely differs
    between loads.
    """
    cores = cores or os.cpu_count() or 1
    ping_rps = numbers.get("ping_rps") or 0.0
    if not ping_rps:
        return f"{name}: no /ping rate, no CPU budget"
    per_ping_ms = cores * 1000 / ping_rps
    allowed = (1 / target - 1) * per_ping_ms
    added = numbers[f"{name}_server_cpu_ms"] - numbers["ping_server_cpu_ms"]
    numbers[f"{name}_cpu_allowed_over_ping_ms"] = allowed
    numbers[f"{name}_server_cpu_over_ping_ms"] = added
    return (f"{name}: at {target:.2f}x /ping it may add {allowed:.2f} ms of machine CPU per request over /ping "
            f"({cores} cores / {ping_rps:,.0f} req/s = {per_ping_ms:.2f} ms per /ping); its workers add {added:.2f} ms "
            f"({numbers[f'{name}_server_cpu_ms']:.2f} - {numbers['ping_server_cpu_ms']:.2f})")


def profile_game_mode(server: Gunicorn, load: tuple, settings: HttpSettings, tmp: Path) -> str:
    """Sample every worker with py-spy while game-mode load runs."""
    targets, body, unique = load
    seconds = max(4, settings.duration_s)
    samplers = []
    outputs = []
    for pid in server.worker_pids():
        out = tmp / f"py-spy-{pid}.txt"
        sampler = start_py_spy(pid, seconds, out)
        if sampler is not None:
            samplers.append(sampler)
            outputs.append(out)
    if not samplers:
        return "py-spy not installed (pip install py-spy) — no profile"
    run_wrk(server.url, targets, body=body, unique_ids=unique, duration_s=seconds,
            connections=settings.connections, threads=settings.threads)
    for sampler in samplers:
        sampler.wait(timeout=60)
    return "game mode under load, py-spy over the workers:\n" + summarise_collapsed(outputs)
