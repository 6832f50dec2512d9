"""The Adjudicator extension as a player feels it: from his last click before a ruling to the ruling
in the chat, for every kind of check the menus offer.

A real adjudicator (gunicorn on a loopback port, the tests' app: every game's dice fixed by its
seed, HoldFast's chosen) and the modules in the real VASSAL 3.7.26 Player under Xvfb (tests/engine),
played as a person plays them (java.awt.Robot):

- Fire and Ice, the first player's Player, three recorded games: the Invasion (its setup has units
  next to the enemy's), ``WARMUP + REPEAT`` combats, each a click on the attacking unit, a
  right-click on the defender, the combat's entry in its Adjudicator menu, the form (the combat's
  type chosen) and OK; the Chinese Intervention (the largest setup), as many whole-side supply
  reports (a right-click on a unit, its entry, OK); the Campaign Game (the only scenario whose rules
  offer the Foreign Intervention rolls), as many Chinese intervention checks (the toolbar's
  Adjudicator menu, Checks, its entry, the UN's VPs typed, OK). The Invasion is saved.
- combat losses, asked by the side that lost (bench/extension_owner.py): the UN's own Player loads
  that save, takes his side, joins the recorded game with his token, and asks the losses of each
  combat the UN lost (a right-click on the defender, "Combat losses for this unit", "eliminate every
  participating unit", OK);
- a hidden block's apply (bench/extension_owner.py): HoldFast's Campaign Game, the Communist's
  Player attacks the ROK 1st (a UN block hidden from him; the dice chosen so it loses one SP) and
  saves; the UN's Player loads the save, Adjudicator > Apply the rulings' changes to my pieces, Yes:
  timed from the press on the menu entry to the dialog's opening (the extension fetches the owed
  changes from the server and plans them against the board in between), plus from the press on Yes
  to the chat line the extension writes once the block's own commands have run (the same
  event-thread task): the click to the block's change, the fetch included, the person's time at the
  dialog left out; the block then read on the board.

A form that warns of a repeat (the same situation asked before: AskedBefore) is answered Roll
again, and the ruling is timed from that press, the last before it. Menu entries are found by their
component names (``check:<name>``, `Catalog.Check.itemName` in the extension; ``apply-owed``), not
by their words. The end is the moment the ruling's last chat line (its verify address) goes into the
chat window's document (a listener stamps each insert): board, form, request, server, transcript and
chat together.

The server's share: the same request from Python (the recorded request of a round, a new request id
each time; for the losses, the UN's combats the Player left unsettled; for the apply, the owed
changes it asks for, GET board-changes), shown beside. The Player's share, split: each check kind
asked ``SHARE`` times more without the form (the extension's own `check`, the same board read,
request and chat; the losses in the loser's Player, from the combats the UN lost that his timed
rounds left), whose stamps say how long the board read and the request's building took, the
request to the server and back, and the ruling's delivery, cut at the insert of its last line
into the chat's document (what follows, the session's note of the ruling and a notice's dialog
until the harness closes it, said apart: a click's timed span ends at that line); what a click
adds beyond them is the form's closing, the event queue and the robot's press and release. The
apply is split at its dialog: the menu entry to the dialog (fetch and plan), Yes to the chat line
(the pieces' commands and the chat).

Two passes over every kind, each in Players of their own and recorded games of their own on the
same server: idle (nothing of the bench's beside the Player; the machine's load average sampled
and said), then under a stated background load (`bench.config.ExtensionLoad`,
bench/extension_load.py: other tables' recorded rolls against the same server at a fixed rate),
with fewer rounds. Each row says its pass; the loaded pass's numbers are keyed ``loaded_...``.

Target (issues 42 and 53): at most TARGETS.click_to_ruling_p95_ms at the 95th percentile over every
check, idle; under the load the figure is reported, not held to a target. Skipped, with the reason,
without VASSAL_ENGINE_JAR.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import requests

from bench.config import TARGETS, ExtensionLoad
from bench.extension_load import BackgroundRolls, LoadAverage
from bench.results import Section
from bench.server import Gunicorn

GAME = "fireandice"
REPEAT = 30
WARMUP = 5
OWNER_REPEAT = 12  # losses and a hidden block's apply: a round each, after 2 warm-up rounds
OWNER_WARMUP = 2
#: The form's repeat warning (the same situation asked before: AskedBefore in the extension), answered as a player
#: who means to roll again does: the ruling is timed from this press, the last before it (the step after OK).
ROLL_AGAIN = {"do": "click_if", "window": "^Adjudicator: asked before as record", "on": "Roll again", "timeout": 3.0}
SHARE = 5  # checks asked without the form per kind, the Player's own stamps read


@dataclass(frozen=True)
class Kind:
    """One kind of check the menus offer, as the benchmark asks it."""

    check: str       # the check's name (its menu item is named "check:<name>")
    label: str       # in the table
    scenario: str    # the scenario (recorded game) it is asked in
    form: str        # the form's window title (a regular expression)
    typed: tuple[tuple[str, str], ...] = ()  # (field, text) a player types: what the board does not say


KINDS = (
    Kind("combat", "combat (right-click on the defender)", "invasion", "^Adjudicator: Combat"),
    Kind("supply", "whole-side supply (right-click on a unit)", "intervention", "^Adjudicator: Supply"),
    # offered in the Campaign Game only: the other scenarios' rules forbid the Foreign Intervention rolls (16.0-18.0)
    Kind("chinese_intervention", "Chinese intervention (Campaign Game, toolbar's Checks)", "campaign",
         "^Adjudicator: Chinese intervention", typed=(("/un_vp", "0"),)),  # the Campaign Game starts at 0 VPs
)


@dataclass
class Pass:
    """One pass over every kind: idle, or under the stated background load (its rows and numbers
    say which: the idle pass's keys bare, the loaded one's prefixed ``loaded_``)."""

    name: str          # "idle" or "under load"
    repeat: int
    warmup: int
    owner_repeat: int
    loadavg: LoadAverage = field(default_factory=LoadAverage)

    @property
    def loaded(self) -> bool:
        return self.name != "idle"

    def key(self, name: str) -> str:
        return f"loaded_{name}" if self.loaded else name

    def label(self, label: str) -> str:
        return f"[{self.name}] {label}"


def run_extension(repeat: int = REPEAT, warmup: int = WARMUP, owner_repeat: int = OWNER_REPEAT,
                  load: ExtensionLoad | None = ExtensionLoad()) -> Section:
    """Every kind idle, then (`load` given) every kind again under the background load."""
    from tests.engine.harness import run_engine, skip_reason

    skipped = Section.skipped("extension", skip_reason())
    if skipped:
        return skipped
    from adjudicator.testing import seeds_env
    from bench.extension_owner import HOLDFAST, holdfast_seeds

    section = Section("extension")
    with tempfile.TemporaryDirectory(prefix="bench-extension-") as tmp:
        work = Path(tmp)
        modules = {game: build_module(work, game) for game in (GAME, HOLDFAST)}
        # the tests' app: every game's dice fixed (HoldFast's chosen, so its block loses one SP)
        server = Gunicorn(workdir=work / "server", app="adjudicator.testing:make_test_app()",
                          extra_env=seeds_env(holdfast_seeds(modules[HOLDFAST]))).start()
        try:
            idle = Pass("idle", repeat, warmup, owner_repeat)
            with idle.loadavg:
                every = run_pass(section, server, work / "idle", modules, run_engine, idle)
            summary(section, every, idle)
            if load is not None:
                loaded = Pass("under load", load.repeat, load.warmup, load.owner_repeat)
                with BackgroundRolls(server.url, load) as rolls, loaded.loadavg:
                    every = run_pass(section, server, work / "loaded", modules, run_engine, loaded)
                summary(section, every, loaded)
                section.notes.append("[under load] " + rolls.stats.said(load))
                section.numbers.update({"loaded_background_rolls_sent": rolls.stats.sent,
                                        "loaded_background_rolls_recorded": rolls.stats.ok,
                                        "loaded_background_rolls_late": rolls.stats.late})
        finally:
            server.stop()
    return section


def run_pass(section: Section, server: Gunicorn, work: Path, modules: dict[str, Path], run_engine, p: Pass) -> list[float]:
    """Every kind once over: the first player's three, the loser's losses, the owner's apply; answers every round timed."""
    from bench.extension_owner import HOLDFAST

    work.mkdir(parents=True, exist_ok=True)
    invasion, every = measure(section, server, work, modules[GAME], run_engine, p)
    every += measure_losses(section, server, work, modules[GAME], run_engine, invasion, p)
    every += measure_apply(section, server, work, modules[HOLDFAST], run_engine, p)
    return every


