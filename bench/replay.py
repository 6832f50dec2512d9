"""The replay of the largest log its upload accepts: built once on the server, a bounded page, each step drawn.

A real adjudicator (gunicorn on a loopback port) and a recorded Korean War Battles game (Pusan):
100 rulings recorded through the API, and a log our own writer makes on the module's setup
(tests/replay_logs.py): moves to a neighbouring hex and step changes with the 100 rulings' lines
between them, as many as make the log exactly the largest a replay accepts
(`adjudicator.logs.replay.build.MAX_REPLAY_COMMANDS` commands, setup included). Measured:

- the upload: the files kept and the build begun beside the request (`adjudicator.logs.background`);
  then the time from the upload to the replay ready (its JSON status polled as the building page
  polls it: reading, building, keeping), with the workers' CPU meanwhile. Target (issue 53): at most
  3 s. The same file uploaded again goes to the kept replay (not built again); one command more is
  refused (413, on its page);
- the page: its HTML's size and the server's time to send it (the replay is built already), then
  in headless Chromium the time from the navigation's start to the replay ready (the board drawn,
  the keys answered: ``window.replayReadyAt``). Target (issue 39): at most 2 MB, interactive
  within 3 s;
- stepping (issue 31): → through the first 1,200 steps (three pieces of them), ← 200 times, End and
  Home, N through every ruling, each key once the step before was drawn; the page's script times
  each from the key to the frame drawn (``window.replayTimings``). Target: every step drawn in at
  most 50 ms. A jump to a piece not fetched yet waits for it: jumps are shown apart.

Skipped, with the reason, without Chromium, chromedriver or selenium.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import requests

from bench.results import Section
from bench.server import Gunicorn, served

GAME, SCENARIO = "kwb", "pusan"
RULINGS = 100
STEPS_FORWARD = 1200
STEP_TARGET_MS = 50.0
PAGE_TARGET_BYTES = 2 * 1024 * 1024
INTERACTIVE_TARGET_MS = 3000.0
#: Issue 53: the largest log a replay accepts built within 3 s of its upload.
BUILD_TARGET_S = 3.0
COUNTER_BATTERY = {"un_marker": "sf-un-3", "communist_marker": "sf-com-1"}


def run_replay() -> Section:
    skipped = Section.skipped("replay", _skip_reason())
    if skipped:
        return skipped
    section = Section("replay")
    with served("bench-replay-") as (work, server):
        measure(section, server, work)
    return section


def _skip_reason() -> str | None:
    if not (shutil.which("chromium") or shutil.which("chromium-browser")) or not shutil.which("chromedriver"):
        return "headless Chromium and chromedriver are not installed"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed"
    return None


def setup_file() -> bytes:
    from modgen.artwork import collect_images
    from modgen.build import build_entries
    from scenarios import load_game

    game = load_game(GAME)
    return build_entries(game, collect_images(game, cache_dir=Path(".cache/art")), "bench").entries[
        f"setups/{SCENARIO}.vsav"]


def setup_commands(setup: bytes) -> int:
    from adjudicator.bridge import read_upload
    from vassalfmt.logsteps import log_steps

    return log_steps(read_upload(setup).command_text).command_count


def largest_log(server: Gunicorn, game: dict, setup: bytes) -> list[str]:
    """The commands that make a log of `MAX_REPLAY_COMMANDS` commands, setup included, and one more:
    moves and step changes with a ruling's lines at every hundredth of the way."""
    from adjudicator.logs.replay.build import MAX_REPLAY_COMMANDS
    from tests.replay_logs import LogWriter

    writer = LogWriter(GAME, setup)
    rng = random.Random(39)
    on_map = [u for u in writer.pieces if writer.hex_of(u)]
    total = MAX_REPLAY_COMMANDS + 1 - setup_commands(setup)
    every, rulings = total // (RULINGS + 1), 0
    with requests.Session() as session:
        while len(writer.commands) < total:
            if rulings < RULINGS and len(writer.commands) >= every * (rulings + 1):
                answer = session.post(f"{server.url}/api/v1/games/{game['game_id']}/counter_battery?transcript=1",
                                      json=COUNTER_BATTERY, headers={"Authorization": f"Bearer {game['tokens']['un']}"},
                                      timeout=60)
                if answer.status_code != 201:
                    raise RuntimeError(f"replay benchmark: a ruling was refused: {answer.text[:300]}")
                writer.ruling(answer.json()["transcript"])
                rulings += 1
                continue
            unit = rng.choice(on_map)
            steps = writer.game.units[unit].steps
            if len(writer.commands) % 5 == 4 and len(steps) > 1:
                writer.step(unit, steps[rng.randrange(len(steps))].name)
            else:
                grid = writer.game.maps[writer.map_of(unit)].grid
                writer.move(unit, grid.label(rng.choice(grid.neighbours(grid.parse(writer.hex_of(unit))))))
    return writer.commands[:total]


