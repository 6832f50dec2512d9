"""A game's after-action report as forum text: Markdown, and BBCode (BoardGameGeek's forums).

Both say what the report page says (`adjudicator.web.report`), in the same order; pictures and
rulings are links to the server's pages (a forum shows no inline map of a position, and every
ruling's page carries its verification). `base` is the server's public address.
"""

from __future__ import annotations

from adjudicator.web.report import Report


def _lines(report: Report, base: str, bold, link, heading, item, plain=lambda t: t, br="") -> list[str]:
    """The report's lines in a markup given as functions: bold(text), link(text, url), heading(text),
    item(text), and plain(text) for the words the rulings and the data make (shown as written);
    `br` ends a line that must stay a line of its own (Markdown's two spaces)."""
    game = f"{base}/games/{report.game_id}"
    out = [heading(f"After-action report: {report.system_name}, {report.scenario_name}"), "",
           f"{bold('Sides')}: {' vs '.join(label for _, label in report.sides)}{br}",
           f"{bold('Played')}: {report.created[:10]} to {(report.closed or 'still open')[:10]}{br}",
           f"{bold('Turns played')}: {report.turns_words}{br}",
           f"{bold('Result')}: {plain(report.result_words)}"
           + (f" ({link('the victory ruling', f'{game}/records/{report.result.record}')})" if report.result else ""),
           ""]
    if report.fog_kept:
        out += ["The game is still open: units hidden from this report's reader are named only by side and hex.", ""]
    out.append(heading("Turn by turn"))
    for section in report.turns:
        out += ["", bold(section.label)]
        out += [item(f"{link(f'#{r.seq}', f'{game}/records/{r.seq}')} {report.side_label(r.side)}: {plain(r.headline)}"
                     + "".join(f" (notice: {plain(n)})" for n in r.notices)) for r in section.rulings]
    if not report.turns:
        out.append("No ruling yet.")
    out += ["", heading("Losses")]
    for side, label in report.sides:
        losses = report.losses.get(side, [])
        out.append("")  # a paragraph of its own, not a line of the list before it
        out.append(f"{bold(label)}: " + (f"{sum(1 for x in losses if x.what.startswith('eliminated'))} eliminated, "
                                         f"{len(losses)} in all" if losses else "no loss ruled"))
        out += [item(f"{plain(x.unit)} {plain(x.what)} (" + (f"turn {x.turn}, " if x.turn else "") + f"#{x.seq})") for x in losses]
    out += ["", heading("Dice"), report.dice.summary]
    for die in report.dice.dice:
        faces = ", ".join(f"{face}: {n}" for face, n in enumerate(die.counts, start=1))
        out.append(item(f"d{die.sides}, {die.rolls} rolls ({faces}): {die.verdict}"))
    out += [item(side.luck) for side in report.dice_by_side]
    out += ["", f"Every roll: {link('the dice record', f'{game}/dice')}"]
    if report.boards is not None:
        out += ["", heading("The board at the end"),
                f"From the saved game {report.boards.name} a ruling checked "
                f"({link(f'#{report.boards.seq}', f'{game}/records/{report.boards.seq}')}): "
                + ", ".join(link(f"map {m.id}", f"{base}{b['image']}" if b["image"].startswith("/") else b["image"])
                            for m, b in report.boards.boards)]
        if len(report.turn_boards) > 1:
            out.append("Each turn's board: " + ", ".join(
                link(f"turn {t.turn}" if t.turn else "before a turn was named",
                     f"{game}/records/{t.seq}?upload={t.sha256}#record-board") for t in report.turn_boards))
    out += ["", heading("Verify it"),
            f"Every ruling above is signed and chained. Download {link('the ledger', f'{game}/ledger.json')} and "
            f"{link('the public keys', f'{base}/.well-known/adjudicator-keys.json')}, then run "
            "`adjudicator verify ledger.json --key keys.json`"
            + (" (the seed is revealed: every die is recomputed)." if not report.open else ".")]
    return out


def markdown(report: Report, base: str) -> str:
    return "\n".join(_lines(report, base, bold=lambda t: f"**{_md(t)}**", link=lambda t, u: f"[{_md(t)}]({u})",
                            heading=lambda t: f"## {_md(t)}", item=lambda t: f"- {t}", plain=_md, br="  ")) + "\n"


def bbcode(report: Report, base: str) -> str:
    text = "\n".join(_lines(report, base, bold=lambda t: f"[b]{t}[/b]", link=lambda t, u: f"[url={u}]{t}[/url]",
                            heading=lambda t: f"[size=14][b]{t}[/b][/size]", item=lambda t: f"[*]{t}"))
    return _listed(text.replace("`", "")) + "\n"


def _md(text: str) -> str:
    """Text that Markdown shows as written (no stray emphasis or link)."""
    for ch in ("\\", "*", "_", "[", "]"):
        text = text.replace(ch, "\\" + ch)
    return text


def _listed(text: str) -> str:
    """BBCode items wrapped in [list] ... [/list], one list per run of items."""
    out, inside = [], False
    for line in text.split("\n"):
        if line.startswith("[*]") and not inside:
            out.append("[list]")
            inside = True
        elif not line.startswith("[*]") and inside:
            out.append("[/list]")
            inside = False
        out.append(line)
    if inside:
        out.append("[/list]")
    return "\n".join(out)