def measure(section: Section, server: Gunicorn, work: Path, module: Path, run_engine, p: Pass) -> tuple[dict, list[float]]:
    """The first player's run (combat, supply, intervention); answers the Invasion's recorded game
    and the rounds timed."""
    repeat, warmup = p.repeat, p.warmup
    load_before = os.getloadavg()[0]
    script, rounds, created, shares = player_script(server.url, repeat, warmup, work / "invasion.vsav")
    run = run_engine(module, script.steps, timeout=3600, prefs_dir=work / "prefs")
    if not run.ok:
        raise RuntimeError(f"extension benchmark: {run.failure()}")
    load_after = os.getloadavg()[0]
    games = {scenario: run.result(step)["returned"] for scenario, step in created.items()}
    every = []
    for kind in KINDS:
        game = games[kind.scenario]
        # a click the robot could not deliver (the button clicked itself) is no person's: not timed
        measured = [ms for clicked, shown in rounds[kind.check][warmup:] if (ms := felt(run, clicked, shown)) is not None]
        every += measured
        records = requests.get(f"{server.url}/api/v1/games/{game['game_id']}/ledger",
                               headers={"Authorization": f"Bearer {game['your_token']}"}, timeout=60).json()["records"]
        body = next(r["body"]["request"] for r in records if r["body"]["check"] == f"{GAME}.{kind.check}")
        try:
            py = same_request(server, game["game_id"], game["your_token"], kind.check, body, repeat, warmup)
        except (RuntimeError, requests.RequestException) as error:  # the Player's figures stand without it
            section.notes.append(p.label(f"{kind.check} from Python: {error}"))
            py = [float("nan")]
        label = kind.label + (f", {len(body['positions'])} units" if kind.check == "supply" else "")
        timed_rows(section, p, kind.check, label, measured, repeat, py)
        share_row(section, p, kind.check, label, run, shares[kind.check],
                  statistics.median(measured) if measured else float("nan"))
    section.notes.append(f"[{p.name}] {GAME}, three recorded games (Invasion: combats; Chinese Intervention: supply; Campaign "
                         f"Game: Chinese intervention), the real Player driven with the mouse (java.awt.Robot): {repeat} rounds of each "
                         f"check after {warmup} warm-up rounds; a round is the clicks a player makes, the form and a click "
                         f"on OK, timed from the robot's last press before the ruling (OK, or Roll again when the form "
                         f"warns of a repeat) to the insert of the ruling's last chat line into the "
                         f"chat window. Load average (1 min) {load_before:.1f} before the Player started, {load_after:.1f} "
                         f"after, on {os.cpu_count()} CPUs. Clicks the robot could not deliver (done by the button "
                         f"itself: not a person's click, not timed): {run.report.get('clicks_not_delivered', 0)}.")
    return games["invasion"], every


