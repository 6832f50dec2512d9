"""The module's help page: sources, stand-ins, and the adjudicator workflow.

Players must be able to see, inside VASSAL, which data came from the
rulebook and which are our labelled stand-ins, and how to have a position or
a combat adjudicated.
"""

from __future__ import annotations

from html import escape

from modgen.pieces import GAMES_WITH_BLOCKS
from scenarios.boxboard import counters_box
from scenarios.model import DRAW_OPEN, Game


def fog_of_war_html(game: Game) -> str:
    """How the module hides blocks (block games only): players must know how
    to reveal a block for combat and how to hide it again afterwards."""
    if game.id not in GAMES_WITH_BLOCKS:
        return ""
    sides = " and ".join(escape(s.name) for s in game.sides.values())
    return f"""<h2>Fog of war (blocks)</h2>
<p>Blocks stand upright facing their owner: the other side sees only a block's back, a plain block in its
side's colour, named "<i>side</i> block". Each block is masked for its side ({sides}); VASSAL shows
its label only to the player who has claimed that side (pick it in <i>File &gt; New game</i> or with the
<i>Retire</i> button), so observers see backs only. Your own hidden blocks show a small back in their corner.
Setups place every block already hidden, and a block taken from the piece palette arrives hidden. In the
<i>Inventory</i> window a hidden enemy block reads "<i>side</i> block [?]", and chat reports name it the same way.
A block's step loss, restored step or elimination is reported by its side and hex only ("A UN block in 0520
lost a step"), never by its name: the report goes to both players and into the log.</p>
<p>Combat: both players reveal the blocks in the battle. Right-click a block and choose <i>Reveal/Hide</i>
(Ctrl+H) to reveal it to everyone; after the combat select your revealed blocks and choose
<i>Reveal/Hide</i> (Ctrl+H) again to turn them back to face you. Only the owning side can reveal or hide
its blocks, and the opponent cannot use commands on a hidden enemy block.</p>
"""


def dice_html(game: Game) -> str:
    """What each dice button rolls and what for: a player must know which button a rule means."""
    rows = "\n".join(
        f"<li><b>{escape(r.name)}</b>" + ("" if r.name == r.dice else f" ({escape(r.dice)})")
        + (", asks how many dice and reports them sorted" if r.ask else "")
        + (f": {escape(r.uses)}" if r.uses else "") + "</li>"
        for r in game.rolls)
    return f"<h2>Dice</h2>\n<p>Each button rolls in the chat, with your name.</p>\n<ul>{rows}</ul>\n" if rows else ""


def step_commands_html(game: Game) -> str:
    """The unit menu's step commands, as the game's counters name them (`Unit.step_commands`):
    Fire and Ice's fresh/spent counters flip, its aircraft lose steps; "" where no counter has two."""
    names = sorted({u.step_commands for u in game.units.values() if len(u.steps) > 1})
    if not names:
        return ""
    up = " or ".join(f"<i>{escape(n[0])}</i>" for n in names)
    down = " or ".join(f"<i>{escape(n[1])}</i>" for n in names)
    return f"{up} (Ctrl+F), {down} (Ctrl+R), "


def set_aside_html(game: Game) -> str:
    """The "Set aside" command of a game with boxes of counters not in play (SPI's breakdowns), or ""."""
    boxes = [box for side in game.sides if (box := counters_box(game, side)) is not None]
    if not boxes:
        return ""
    return ("<i>Set aside</i> (Ctrl+B, to the box of its side's counters not in play: a unit broken down, or the "
            f"units that recombine; the counters that replace them lie there, in {' and '.join(escape(b.name) for b in boxes)}), ")


def cups_and_tracks_html(game: Game) -> str:
    """How the cups, the player-aid tracks and the map aids work: a player must know that a
    pile deals at random and what the other side sees of a drawn piece."""
    pools = [b for b in game.boxes.values() if b.draw]
    parts = []
    if pools:
        rows = "\n".join(
            f"<li><b>{escape(b.name)}</b>: "
            + ("drawn face up for everyone" if b.draw == DRAW_OPEN else
               "every piece is the same counter to both sides: nobody knows which counter it is until an "
               f"adjudicator's ruling draws it, {escape(b.reveal)}; the Adjudicator extension turns the piece "
               "when you apply that ruling"
               if b.placeholders else
               f"a drawn piece stays hidden from the other side (it sees \"{escape(b.back or b.name)}\"); "
               f"<i>Reveal/Hide</i> (Ctrl+H) turns it face up: {escape(b.reveal)}")
            + (f"; <i>Return to ...</i> (Ctrl+U) puts it back: {escape(b.returns)}" if b.returns else "")
            + f" ({escape(str(b.source))})</li>"
            for b in pools)
        parts.append(f"""<h2>Cups and random pools</h2>
<p>Each cup is a draw pile in the <i>Boxes</i> window: face down, shuffled, and a drag off it takes a piece
at random. The chat names a face-down or hidden piece only by its back.</p>
<ul>{rows}</ul>""")
    if game.tracks:
        rows = "\n".join(f"<li><b>{escape(t.name)}</b> ({escape(t.cells[0])} to {escape(t.cells[-1])}; "
                         f"{escape(str(t.source))})</li>" for t in game.tracks.values())
        parts.append(f"""<h2>Tracks</h2>
<p>The <i>Tracks</i> window holds the running values; every setup puts their markers on their starting
cells. Move a marker to change a value: the chat reports the new cell.</p>
<ul>{rows}</ul>""")
    return "\n".join(parts) + ("\n" if parts else "")


