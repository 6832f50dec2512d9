"""Session lines for the logs tests build: written as the Adjudicator extension writes them
(`LogSessions.line`, the format's only writer in the product). tests/test_extension_java.py proves
this writer and the extension's write the same lines, and that the server reads them back
(adjudicator.logs.session_line)."""

from __future__ import annotations

from typing import Any

from adjudicator.logs.session_line import SESSION_TAG


def session_line(game_id: str, session: dict[str, Any], chain: list[str]) -> str:
    """The chat line naming log session `session` (its id, file, side, start and live session;
    those not known left out) of game `game_id`, after the sessions `chain`, oldest first."""
    parts = [f"{SESSION_TAG}{session['id']}] log of game {game_id}"]
    if session.get("file"):
        parts.append(f"file {session['file']}")
    if session.get("side"):
        parts.append(f"played by {session['side']}")
    if session.get("start"):
        parts.append(f"begun at position {session['start']}")
    if session.get("live"):
        parts.append(f"live session {session['live']}")
    parts.append("after " + " ".join(chain) if chain else "after the setup")
    return ", ".join(parts)