def measure_losses(section: Section, server: Gunicorn, work: Path, module: Path, run_engine, game: dict,
                   p: Pass) -> list[float]:
    """The combats' losses, asked by the side that lost them (the UN) in a Player of his own, then
    a few more without the form (the Player's stamps: its share split); answers the rounds timed."""
    from bench.extension_owner import losses_script, lost_by
    from tests.engine.play import adjacent_combat

    combat = adjacent_combat(GAME, "invasion")
    lost, next_seq = lost_by(server.url, game, "un")
    # each combat's losses are asked once (5.6): the timed rounds first, the stamped ones from what is left
    spare = len(lost) - (OWNER_WARMUP + p.owner_repeat)
    shares = min(SHARE, spare) if spare >= 2 else (2 if len(lost) >= OWNER_WARMUP + 4 else 0)
    rounds = min(len(lost) - shares, OWNER_WARMUP + p.owner_repeat)
    un = combat.game.sides["un"].name
    script, timed, stamped = losses_script(work / "invasion.vsav", server.url, game, combat.defender, un,
                                           list(range(next_seq, next_seq + rounds)), shares)
    load_before = os.getloadavg()[0]
    run = run_engine(module, script.steps, timeout=1800, prefs_dir=work / "prefs-loser")
    if not run.ok:
        raise RuntimeError(f"extension benchmark (losses): {run.failure()}")
    measured = [ms for clicked, shown in timed[OWNER_WARMUP:] if (ms := felt(run, clicked, shown)) is not None]
    records = requests.get(f"{server.url}/api/v1/games/{game['game_id']}/ledger", timeout=60,
                           headers={"Authorization": f"Bearer {game['your_token']}"}).json()["records"]
    body = next(r["body"]["request"] for r in records if r["body"]["check"] == f"{GAME}.combat_losses")
    py = same_losses(server, game, body, len(lost) - rounds - shares)
    label = "combat losses (the loser's Player, a unit's right-click)"
    timed_rows(section, p, "combat_losses", label, measured, p.owner_repeat, py)
    share_row(section, p, "combat_losses", label, run, stamped,
              statistics.median(measured) if measured else float("nan"))
    section.notes.append(f"[{p.name}] combat losses: the UN's Player loaded the Invasion's save after the combats "
                         f"({len(lost)} of them lost by the UN), {rounds} losses rulings ({OWNER_WARMUP} warm-up), "
                         f"{shares} more without the form (stamped), the rest ({len(lost) - rounds - shares}) from "
                         f"Python; load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after.")
    return measured


