"""A check's form in a player's words: what a saved game gives it, and what its fields mean.

The request schemas are written for the API (their descriptions say ``null``, name other fields as
``combat_hex`` and other checks as ```chinese_intervention```), and they are the one description of
every check (the API reference, the extension's dialogs and the pages all show them), so they stay as
they are. The pages say the same in a player's words: `players_words` for a field's help, and
`read_from_file` for what a check takes from the saved game ("the game turn, from the turn tracker"
rather than "`turn` (turn)").
"""

from __future__ import annotations

import re

from adjudicator.checks import CheckSpec, track_marker
from adjudicator.words.forms import FormField, humanize
from scenarios.model import Game

#: What the file gives for each board role: {label} is the field's label on the form.
ROLE_WORDS = {
    "scenario": "the scenario",
    "turn": "the game turn, from the turn tracker",
    "month": "the month, from the turn tracker",
    "side": "{label}: the side asking (the one chosen below, or the attacking units')",
    "positions": "where every unit stands, with the step it shows",
    "attackers": "{label}: the units you pick on the map, each with its hex and the step it shows",
    "defenders": "{label}: the units in the hex you pick, with the steps they show",
    "target_hex": "{label}: the hex you pick",
    "unit": "{label}: the unit you pick, and the step it shows",
    "hex": "{label}: the hex of the unit you pick",
    "step": "{label}: the step the unit you pick shows",
    "sp": "{label}: the strength the block you pick shows",
    "map": "{label}: the map of the unit you pick",
}

_NULL = re.compile(r"\b([Nn])ull\s*=\s*")
_OR_NULL = re.compile(r"\bor null\b")
_OMIT = re.compile(r"\b([Oo])mit(?: it)? to\b")
_CODE = re.compile(r"`([^`]+)`")
_CHECK = re.compile(r"\bcheck `([a-z][a-z0-9_]*)`")
_DOTTED = re.compile(r"(?<![\w.])([a-z][a-z_]+)\.([a-z][a-z_]+)(?![\w(])")
_TABLE = re.compile(r"\btable ([a-z][a-z0-9]*(?:_[a-z0-9]+)+)")
_SNAKE = re.compile(r"(?<![\w'/.-])([a-z][a-z0-9]*(?:_[a-z0-9]+)+)(?![\w'/-])")
_TRUE_FALSE = re.compile(r"\((True|False)\)")


def players_words(text: str) -> str:
    """A field's description as a player reads it on a form: an empty field, not ``null``; other
    fields and checks by their names in words, not their identifiers; a box ticked, not ``True``."""
    if not text:
        return text
    text = _NULL.sub(lambda m: ("Left" if m.group(1) == "N" else "left") + " empty: ", text)
    text = _OR_NULL.sub("or empty", text)
    text = _OMIT.sub(lambda m: ("L" if m.group(1) == "O" else "l") + "eave it empty to", text)
    text = _TABLE.sub(lambda m: f"the {humanize(m.group(1))} table", text)
    text = _CHECK.sub(lambda m: f"the {_named(m.group(1))} check", text)
    text = _CODE.sub(lambda m: _named(m.group(1)), text)
    text = _DOTTED.sub(lambda m: f"“{humanize(m.group(1))} › {humanize(m.group(2))}”", text)
    text = _SNAKE.sub(lambda m: _named(m.group(1)), text)
    return _TRUE_FALSE.sub(lambda m: "(ticked)" if m.group(1) == "True" else "(not ticked)", text)


def _named(identifier: str) -> str:
    """A field or check named in a description, in words ("combat_hex" -> "“Combat hex”")."""
    if not re.fullmatch(r"[a-z][a-z0-9_]*", identifier):
        return identifier
    return f"“{humanize(identifier)}”"


def read_from_file(spec: CheckSpec, game: Game, fields: list[FormField], recorded: bool = False) -> list[str]:
    """What the saved game gives this check, in a player's words, one item per field it fills (in a
    recorded game the scenario is the game's and the side the token's)."""
    labels = {f.name: f.label for f in fields}
    words = dict(ROLE_WORDS, **({"scenario": "the game's scenario", "side": "{label}: your side"} if recorded else {}))
    out = []
    for pointer, role in spec.board:
        if pointer.count("/") != 1:
            continue
        name = pointer[1:]
        label = labels.get(name) or humanize(name)
        marker = track_marker(role)
        if marker is not None:
            track = game.tracks.get(role.split(":")[1])
            where = track.name if track else humanize(role.split(":")[1])
            out.append(f"{label}: where the {humanize(marker).lower()} marker stands on the {where}")
        else:
            out.append(words.get(role, "{label}").format(label=label))
    return out


def field_path_words(fields: list[FormField], pointer: str) -> str:
    """A JSON pointer into the request as the form's labels ("/attacking/tank_level" ->
    "Attacking › Tank level")."""
    words, level = [], fields
    for part in pointer.strip("/").split("/"):
        found = next((f for f in level if f.name == part), None)
        words.append(found.label if found else humanize(part))
        level = list(found.children) if found else []
    return " › ".join(words)
