"""The background load bench/extension.py times every kind under (issue 53: click to ruling "on an
idle machine and under a stated background load"), and the load average each pass saw.

The load is the one a served adjudicator meets while a player clicks: other tables' recorded
rolls. `BackgroundRolls` creates `ExtensionLoad.games` recorded games of their own on the same
server (the HTTP benchmark's check, `bench.config.CHECK`: HoldFast's combat, game mode) and asks
their rolls at a fixed rate, `ExtensionLoad.rolls_per_s`, spread over the games, each a new
ruling (a new request id), each its own connection (the bench's reference: as the issue's ratios
were measured). A pacing thread hands each roll to one of `ExtensionLoad.clients` sender threads
at its scheduled time, so a slow answer delays no other roll; a roll that cannot start on time
(every sender busy) starts late and is counted. What was sent, answered and how fast is reported
beside the pass, with the load average (1 min) sampled every `LoadAverage.every_s` seconds.

The load is deliberately the server's, not a CPU burner: the machine is shared, and the Player's
and the server's own work is what the other players' rolls compete with.
"""

from __future__ import annotations

import os
import queue
import statistics
import threading
import time
from dataclasses import dataclass, field

import requests

from bench.checks import body_json, game_path
from bench.config import CHECK, ExtensionLoad
from bench.server import new_game


@dataclass
class LoadAverage:
    """The machine's load average (1 min), sampled in a thread of its own while a pass runs."""

    every_s: float = 5.0
    samples: list[float] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def __enter__(self) -> "LoadAverage":
        self.samples.append(os.getloadavg()[0])
        self._thread = threading.Thread(target=self._sample, name="bench-loadavg", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
        self.samples.append(os.getloadavg()[0])

    def _sample(self) -> None:
        while not self._stop.wait(self.every_s):
            self.samples.append(os.getloadavg()[0])

    def said(self) -> str:
        """The samples in words: first, median, highest, last."""
        s = self.samples or [float("nan")]
        return (f"load average (1 min) {s[0]:.1f} at the start, median {statistics.median(s):.1f}, "
                f"highest {max(s):.1f}, {s[-1]:.1f} at the end ({len(s)} samples, every {self.every_s:.0f} s, "
                f"{os.cpu_count()} CPUs)")


@dataclass
class RollStats:
    """What the background rolls did: sent, answered 201, other answers, late starts, latencies."""

    sent: int = 0
    ok: int = 0
    failed: dict[str, int] = field(default_factory=dict)
    late: int = 0
    ms: list[float] = field(default_factory=list)
    started: float = 0.0
    ended: float = 0.0

    def said(self, load: ExtensionLoad) -> str:
        seconds = max(self.ended - self.started, 1e-9)
        ordered = sorted(self.ms) or [float("nan")]
        p50 = ordered[len(ordered) // 2]
        p95 = ordered[min(len(ordered) - 1, round(0.95 * len(ordered)) - 1)]
        failed = ", ".join(f"{n} {what}" for what, n in sorted(self.failed.items())) or "none"
        return (f"the background load: other tables' recorded rolls ({CHECK.system} {CHECK.name}, game mode, "
                f"{load.games} games of their own on the same server, each roll a new ruling and its own "
                f"connection) at {load.rolls_per_s:.0f} a second stated: {self.sent} sent in {seconds:.0f} s "
                f"({self.sent / seconds:.1f} a second), {self.ok} recorded, other answers: {failed}; "
                f"{self.late} started more than 100 ms late; each roll's answer p50 {p50:.1f} ms, p95 {p95:.1f} ms")


class BackgroundRolls:
    """Recorded rolls at a fixed rate against `url` while the `with` block runs (see the module's doc)."""

    def __init__(self, url: str, load: ExtensionLoad = ExtensionLoad()):
        self.url = url
        self.load = load
        self.stats = RollStats()
        self._stop = threading.Event()
        self._work: queue.Queue = queue.Queue()
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        #: the load's games, (id, a side's token): a caller may read their ledgers
        self.games: list[tuple[str, str]] = []

    def __enter__(self) -> "BackgroundRolls":
        targets = []
        for _ in range(self.load.games):
            game_id, token, _ = new_game(self.url, CHECK.system, CHECK.scenario)
            self.games.append((game_id, token))
            targets.append((self.url + game_path(CHECK, game_id), {"Authorization": f"Bearer {token}",
                                                                   "Content-Type": "application/json"}))
        self._roll(*targets[0], "bench-load-check", scheduled=time.monotonic())  # a wrong body fails here, loudly
        if self.stats.ok != 1:
            raise RuntimeError(f"extension benchmark: the background rolls are refused: {self.stats.failed}")
        self.stats = RollStats(started=time.time())
        self._threads = [threading.Thread(target=self._send, name=f"bench-load-{n}", daemon=True)
                         for n in range(self.load.clients)]
        self._threads.append(threading.Thread(target=self._pace, args=(targets,), name="bench-load-pace", daemon=True))
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        for _ in range(self.load.clients):
            self._work.put(None)
        for thread in self._threads:
            thread.join(timeout=60)
        self.stats.ended = time.time()

    def _pace(self, targets: list[tuple[str, dict]]) -> None:
        """Each roll at its time: the n-th at start + n / rate, to the games in turn."""
        start = time.monotonic()
        n = 0
        while not self._stop.is_set():
            at = start + n / self.load.rolls_per_s
            if self._stop.wait(max(0.0, at - time.monotonic())):
                break
            url, headers = targets[n % len(targets)]
            self._work.put((url, headers, f"bench-load-{n}", at))
            n += 1

    def _send(self) -> None:
        while (item := self._work.get()) is not None:
            self._roll(*item)

    def _roll(self, url: str, headers: dict, request_id: str, scheduled: float) -> None:
        began = time.monotonic()
        what = None
        try:  # no session: each roll its own connection, as the bench's reference setting has it
            answer = requests.post(url, data=body_json({**CHECK.body, "request_id": request_id}), headers=headers,
                                   timeout=60)
            if answer.status_code != 201:
                what = f"HTTP {answer.status_code}"
        except requests.RequestException as error:
            what = type(error).__name__
        elapsed = (time.monotonic() - began) * 1000
        with self._lock:
            self.stats.sent += 1
            self.stats.late += began - scheduled > 0.1
            if what is None:
                self.stats.ok += 1
                self.stats.ms.append(elapsed)
            else:
                self.stats.failed[what] = self.stats.failed.get(what, 0) + 1