def same_losses(server: Gunicorn, game: dict, body: dict, left: int) -> list[float]:
    """The losses request from Python, for each combat the UN lost that the Player did not settle (a
    spread is settled once: 5.6); NaN when none is left."""
    body = {k: v for k, v in body.items() if k not in ("log_session", "combat_record", "spread", "participating")}
    times = []
    url = f"{server.url}/api/v1/games/{game['game_id']}/combat_losses?transcript=1&changes=1"
    with requests.Session() as session:
        for i in range(left):
            started = time.perf_counter()
            answer = session.post(url, json={**body, "request_id": f"bench-losses-{i}"}, timeout=60,
                                  headers={"Authorization": f"Bearer {game['tokens_for_others']['un']}"})
            times.append((time.perf_counter() - started) * 1000)
            if answer.status_code != 201:
                raise RuntimeError(f"losses from Python: {answer.status_code} {answer.text[:300]}")
    return times or [float("nan")]


def measure_apply(section: Section, server: Gunicorn, work: Path, module: Path, run_engine, p: Pass) -> list[float]:
    """HoldFast: the owner applies the change the opponent's combat made to his hidden block; answers the rounds timed."""
    from bench.extension_owner import apply_script, attack_script, board_changes_from_python, hidden_block

    block = hidden_block()
    save = work / "holdfast.vsav"
    attack = attack_script(server.url, block, save)
    first = run_engine(module, attack.steps, timeout=900, prefs_dir=work / "prefs-attacker")
    if not first.ok:
        raise RuntimeError(f"extension benchmark (HoldFast attack): {first.failure()}")
    game = first.result(attack.at["created"])["returned"]
    script, timed = apply_script(save, server.url, game, block, OWNER_WARMUP + p.owner_repeat)
    load_before = os.getloadavg()[0]
    run = run_engine(module, script.steps, timeout=1800, prefs_dir=work / "prefs-owner")
    if not run.ok:
        raise RuntimeError(f"extension benchmark (apply): {run.failure()}")
    parts = [part for steps in timed[OWNER_WARMUP:] if (part := apply_parts(run, *steps)) is not None]
    if len(parts) < len(timed[OWNER_WARMUP:]):
        why = {"the menu entry's press not the robot's": sum((run.result(m) or {}).get("pressed_at_ms") is None
                                                             for m, *_ in timed[OWNER_WARMUP:]),
               "the dialog's opening not seen": sum((run.result(d) or {}).get("opened_at_ms") is None
                                                   for _, d, *_ in timed[OWNER_WARMUP:])}
        section.notes.append(p.label(f"apply rounds not timed: {len(timed[OWNER_WARMUP:]) - len(parts)} ({why}; "
                                     f"the rest: Yes not pressed by the robot)"))
    measured = [fetched + applied for fetched, applied in parts]
    py = board_changes_from_python(server.url, game, p.owner_repeat)
    label = "a hidden block's apply (HoldFast, the owner's menu entry and Yes)"
    timed_rows(section, p, "hidden_block_apply", label, measured, p.owner_repeat, py)
    if parts:
        fetched, applied = (statistics.median(part[i] for part in parts) for i in (0, 1))
        section.row(p.label(f"{label}: the menu entry to the dialog (the fetch, the plan) / Yes to the line (the "
                            f"pieces' commands, the chat), medians"), f"{fetched:6.1f} / {applied:6.1f} ms")
        section.numbers.update({p.key("hidden_block_apply_player_fetch_ms"): fetched,
                                p.key("hidden_block_apply_player_apply_ms"): applied})
    section.notes.append(f"[{p.name}] a hidden block's apply: HoldFast's Campaign Game, the UN's Player loading the "
                         f"Communist's save {OWNER_WARMUP + p.owner_repeat} times ({OWNER_WARMUP} warm-up), timed from "
                         f"the press on the menu entry to the dialog's opening (the fetch of the owed changes, GET "
                         f"board-changes, and their plan against the board), plus from the press on Yes to the chat "
                         f"line written once the block's commands ran (the person's time at the dialog left out); "
                         f"load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after.")
    return measured