class PageSession:
    """A requests session that sends the pages' forms as a browser does: the service's Origin and
    the form token its page showed (adjudicator.web.csrf)."""

    def __init__(self, base: str):
        self.base = base
        self.session = requests.Session()

    def token(self, page: str) -> str:
        html = self.session.get(self.base + page, timeout=60).text
        return re.search(r'name="form_token" value="([0-9a-f]+)"', html).group(1)

    def post(self, page: str, form_page: str, **kwargs) -> requests.Response:
        data = {**kwargs.pop("data", {}), "form_token": self.token(form_page)}
        return self.session.post(self.base + page, data=data, headers={"Origin": self.base}, allow_redirects=False,
                                 timeout=300, **kwargs)


def measure(section: Section, server: Gunicorn, work: Path) -> None:
    game = requests.post(f"{server.url}/api/v1/games", json={"system": GAME, "scenario": SCENARIO}, timeout=60).json()
    gid = game["game_id"]
    from vassalfmt import continue_log

    setup = setup_file()
    made = largest_log(server, game, setup)
    log, over = continue_log(setup, made[:-1]), continue_log(setup, made)
    commands = setup_commands(setup) + len(made) - 1
    path = work / "largest.vlog"
    path.write_bytes(log)
    browser = PageSession(server.url)
    browser.post(f"/games/{gid}", f"/games/{gid}", data={"token": game["tokens"]["communist"]})
    started = time.perf_counter()
    with path.open("rb") as handle:
        kept = browser.post(f"/games/{gid}/replay", f"/games/{gid}/replay", files={"file": ("largest.vlog", handle)})
    upload_ms = (time.perf_counter() - started) * 1000
    if kept.status_code != 303:
        raise RuntimeError(f"replay benchmark: the largest log was refused ({kept.status_code}): {kept.text[-500:]}")
    address = server.url + kept.headers["Location"]
    built_ms, cpu = built_beside(browser.session, address, started, server)
    again_started = time.perf_counter()
    with path.open("rb") as handle:
        again = browser.post(f"/games/{gid}/replay", f"/games/{gid}/replay", files={"file": ("largest.vlog", handle)})
    again_ready = browser.session.get(server.url + again.headers["Location"], timeout=300).status_code
    again_ms = (time.perf_counter() - again_started) * 1000
    over_kept = browser.post(f"/games/{gid}/replay", f"/games/{gid}/replay", files={"file": ("over.vlog", over)})
    refused = settled(browser.session, server.url + over_kept.headers["Location"]) if over_kept.status_code == 303 \
        else over_kept
    sends = []
    for _ in range(3):
        started = time.perf_counter()
        page = browser.session.get(address, timeout=300)
        sends.append((time.perf_counter() - started) * 1000)
    if page.status_code != 200:
        raise RuntimeError(f"replay benchmark: the page answered {page.status_code}")
    section.numbers.update({"commands": commands, "log_bytes": len(log), "rulings": RULINGS,
                            "upload_ms": upload_ms, "built_ms": built_ms, "built_cpu_ms": cpu,
                            "same_file_again_ms": again_ms, "page_bytes": len(page.content),
                            "page_send_ms": min(sends), "one_more_command_status": refused.status_code})
    section.row("log", f"{commands} commands (the most a replay accepts), {RULINGS} rulings' lines, "
                       f"{len(log) // 1024} KiB; one command more: {refused.status_code}")
    section.row("upload answered (files kept, build begun beside it)", f"{upload_ms:8.0f} ms")
    section.row("upload to replay ready (built beside the requests)",
                f"{built_ms:8.0f} ms  ({cpu:.0f} ms of the workers' CPU)")
    section.row("the same file uploaded again, to its page", f"{again_ms:8.0f} ms  (page {again_ready}; kept, not built)")
    section.row("page sent (server, kept)", f"{min(sends):8.0f} ms  (best of 3; {len(page.content) // 1024} KiB)")
    ready_ms, timings = browse(server.url, game, address)
    section.numbers["interactive_ms"] = ready_ms
    section.row("page interactive (Chromium)", f"{ready_ms:8.0f} ms from the navigation's start")
    for name, values in timings.items():
        if not values:
            continue
        section.numbers[f"{name}_p50_ms"] = statistics.median(values)
        section.numbers[f"{name}_max_ms"] = max(values)
        section.row(f"{name} ({len(values)})", f"p50 {statistics.median(values):6.1f} ms  "
                                               f"p95 {_percentile(values, 95):6.1f} ms  max {max(values):6.1f} ms")
    over_target = sum(1 for t in timings["step forward"] if t > STEP_TARGET_MS)
    section.row("steps drawn in more than 50 ms", f"{over_target} of {len(timings['step forward'])}")
    section.numbers["steps_over_target"] = over_target
    section.notes.append(f"machine load during the run (1-minute average): {os.getloadavg()[0]:.1f} on "
                         f"{os.cpu_count()} CPUs")
    section.target("largest log built (upload to ready)", built_ms / 1000, BUILD_TARGET_S, "s", at_most=True)
    section.target("page HTML (largest log)", len(page.content) / (1024 * 1024), PAGE_TARGET_BYTES / (1024 * 1024),
                   "MB", at_most=True)
    section.target("page interactive (largest log, Chromium)", ready_ms, INTERACTIVE_TARGET_MS, "ms", at_most=True)
    section.target("every step drawn (max, browser)", max(timings["step forward"] + timings["step back"]),
                   STEP_TARGET_MS, "ms", at_most=True)