def help_html(game: Game, version: str) -> str:
    stand_ins = "\n".join(
        f"<tr><td>{escape(s.what)}</td><td><code>{escape(s.where)}</code></td><td>{escape(s.reason)}</td></tr>"
        for s in game.stand_ins
    ) or "<tr><td colspan=3>none</td></tr>"
    scenarios = "\n".join(
        f"<li><b>{escape(s.name)}</b> ({s.length} turns; {escape(game.sides[s.first_player].name)} moves first;"
        f" rules {escape(str(s.source))}) — {escape(s.description)}</li>"
        for s in game.scenarios.values()
    )
    return f"""<html><head><title>{escape(game.name)}</title></head>
<body>
<h1>{escape(game.name)}</h1>
<p>{escape(game.publisher)}, {game.year}. Module version {escape(version)}, generated from the scenario data
of the <i>korea-wargames</i> project (<code>scenarios/data/{escape(game.id)}/</code>).
Rulebook transcribed: <code>{escape(game.rulebook)}</code>.</p>
<h2>Scenarios</h2>
<ul>{scenarios}</ul>
<p>Open a scenario from <i>File &gt; New game</i>: the main window shows its map, opened where its units
stand (the <i>Scenario view</i> button goes back there), the <i>Turn</i> button its turns and phases, and the
<i>Notes</i> window its notes (and your public, private and delayed notes, saved with the game). Starting
units stand on their setup hexes; reinforcements wait on the turn track window in the cell of the turn they
arrive. Right-click a unit for
{step_commands_html(game)}<i>Eliminate</i> (Ctrl+E, to the dead pile in the
<i>Boxes</i> window), {set_aside_html(game)}<i>Show ZOC</i> (Ctrl+Z), <i>Mark moved</i> (Ctrl+M). Step changes and
eliminations are reported in the chat.</p>
{dice_html(game)}{fog_of_war_html(game)}{cups_and_tracks_html(game)}<p>Large maps have an <i>Overview</i> button: a small
view of the whole map; click it to go there.</p>
<h2>Stand-ins (not the publisher's data)</h2>
<p>The rulebook does not give the following; the module and the adjudicator use labelled stand-ins until a
maintainer supplies the published values (edit the named file; no code changes).</p>
<table border=1 cellpadding=3>
<tr><th>what</th><th>where</th><th>why</th></tr>
{stand_ins}
</table>
<h2>Adjudication</h2>
<p>The adjudicator resolves combat, supply and die checks by this game's rules and explains every step with
its rule section. VASSAL cannot call it directly: bring the saved game to it.</p>
<ol>
<li>Save the game in VASSAL (<i>File &gt; Save game</i>), e.g. <code>turn5.vsav</code>.</li>
<li>Supply report for a side:<br><code>adjudicator-client supply turn5.vsav --system {escape(game.id)} --side SIDE</code></li>
<li>Unit positions as the adjudicator reads them:<br><code>adjudicator-client positions turn5.vsav --system {escape(game.id)}</code></li>
<li>A check (combat, intervention, weather...) from a JSON situation, with the dice you rolled in VASSAL:<br>
<code>adjudicator-client check {escape(game.id)} CHECK situation.json --dice 4,2</code></li>
<li>Play by e-mail with recorded, verifiable server rolls: <code>adjudicator-client new-game {escape(game.id)} SCENARIO</code>,
then <code>adjudicator-client roll GAME CHECK situation.json --token TOKEN</code>; both players can verify the
ledger at any time with <code>adjudicator-client verify LEDGER.json</code>.</li>
</ol>
<p>The server URL comes from <code>--server</code> or <code>ADJUDICATOR_URL</code> (default
<code>http://127.0.0.1:8000</code>); the web pages at that address offer the same checks as forms.</p>
</body></html>
"""