def apply_parts(run, menu: int, dialog: int, yes: int, shown: int) -> tuple[float, float] | None:
    """An apply's two timed parts (ms): the robot's press on the menu entry to the dialog's opening
    (the fetch and the plan), and its press on Yes to the applied line in the chat; None when a
    press was not the robot's (not timed) or the harness did not see the dialog open."""
    pressed = (run.result(menu) or {}).get("pressed_at_ms")
    opened = (run.result(dialog) or {}).get("opened_at_ms")
    applied = felt(run, yes, shown)
    if pressed is None or opened is None or applied is None:
        return None
    return opened - pressed, applied


def timed_rows(section: Section, p: Pass, name: str, label: str, measured: list[float], repeat: int,
               py: list[float]) -> None:
    """A kind's click-to-chat percentiles and the same request from Python (the server's share)."""
    if not measured:
        section.row(p.label(f"{label}: the click to the ruling"), "no round timed (see the notes)")
        return
    p50, p95, p99 = percentile(measured, 50), percentile(measured, 95), percentile(measured, 99)
    label = p.label(label) + (f" ({len(measured)} rounds timed)" if len(measured) < repeat else "")
    name = p.key(name)
    section.row(f"{label}: the click to the ruling", f"p50 {p50:7.1f} ms  p95 {p95:7.1f} ms  p99 {p99:7.1f} ms")
    section.row(f"{label}: the server's share, from Python", f"p50 {statistics.median(py):7.1f} ms")
    section.numbers.update({f"{name}_click_to_chat_p50_ms": p50, f"{name}_click_to_chat_p95_ms": p95,
                            f"{name}_click_to_chat_p99_ms": p99, f"{name}_requests_p50_ms": statistics.median(py)})


