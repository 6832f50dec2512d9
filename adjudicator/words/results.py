"""How a check's result reads on the pages: one rendering for check pages, the ledger and saved games.

The outcome of a check is JSON, often nested (a supply report: sides, each with units, each with
a path). The pages show every value as text a player reads, never as raw JSON: scalars as words
("yes", "—"), lists of scalars comma-separated, objects as key-value tables and lists of objects as
tables with a column per key, two levels deep; deeper values as one line of text (the transcript's
`readable`, the same wording as the chat lines). The Jinja macro `value` in
`templates/_result.html` does the layout with the filters registered here.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from adjudicator.checks import side_label
from adjudicator.words.forms import humanize
from adjudicator.words.names import UnitNames, check_name, choice_name, result_for_players
from adjudicator.words.transcript import readable

#: Objects and lists of objects are laid out as tables this many levels deep; deeper, as text.
TABLE_DEPTH = 2


def plain(value: Any) -> str:
    """A scalar or a list of scalars as text ("yes", "—", "3, 5"); anything deeper as readable text."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None or value == "":
        return "—"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, (int, str)):
        return str(value)
    if isinstance(value, list) and not value:
        return "none"
    if isinstance(value, list) and all(not isinstance(v, (list, dict)) for v in value):
        return ", ".join(plain(v) for v in value)
    return readable(value)


def is_table(value: Any) -> bool:
    """A non-empty list of objects: shown as a table with a column per key."""
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


#: Keys that name what a row is about come first (recorded results have their keys sorted).
LEADING_KEYS = ("unit", "id", "side", "name")


def columns(items: list[dict]) -> list[str]:
    """Every key of a list of objects: the naming keys first, then the others as they first appear."""
    seen: dict[str, None] = {}
    for item in items:
        seen.update(dict.fromkeys(item))
    return [k for k in LEADING_KEYS if k in seen] + [k for k in seen if k not in LEADING_KEYS]


def summary(outcome: dict[str, Any]) -> str:
    """One line for a ledger row: its scalar fields, and how many entries the nested ones hold."""
    parts = []
    for key, value in outcome.items():
        if isinstance(value, dict) or (isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value)):
            text = f"{len(value)} entr{'y' if len(value) == 1 else 'ies'}"
        else:
            text = plain(value)
        parts.append(f"{humanize(key)}: {text}")
    return " · ".join(parts)


def percent(p: float) -> str:
    """A probability as players say it: "17 %", "<1 %" for a chance that rounds to nothing."""
    shown = round(p * 100)
    if shown == 0 and p > 0:
        return "<1 %"
    if shown == 100 and p < 1:
        return ">99 %"
    return f"{shown} %"


def faces_text(faces: list[int]) -> str:
    """Die faces as runs: [1, 2, 3, 5] -> "1-3, 5"."""
    runs: list[list[int]] = []
    for face in sorted(faces):
        if runs and face == runs[-1][-1] + 1:
            runs[-1].append(face)
        else:
            runs.append([face])
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)


def players_result(result: dict[str, Any], system: str) -> dict[str, Any]:
    """A check's result as a page shows it to players (`adjudicator.words.names.result_for_players`)."""
    return result_for_players(system, result) if isinstance(result, dict) else result


def unit_names(text: str, system: str) -> str:
    """A sentence with every unit id in it as its counter reads."""
    return UnitNames.of(system).text(text) if isinstance(text, str) else text


def register_result_filters(bp: Blueprint) -> None:
    """The filters `templates/_result.html` uses, for every template of the app."""
    bp.add_app_template_filter(plain, "plain")
    bp.add_app_template_filter(humanize, "humanize")
    bp.add_app_template_filter(side_label, "side_label")
    bp.add_app_template_filter(players_result, "players_result")
    bp.add_app_template_filter(unit_names, "unit_names")
    bp.add_app_template_filter(check_name, "check_name")
    bp.add_app_template_filter(choice_name, "choice_name")
    bp.add_app_template_filter(columns, "columns")
    bp.add_app_template_filter(summary, "summary")
    bp.add_app_template_filter(percent, "percent")
    bp.add_app_template_filter(faces_text, "faces_text")
    bp.add_app_template_test(is_table, "table")
    bp.add_app_template_global(TABLE_DEPTH, "TABLE_DEPTH")
