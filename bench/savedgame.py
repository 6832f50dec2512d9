"""The saved-game page of the largest setup, interactive in Chromium within a second (issue 41).

A real adjudicator (gunicorn on a loopback port) and the module's setup holding the most units on its
maps of all four games' scenarios (Fire and Ice's Intervention). The benchmark uploads it once, then
opens its combat check page — the module's board with every counter drawn, the form beside it — in
headless Chromium, three ways:

- **pictures drawn now**: the server's art cache empty (a server started on a fresh machine): the
  board's picture and every counter are drawn by the requests that ask for them;
- **pictures kept**: the server's art cache filled (by the first visit, or by a module build that
  shares it), a browser of its own with nothing cached;
- **again**: the same browser opening the page a second time (its HTTP cache keeps the pictures:
  their addresses never change their bytes).

Each: the page's HTML as the server sends it, the time from the navigation's start to the board
ready (``window.boardsReadyAt``: every stack drawn, hover, zoom and clicks answered), and to the last
picture in (resource timing: the board's and every counter's). Target: interactive within 1 s with
the pictures kept. Skipped, with the reason, without Chromium, chromedriver or selenium.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

from bench.replay import PageSession, _skip_reason
from bench.results import Section
from bench.server import Gunicorn, served

INTERACTIVE_TARGET_MS = 1000.0
GAMES = ("kwb", "spi", "holdfast", "fireandice")

#: The browser's own account of the page: board ready, and the pictures' requests.
TIMINGS_JS = """
const art = performance.getEntriesByType('resource').filter(e => e.name.includes('/art/'));
const nav = performance.getEntriesByType('navigation')[0];
return {ready: window.boardsReadyAt, dom: nav.domContentLoadedEventEnd, load: nav.loadEventEnd,
        pictures: art.length, last_picture: Math.max(0, ...art.map(e => e.responseEnd)),
        board_picture: Math.max(0, ...art.filter(e => e.name.includes('_map_') || e.name.includes('_board_'))
                                             .map(e => e.responseEnd)),
        stacks: document.querySelectorAll('figure.board g.stack').length,
        counters: document.querySelectorAll('figure.board g.stack g.piece').length};
"""


def run_savedgame() -> Section:
    skipped = Section.skipped("savedgame", _skip_reason())
    if skipped:
        return skipped
    section = Section("savedgame")
    system, scenario, units, setup = largest_setup()
    with served("bench-savedgame-", lambda work: {"ADJUDICATOR_ART_CACHE": str(work / "art")}) as (work, server):
        measure(section, server, work, system, scenario, units, setup)
    return section


def largest_setup() -> tuple[str, str, int, bytes]:
    """(game, scenario, units on its maps, the module's setup file) of the setup with the most units on
    the maps, over every scenario of the four games."""
    from modgen.artwork import collect_images
    from modgen.build import build_entries

    from adjudicator.bridge import read_positions, read_upload
    from scenarios import load_game

    best: tuple[str, str, int, bytes] | None = None
    for system in GAMES:
        game = load_game(system)
        entries = build_entries(game, collect_images(game, cache_dir=Path(".cache/art")), "bench").entries
        for scenario in game.scenarios:
            data = entries[f"setups/{scenario}.vsav"]
            units = len(read_positions(game, read_upload(data)).on_map())
            if best is None or units > best[2]:
                best = (system, scenario, units, data)
    return best


def measure(section: Section, server: Gunicorn, work: Path, system: str, scenario: str, units: int,
            setup: bytes) -> None:
    page = PageSession(server.url)
    kept = page.post(f"/systems/{system}/savedgame", f"/systems/{system}/savedgame",
                     files={"file": (f"{scenario}.vsav", setup)}, data={"_check": "combat"})
    if kept.status_code != 303:
        raise RuntimeError(f"savedgame benchmark: the setup was refused ({kept.status_code}): {kept.text[-500:]}")
    address = server.url + kept.headers["Location"]
    sends = []
    for _ in range(3):
        started = time.perf_counter()
        html = page.session.get(address, timeout=120)
        sends.append((time.perf_counter() - started) * 1000)
    section.row("setup", f"{system} {scenario}: {units} units on the maps (the most of any setup)")
    section.row("page sent (server)", f"{min(sends):8.0f} ms  (best of 3; {len(html.content) // 1024} KiB of HTML)")
    section.numbers.update({"units": units, "page_bytes": len(html.content), "page_send_ms": min(sends)})
    runs = browse(address, work, page.session.cookies.get_dict())
    for name, timing in runs.items():
        section.row(f"{name}: board ready", f"{timing['ready']:8.0f} ms  ({timing['stacks']} stacks, "
                                            f"{timing['counters']} counters)")
        section.row(f"{name}: last picture in", f"{timing['last_picture']:8.0f} ms  ({timing['pictures']} pictures "
                                                f"fetched; the board's at {timing['board_picture']:.0f} ms)")
        key = name.split(":")[0].replace(" ", "_")
        section.numbers[f"{key}_ready_ms"] = timing["ready"]
        section.numbers[f"{key}_pictures_ms"] = timing["last_picture"]
    section.notes.append(f"machine load during the run (1-minute average): {os.getloadavg()[0]:.1f} on "
                         f"{os.cpu_count()} CPUs")
    section.target("saved-game page interactive (largest setup, pictures kept)",
                   runs["pictures kept"]["ready"], INTERACTIVE_TARGET_MS, "ms", at_most=True)


def browse(address: str, work: Path, cookies: dict[str, str]) -> dict[str, dict]:
    """The page opened in headless Chromium: first with the server's art cache empty, then (a new
    browser) with it filled, then again in that browser.

    A file uploaded to a calculation page is kept for the browser that uploaded it (its session
    cookie, docs/api.md "Kept files belong to their uploader"): each Chromium is given the uploading
    session's cookies first, as the uploader's own browser, with nothing in its HTTP cache."""
    out = {}
    with chromium(work / "profile-1") as driver:
        as_uploader(driver, address, cookies)
        out["pictures drawn now"] = visit(driver, address)
    with chromium(work / "profile-2") as driver:
        as_uploader(driver, address, cookies)
        out["pictures kept"] = visit(driver, address)
        out["again (browser cache)"] = visit(driver, address)
    return out


def as_uploader(driver, address: str, cookies: dict[str, str]) -> None:
    from urllib.parse import urlsplit

    parts = urlsplit(address)
    driver.get(f"{parts.scheme}://{parts.netloc}/ping")  # a page of the service, for its cookies to be set on
    for name, value in cookies.items():
        driver.add_cookie({"name": name, "value": value, "path": "/"})


def visit(driver, address: str) -> dict:
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get("about:blank")
    driver.get(address)
    WebDriverWait(driver, 60).until(lambda d: d.execute_script("return document.documentElement.dataset.boardsReady"))
    # Every picture in: no request of the page is still open.
    WebDriverWait(driver, 60, poll_frequency=0.05).until(lambda d: d.execute_script(
        "return document.readyState === 'complete'"))
    return driver.execute_script(TIMINGS_JS)


class chromium:
    """A headless Chromium with a profile of its own (its own HTTP cache), quit on leaving."""

    def __init__(self, profile: Path):
        self.profile = profile

    def __enter__(self):
        from selenium import webdriver

        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser")
        for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                     "--window-size=1400,1000", f"--user-data-dir={self.profile}"):
            options.add_argument(flag)
        self.driver = webdriver.Chrome(service=webdriver.ChromeService(executable_path=shutil.which("chromedriver")),
                                       options=options)
        return self.driver

    def __exit__(self, *exc) -> None:
        self.driver.quit()