def share_row(section: Section, p: Pass, name: str, label: str, run, steps: list[int], click_p50: float) -> None:
    """Where the Player's time goes: the extension's own stamps of a check asked without the form
    (CheckCalls.check: reading the board and building the request, the request to the server and
    back, delivering the ruling), medians. Its "chat" stamp ends when the ruling is delivered: its
    lines into the chat's document, then the session's note of the ruling and a notice's dialog
    (closed by the harness, every 100 ms): it is cut at the insert of the ruling's last line (the
    harness stamps each insert, and when each step started); what follows that line is said apart,
    as a click's timed span ends at that line. What the click's p50 adds beyond board, server and
    lines is the press and release, the form's closing and the event queue."""
    parts = [stamped_parts(run, step) for step in steps]
    parts = [part for part in parts if part is not None]
    if not parts:
        section.notes.append(p.label(f"{name}: the Player's stamps: no check answered ({run.result(steps[0]) if steps else None})"))
        return
    name, label = p.key(name), p.label(label)
    med = {k: statistics.median(part[k] for part in parts) for k in ("board", "server", "lines", "after_lines")}
    rest = click_p50 - med["board"] - med["server"] - med["lines"]
    section.row(f"{label}: the Player's stamps, board read + request / to the server and back / the ruling's lines into "
                f"the chat / after its last line (the session's note, a notice's dialog: outside a click's span) / the rest "
                f"of the click's p50 (medians of {len(parts)})",
                f"{med['board']:6.1f} / {med['server']:6.1f} / {med['lines']:6.1f} / {med['after_lines']:6.1f} / "
                f"{rest:6.1f} ms")
    section.numbers.update({f"{name}_player_{k}_ms": v for k, v in med.items()})
    section.numbers[f"{name}_player_chat_ms"] = statistics.median(part["chat"] for part in parts)
    section.numbers[f"{name}_player_click_rest_ms"] = rest


def stamped_parts(run, step: int) -> dict[str, float] | None:
    """A check asked without the form, in parts (ms): the extension's board, server and chat stamps,
    the chat cut at the insert of the ruling's last line ("lines") and what follows it ("after_lines");
    None when it was not answered. Without the harness's step start, "lines" is the whole chat stamp."""
    answer = run.result(step) or {}
    answer = answer.get("returned", answer) if isinstance(answer, dict) else {}
    ms = answer.get("ms") if answer.get("ok") else None
    if not isinstance(ms, dict):
        return None
    parts = {"board": ms["board"], "server": ms["server"], "chat": ms["chat"], "lines": ms["chat"], "after_lines": 0.0}
    started = run.step(step).get("started_ms")
    during = [line for line in run.report.get("chat", []) if line.get("step") == step and "at_ms" in line]
    # the ruling's last line is its verify address (as the timed rounds match it)
    inserts = [line["at_ms"] for line in during if "verify: " in line.get("text", "")] or [line["at_ms"] for line in during]
    if started is not None and inserts:
        lines = max(inserts) - (started + ms["board"] + ms["server"])
        parts["lines"] = min(max(lines, 0.0), ms["chat"])
        parts["after_lines"] = ms["chat"] - parts["lines"]
    return parts


