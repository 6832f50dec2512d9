"""The after-action report: a replayed turn as text to paste into a forum post or an e-mail.

Each move, draw, step change and removal in words, each ruling's headline with its receipt and
its verdict, grouped by turn, and the rulings the log does not show. Markdown (forums, chat) and
HTML (e-mail) are written from the same list, so they say the same; both are built from a
`Replay` for one viewer, so neither names what that viewer may not see. What a log supplies (a
piece's name, a ruling's lines) is cut as the replay's pieces cut it (`adjudicator.logs.check.echo`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import escape

from adjudicator.logs.check import echo
from adjudicator.logs.replay.build import VERDICT_WORDS, Replay
from adjudicator.logs.replay.timeline import BEGIN, CHAT, OTHER, PLAYER
from adjudicator.logs.replay.verdicts import BAD, RulingView

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>#|~])")


@dataclass
class Entry:
    step: int
    texts: list[str] = field(default_factory=list)
    rulings: list[RulingView] = field(default_factory=list)


@dataclass
class Section:
    heading: str
    entries: list[Entry] = field(default_factory=list)


def sections(replay: Replay) -> list[Section]:
    """The report's parts: one per turn (one for the whole log when the turn is not known)."""
    out = [Section(replay.timeline.start_turn or "The log")]
    for index, step in enumerate(replay.steps):
        if step.turn:
            out.append(Section(step.turn))
        if step.kind in (BEGIN, CHAT, PLAYER, OTHER) and not step.rulings:
            continue  # the board as a file begins, chat, sides taken, commands that move no piece
        rulings = [replay.rulings[i] for i in step.rulings]
        if step.texts or rulings:
            out[-1].entries.append(Entry(index, [echo(text) for text in step.texts], rulings))
    return [s for s in out if s.entries]


def title(replay: Replay) -> str:
    names = ", ".join(echo(n) for n in replay.file_names[:10] if n) or "a log"
    names += f" and {len(replay.file_names) - 10} more" if len(replay.file_names) > 10 else ""
    return f"{replay.system_name}: {names}"


def lead(replay: Replay) -> str:
    s = replay.summary()
    where = f"Game {replay.game_id}" if replay.game_id else "No recorded game (rulings shown as computed, unverified)"
    moves = _count(s["moves"], "move")
    extra = "".join(f", {_count(s[key], words)}" for key, words in (("draws", "draw"), ("step_changes", "step change"))
                    if s[key]) + (f", {s['removed']} removed" if s["removed"] else "")
    return f"{where}, as seen by {replay.viewer.label}. {s['steps']} steps: {moves}{extra}. {replay.verdict_words()}"


def _ruling_words(ruling: RulingView) -> tuple[str, str]:
    """(the ruling's headline, its receipt and verdict) in words."""
    number = f"#{ruling.seq} " if ruling.seq is not None else ""
    verdict = VERDICT_WORDS.get(ruling.status, ruling.status)
    receipt = ruling.receipt or "no receipt"
    why = f": {echo(ruling.why)}" if ruling.why and ruling.status != "verified" else ""
    return f"Ruling {number}— {echo(ruling.headline)}", f"{echo(receipt)} — {verdict}{why}"


def markdown(replay: Replay, parts: list[Section] | None = None) -> str:
    """The report as Markdown (`parts`: its `sections`, when they are made already)."""
    lines = [f"# {_md(title(replay))}", "", _md(lead(replay)), ""]
    for section in parts if parts is not None else sections(replay):
        lines += [f"## {_md(section.heading)}", ""]
        for entry in section.entries:
            for text in entry.texts:
                lines.append(f"- Step {entry.step}: {_md(text)}")
            for ruling in entry.rulings:
                head, receipt = _ruling_words(ruling)
                mark = "✔" if ruling.status == "verified" else "✘" if ruling.status in BAD else "·"
                lines.append(f"- Step {entry.step}: **{_md(head)}**  ")
                lines.append(f"  {mark} {_md(receipt)}")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def html(replay: Replay, made: list[Section] | None = None) -> str:
    """The report as HTML (`made`: its `sections`, when they are made already)."""
    parts = [f"<h1>{escape(title(replay))}</h1>", f"<p>{escape(lead(replay))}</p>"]
    for section in made if made is not None else sections(replay):
        parts.append(f"<h2>{escape(section.heading)}</h2>")
        parts.append("<ul>")
        for entry in section.entries:
            for text in entry.texts:
                parts.append(f"<li>Step {entry.step}: {escape(text)}</li>")
            for ruling in entry.rulings:
                head, receipt = _ruling_words(ruling)
                parts.append(f'<li data-status="{escape(ruling.status)}">Step {entry.step}: <strong>{escape(head)}</strong>'
                             f"<br>{escape(receipt)}</li>")
        parts.append("</ul>")
    return "\n".join(parts) + "\n"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _md(text: str) -> str:
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)