def built_beside(session: requests.Session, address: str, started: float, server: Gunicorn) -> tuple[float, float]:
    """Milliseconds from the upload's start to its replay's status saying ready (polled as the
    building page polls it), and the workers' CPU spent meanwhile."""
    from bench.http import workers_cpu_s

    cpu_before = workers_cpu_s(server.worker_pids())
    while True:
        state = session.get(address + "/status", timeout=60).json()["state"]
        if state in ("ready", "failed"):
            break
        time.sleep(0.05)
    if state != "ready":
        raise RuntimeError(f"replay benchmark: the largest log's build failed: {session.get(address, timeout=60).text[-500:]}")
    return (time.perf_counter() - started) * 1000, (workers_cpu_s(server.worker_pids()) - cpu_before) * 1000


def settled(session: requests.Session, address: str) -> requests.Response:
    """The page of a replay once its build has ended (the replay, or the refusal)."""
    while session.get(address + "/status", timeout=60).json()["state"] not in ("ready", "failed"):
        time.sleep(0.05)
    return session.get(address, timeout=60)


def browse(base: str, game: dict, address: str) -> tuple[float, dict[str, list[float]]]:
    """Open the replay in headless Chromium and step through it: the time to interactive, and the
    script's timings by kind of move."""
    from selenium import webdriver
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser")
    with tempfile.TemporaryDirectory(prefix="bench-replay-chromium-") as profile:
        for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                     "--window-size=1400,1000", f"--user-data-dir={profile}"):
            options.add_argument(flag)
        driver = webdriver.Chrome(service=webdriver.ChromeService(executable_path=shutil.which("chromedriver")),
                                  options=options)
        try:
            driver.get(f"{base}/games/{game['game_id']}")
            driver.find_element(By.ID, "token").send_keys(game["tokens"]["communist"])
            driver.find_element(By.ID, "game-login").submit()
            WebDriverWait(driver, 60).until(lambda d: d.find_elements(By.ID, "ledger"))
            driver.get(address)
            WebDriverWait(driver, 60).until(lambda d: d.execute_script("return document.body.dataset.replayReady") == "yes")
            ready = driver.execute_script("return window.replayReadyAt")
            out: dict[str, list[float]] = {}

            def keys(name: str, key, times: int) -> None:
                """Press `key` `times` times, each once the step before was drawn (as a player reads
                each step: keys pressed faster than frames would time one frame's wait twice)."""
                before = driver.execute_script("return window.replayTimings.length")
                for n in range(1, times + 1):
                    ActionChains(driver).send_keys(key).perform()
                    WebDriverWait(driver, 60, poll_frequency=0.002).until(
                        lambda d: d.execute_script("return window.replayTimings.length") >= before + n)
                out[name] = out.get(name, []) + driver.execute_script("return window.replayTimings")[before:]

            keys("step forward", Keys.ARROW_RIGHT, STEPS_FORWARD)
            keys("step back", Keys.ARROW_LEFT, 200)
            keys("jumps: End, Home", Keys.END, 1)
            keys("jumps: End, Home", Keys.HOME, 1)
            keys("jumps: next ruling", "n", RULINGS)
            out["of it in the page's script"] = driver.execute_script("return window.replayScript")
            return ready, out
        finally:
            driver.quit()


def _percentile(values: list[float], percent: int) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(percent / 100 * (len(ordered) - 1)))]