def summary(section: Section, every: list[float], p: Pass) -> None:
    """Every kind's rounds together: idle held to the target (issues 42, 53), under load reported."""
    p95 = percentile(every, 95)
    samples = p.loadavg.samples or [float("nan")]
    section.numbers.update({p.key("click_to_chat_p50_ms"): percentile(every, 50), p.key("click_to_chat_p95_ms"): p95,
                            p.key("load_before"): samples[0], p.key("load_after"): samples[-1],
                            p.key("load_median"): statistics.median(samples), p.key("load_highest"): max(samples)})
    shown = f"p50 {percentile(every, 50):7.1f} ms  p95 {p95:7.1f} ms"
    if p.loaded:
        section.row(p.label(f"click to ruling in the chat, every kind ({len(every)} rounds)"), shown + "  (reported)")
    else:
        check = section.target("click to ruling in the chat, p95 (idle)", p95, TARGETS.click_to_ruling_p95_ms, "ms",
                               at_most=True)
        section.row(p.label(f"click to ruling in the chat, every kind ({len(every)} rounds)"),
                    f"{shown}  (target p95 <= {TARGETS.click_to_ruling_p95_ms:.0f} ms: {'met' if check.passed else 'NOT met'})")
    section.notes.append(f"[{p.name}] the pass's {p.loadavg.said()}.")


def player_script(server_url: str, repeat: int, warmup: int, save: Path):
    """The engine run: for each scenario, its setup as the side that moves first, a recorded game,
    then each round of each of its checks as a player asks it, then SHARE of each asked without the
    form (the extension's stamps); the Invasion saved (for the losses). Answers the script, per
    check each round's (OK clicked step, ruling shown step) and its stamped steps, and per scenario
    the step that created its game."""
    from tests.engine.play import Script, adjacent_combat, call, close_game, save_as, sign_in, start_scenario

    combat = adjacent_combat(GAME, "invasion")
    s = Script()
    s.add(*sign_in("Bench"))
    rounds: dict[str, list[tuple[int, int]]] = {kind.check: [] for kind in KINDS}
    shares: dict[str, list[int]] = {kind.check: [] for kind in KINDS}
    created: dict[str, int] = {}
    for scenario in dict.fromkeys(kind.scenario for kind in KINDS):
        if created:
            s.add(*close_game())
        name = combat.scenario.name if scenario == "invasion" else _scenario_name(scenario)
        s.add(*start_scenario(name, combat.attacking_side, None))
        s.add(call("connect", server_url), call("createRecordedGame", "", ""))
        created[scenario] = len(s.steps) - 1
        seq = 0
        for kind in (k for k in KINDS if k.scenario == scenario):
            for _ in range(warmup + repeat):
                seq += 1
                rounds[kind.check].append(ask_round(s, kind, combat, scenario, seq))
        s.add({"do": "person", "on": False})  # the checks' notices closed as they show: no person asks here
        for kind in (k for k in KINDS if k.scenario == scenario):
            for _ in range(SHARE):
                shares[kind.check].append(share_step(s, kind, combat, scenario))
        s.add({"do": "person", "on": True})
        if scenario == "invasion":
            s.add(*save_as(save))
    return s, rounds, created, shares


def ask_round(s, kind: Kind, combat, scenario: str, seq: int) -> tuple[int, int]:
    """One round of a check as a player asks it; answers (OK clicked step, ruling shown step)."""
    from tests.engine.play import menu_of, select

    if kind.check == "combat":
        s.add(*select(combat.attackers[0]), menu_of(combat.defender, "adjudicator/check:combat"))
        s.add({"do": "wait_window", "window": kind.form})
        s.add({"do": "choose", "window": kind.form, "field": "/combat_type", "item": "Hasty Attack"})
    elif kind.check == "supply":
        s.add(menu_of(_own_unit(scenario, combat.attacking_side), "adjudicator/check:supply"))
        s.add({"do": "wait_window", "window": kind.form})
    else:
        s.add({"do": "toolbar_click", "button": "Adjudicator", "path": ["checks", f"check:{kind.check}"]})
        s.add({"do": "wait_window", "window": kind.form})
    for name, text in kind.typed:
        s.add({"do": "type", "window": kind.form, "field": name, "text": text})
    s.add({"do": "click", "window": kind.form, "on": "OK"})
    clicked = len(s.steps) - 1
    s.add(ROLL_AGAIN)
    s.add({"do": "wait_chat", "match": rf"#{seq}\] verify: ", "timeout": 60})
    shown = len(s.steps) - 1
    # a ruling's notices (a combat asked again: "the same situation as record #n") come in a
    # dialog, then the question whether to apply its changes: both answered, not timed
    s.add({"do": "click_if", "window": "^Adjudicator: (notice|the ruling orders|not yours to apply)",
           "on": "OK", "timeout": 1.0})
    s.add({"do": "click_if", "window": "apply the ruling", "on": "No", "timeout": 1.0})
    return clicked, shown


def share_step(s, kind: Kind, combat, scenario: str) -> int:
    """The check asked as its menu entry does, without the form (the extension's `check`: the same
    board read, request and chat, each stamped by the extension); answers its step."""
    import json

    from tests.engine.play import call

    typed = {"combat_type": "Hasty Attack"} if kind.check == "combat" else {f.lstrip("/"): int(v) for f, v in kind.typed}
    piece = {"combat": combat.defender, "supply": _own_unit(scenario, combat.attacking_side)}.get(kind.check, "")
    if kind.check == "combat":
        s.add({"do": "select", "pieces": [{"id": combat.attackers[0]}]})
    s.add(call("check", kind.check, piece, json.dumps(typed) if typed else ""))
    return len(s.steps) - 1


def _scenario_name(scenario: str) -> str:
    from scenarios import load_game

    return load_game(GAME).scenarios[scenario].name


def _own_unit(scenario: str, side: str) -> str:
    """A fighting unit of `side` on the map in the scenario's setup (whose right-click asks its side's supply)."""
    from tests.engine.play import adjacent_combat

    return adjacent_combat(GAME, scenario, distance=99, side=_other(side)).defender


def _other(side: str) -> str:
    from scenarios import load_game

    return next(s for s in load_game(GAME).sides if s != side)


def felt(run, clicked: int, shown: int) -> float | None:
    """Milliseconds from the robot's last press before the ruling (on OK, or on Roll again when the
    form warned of a repeat: the step after OK) to the insert of the ruling's last line into the
    chat; None when the click was not the robot's (not timed)."""
    again = run.result(clicked + 1) if run.step(clicked + 1).get("do") == "click_if" else {}
    pressed = again.get("pressed_at_ms") if again.get("clicked") else run.result(clicked).get("pressed_at_ms")
    if pressed is None:
        return None
    # the chat keeps the lines of the game before (its record numbers begin again at 1): the line
    # of this round is the first one matched after the press
    after = [line["at_ms"] for line in run.result(shown)["matched"] if line["at_ms"] >= pressed]
    if not after:
        raise RuntimeError(f"extension benchmark: no ruling shown after the click of step {clicked}")
    return min(after) - pressed


def build_module(work: Path, game_id: str = GAME) -> Path:
    from modgen.artwork import collect_images
    from modgen.build import build_entries, write_module
    from scenarios import load_game

    game = load_game(game_id)
    images = collect_images(game, cache_dir=Path(".cache/art"))
    return write_module(build_entries(game, images, "bench"), work, f"{game_id}.vmod")


def same_request(server: Gunicorn, game_id: str, token: str, check: str, body: dict, repeat: int,
                 warmup: int) -> list[float]:
    """The extension's recorded request sent from Python (a new request id each time, so each is a
    new ruling as the extension's are)."""
    url = f"{server.url}/api/v1/games/{game_id}/{check}?transcript=1&changes=1"
    body = {k: v for k, v in body.items() if k != "log_session"}
    times = []
    with requests.Session() as session:
        for i in range(warmup + repeat):
            started = time.perf_counter()
            answer = session.post(url, json={**body, "request_id": f"bench-{check}-{i}"},
                                  headers={"Authorization": f"Bearer {token}"}, timeout=60)
            elapsed = (time.perf_counter() - started) * 1000
            if answer.status_code != 201:
                raise RuntimeError(f"extension benchmark: {check} from Python: {answer.status_code} {answer.text[:300]}")
            if i >= warmup:
                times.append(elapsed)
    return times


def percentile(values: list[float], p: float) -> float:
    """The p-th percentile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]
