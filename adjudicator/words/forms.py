"""HTML check forms derived from a check's pydantic request schema: one generator for every check.

A check's JSON schema says everything a form needs, so each property becomes an input chosen by
its type, recursively:

- scalars get ordinary inputs (number, text, a select for an enum, a checkbox for a boolean);
- a list of ids or numbers is one comma-separated box; a list of enum values, one checkbox each;
- an object (a single unit, one side's combat levels) is a group of its own fields;
- a list of objects (attackers, positions) is a row per object with Add and Remove buttons;
- a map (unit -> turn, support type -> count) is a row per key with its value.

A field that names a unit (board role `unit`, or called `unit`) is picked from the game's units
(a searchable list showing each counter's printed name and values); a unit's `step` (or a block's
`sp`) is a choice among that unit's steps; a hex is typed as printed. Inputs are named by their
path (`attackers.0.unit`), so no JSON is ever typed. The form starts from the check's registered
example (`CheckSpec.example`, dice included), a valid request a player can submit unchanged.

Submitted forms are turned back into the same JSON the API takes and validated by the same model
(`model_validate_json`, strict), so the pages and the API can never disagree about what a valid
request is. Problems come back as `FieldError`s naming the field and, for nested fields, the item
("Attackers › item 1 › hex").
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from adjudicator.checks import CheckSpec, side_label
from adjudicator.words.names import UnitNameRefused, counter_names, with_unit_ids
from scenarios import load_game

#: Kinds of input a property can become (see `_kind`).
NUMBER, CHECKBOX, TRISTATE, SELECT, TEXT, LIST, CHOICES, OBJECT, ROWS, MAP, JSON = (
    "number", "checkbox", "tristate", "select", "text", "list", "choices", "object", "rows", "map",
    "json")

#: How a text field's value is picked, beyond typing it (see `_picker`).
PICK_UNIT, PICK_STEP, PICK_SP, PICK_HEX = "unit", "step", "sp", "hex"

#: Words shown in capitals in labels made from snake_case names ("un_vp" -> "UN VP").
ACRONYMS = frozenset({
    "un", "vp", "vps", "hq", "hqs", "rp", "sp", "roc", "prc", "nk", "rok", "loc", "zoc", "mp",
    "crt", "id", "ids", "pbem", "snafu", "d6", "d10", "ooc",
})


#: Words a label made from a name spells as the rulebooks do ("vps_spent" -> "VPs spent").
SPELLED = {
    "vps": "VPs", "hqs": "HQs", "macarthur": "MacArthur", "korea": "Korea", "korean": "Korean",
    "china": "China", "chinese": "Chinese", "soviet": "Soviet", "pyongyang": "Pyongyang", "seoul": "Seoul",
    "pusan": "Pusan", "communist": "Communist", "communists": "Communists", "january": "January",
    "inchon": "Inchon",
}


def humanize(name: str) -> str:
    """A label from a snake_case name: "un_supply_shortage" -> "UN supply shortage"."""
    words = [w.upper() if w in ACRONYMS and w not in SPELLED else SPELLED.get(w, w) for w in name.split("_") if w]
    if words and not words[0].isupper():
        words[0] = words[0][:1].upper() + words[0][1:]
    return " ".join(words)


def automatic_title(name: str) -> str:
    """The title pydantic writes for a field without one ("what_if" -> "What If"): not a label."""
    return name.replace("_", " ").title()


def label(name: str, prop: dict) -> str:
    """A field's label: the schema's own title in the rulebook's words (a check's schema gives one
    where a name in words would not read right: "MacArthur commands"), else its name in words."""
    title = prop.get("title")
    if isinstance(title, str) and title.strip() and title != automatic_title(name):
        return title
    return humanize(name)


@dataclass(frozen=True)
class FormField:
    """One input of a check form (or a group of inputs), derived from a JSON-schema property."""

    name: str
    label: str
    kind: str
    description: str
    required: bool
    default: Any = None
    minimum: int | float | None = None
    maximum: int | float | None = None
    choices: tuple[Any, ...] = ()
    pattern: str | None = None
    max_length: int | None = None
    nullable: bool = False
    integer_items: bool = False  # LIST of integers rather than strings
    #: The value the form starts with: the check's example's, else the default.
    preset: Any = None
    in_example: bool = False
    #: OBJECT and ROWS: the fields of one object; MAP: (key, value).
    children: tuple["FormField", ...] = ()
    #: How the value is picked besides typing (PICK_*), "" for plain typing.
    picker: str = ""
    board_role: str = ""
    max_items: int | None = None

    @property
    def initial(self) -> Any:
        """What the field shows before anything was submitted (see `display_value`)."""
        return self.preset


@dataclass(frozen=True)
class FieldError:
    """One problem with a submitted form: the field it belongs to (None: the whole form)."""

    field: str | None
    where: str  # readable location, e.g. "Attackers › item 1 › hex"
    message: str
    inside: str = ""  # the part of `where` inside the field, e.g. "item 1 › hex"

    @property
    def next_to_field(self) -> str:
        """The message as shown under the field's input."""
        return f"{self.inside}: {self.message}" if self.inside else self.message


# -- schema to fields ------------------------------------------------------------------------------

def _deref(node: dict, defs: dict) -> dict:
    """Follow a local `$ref` (also one wrapped in allOf), keeping the node's own keys."""
    if "allOf" in node and len(node["allOf"]) == 1:
        node = {**node["allOf"][0], **{k: v for k, v in node.items() if k != "allOf"}}
    if "$ref" in node:
        target = defs.get(node["$ref"].rsplit("/", 1)[-1], {})
        node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
    return node


def split_nullable(node: dict, defs: dict) -> tuple[dict, bool]:
    """(the non-null schema, whether null is allowed) for `X | None` properties."""
    options = node.get("anyOf")
    if not options:
        return _deref(node, defs), False
    non_null = [o for o in options if o.get("type") != "null"]
    nullable = len(non_null) < len(options)
    if len(non_null) == 1:
        merged = {**_deref(non_null[0], defs), **{k: v for k, v in node.items() if k != "anyOf"}}
        return merged, nullable
    return {"anyOf": non_null}, nullable


def _is_scalar(node: dict) -> bool:
    return node.get("type") in ("string", "integer", "number") and "anyOf" not in node


def _kind(inner: dict, nullable: bool, defs: dict) -> str:
    if "enum" in inner:
        return SELECT
    kind = inner.get("type")
    if kind in ("integer", "number"):
        return NUMBER
    if kind == "boolean":
        return TRISTATE if nullable else CHECKBOX
    if kind == "string":
        return TEXT
    if kind == "array":
        items = _deref(inner.get("items", {}), defs)
        if "enum" in items:
            return CHOICES
        if _is_scalar(items):
            return LIST
        if items.get("type") == "object" and items.get("properties"):
            return ROWS
    if kind == "object":
        if inner.get("properties"):
            return OBJECT
        values = inner.get("additionalProperties")
        if isinstance(values, dict) and _is_scalar(_deref(values, defs)):
            return MAP
    return JSON


def _picker(name: str, inner: dict) -> str:
    role = inner.get("x-board", "")
    if inner.get("type") == "string" and (role == "unit" or name in ("unit", "lead_unit")):
        return PICK_UNIT
    if role == "step" or name == "step":
        return PICK_STEP
    if role == "sp":
        return PICK_SP
    if role in ("hex", "target_hex") or (inner.get("pattern") or "").startswith(r"^\d"):
        return PICK_HEX
    return ""


def _field(name: str, prop: dict, defs: dict, required: bool, given: dict, depth: int = 0) -> FormField:
    inner, nullable = split_nullable(prop, defs)
    kind = _kind(inner, nullable, defs) if depth < 4 else JSON
    items = _deref(inner.get("items", {}), defs)
    children: tuple[FormField, ...] = ()
    if kind in (OBJECT, ROWS):
        shape = inner if kind == OBJECT else items
        needed = set(shape.get("required", []))
        children = tuple(_field(n, p, defs, n in needed, {}, depth + 1)
                         for n, p in shape["properties"].items())
    elif kind == MAP:
        key_choices = tuple(inner.get("propertyNames", {}).get("enum", ()))
        key = FormField(name="key", label="Key", kind=SELECT if key_choices else TEXT,
                        description="", required=True, choices=key_choices)
        children = (key, _field("value", inner["additionalProperties"], defs, True, {}, depth + 1))
    elif kind == CHOICES:
        inner = {**inner, "enum": items["enum"]}
    return FormField(
        name=name,
        label=label(name, prop),
        kind=kind,
        description=prop.get("description") or inner.get("description", ""),
        required=required,
        default=prop.get("default"),
        minimum=inner.get("minimum"),
        maximum=inner.get("maximum"),
        choices=tuple(inner.get("enum", ())),
        pattern=inner.get("pattern"),
        max_length=inner.get("maxLength"),
        nullable=nullable,
        integer_items=kind == LIST and items.get("type") == "integer",
        preset=given.get(name, prop.get("default")),
        in_example=name in given,
        children=children,
        picker=_picker(name, {**inner, "x-board": prop.get("x-board", inner.get("x-board", ""))}),
        board_role=prop.get("x-board", inner.get("x-board", "")),
        max_items=inner.get("maxItems"),
    )


def form_fields(spec: CheckSpec) -> list[FormField]:
    """The check's form: one field per request property (groups for nested ones)."""
    given = spec.example or {}
    schema = spec.request.model_json_schema()
    defs = schema.get("$defs", {})
    required = set(schema.get("required", []))
    return [_field(name, prop, defs, name in required, given)
            for name, prop in schema.get("properties", {}).items()]


def example_dice(spec: CheckSpec) -> str:
    """The dice of the check's example, as the dice box shows them ("3, 4")."""
    return ", ".join(str(d) for d in (spec.example or {}).get("dice", []))


# -- the game's units, for pickers -------------------------------------------------------------------

@dataclass(frozen=True)
class UnitChoice:
    """One unit as a picker offers it: id, what is printed on it, and its steps."""

    id: str
    label: str  # "NK 6 (6th Infantry Division) — 8-6-3 / 4-6-3": the name its counter reads first
    side: str
    steps: tuple[tuple[str, str, Any], ...]  # (step name, printed values, SP or None)
    side_name: str = ""  # "UN": the whole list says whose each unit is (a datalist has no groups)
    counter: str = ""  # "NK 6": the name its counter reads (`adjudicator.words.names.counter_names`)


def unit_choices(system: str) -> list[UnitChoice]:
    """The game's units for pickers, one side's after the other's (the game's order of sides);
    empty if the game's data cannot be read."""
    try:
        game = load_game(system)
    except Exception:  # a picker is never worth a broken page
        return []
    out = []
    counters = counter_names(game)
    for unit in game.units.values():
        printed = " / ".join(dict.fromkeys(s.text for s in unit.steps))
        name = unit.name or unit.designation
        counter = counters.get(unit.id, "")
        named = f"{counter} ({name})" if counter and name and counter != name else (counter or name)
        out.append(UnitChoice(unit.id, f"{named} — {printed}", unit.side,
                              tuple((s.name, s.text, s.values.get("sp")) for s in unit.steps), side_label(unit.side), counter))
    order = list(game.sides)
    return sorted(out, key=lambda choice: order.index(choice.side) if choice.side in order else len(order))


def unit_index(choices: list[UnitChoice]) -> dict[str, UnitChoice]:
    """A form's units by what a field may hold: each unit's id, and the name its counter reads where
    only that unit's counter reads it (a unit typed so, as the server reads it: `with_unit_ids`), so a
    form shown again names the unit and offers its steps."""
    readers: dict[str, list[UnitChoice]] = {}
    for choice in choices:
        if choice.counter:
            readers.setdefault(choice.counter, []).append(choice)
    by_id = {c.id: c for c in choices}
    return {**{name: found[0] for name, found in readers.items() if len(found) == 1 and name not in by_id}, **by_id}


def units_json(choices: list[UnitChoice]) -> str:
    """The pickers' data for the page's script: id -> [label, [[step, printed, sp], ...], the name its
    counter reads] (a unit typed by that name is that unit, as the server reads it: `with_unit_ids`)."""
    return json.dumps({c.id: [c.label, [list(s) for s in c.steps], c.counter] for c in choices},
                      ensure_ascii=False, separators=(",", ":"))


# -- what the form shows -------------------------------------------------------------------------------

def rows_of(field: FormField, value: Any) -> list[dict]:
    """The rows a ROWS or MAP field shows: the example's objects (a map's pairs), or what was
    submitted."""
    if field.kind == MAP and isinstance(value, dict):
        return [{"key": k, "value": v} for k, v in value.items()]
    return [row for row in value or () if isinstance(row, dict)]


def shown(value: Any) -> str:
    """A scalar or list value as an input's text."""
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def initial_values(fields: list[FormField]) -> dict[str, Any]:
    return {f.name: f.initial for f in fields}


def _indices(form, path: str) -> list[int]:
    """Row numbers submitted under `path` ("attackers.0.unit" -> 0), in order."""
    found = set()
    prefix = path + "."
    for key in form.keys():
        if key.startswith(prefix):
            head = key[len(prefix):].split(".", 1)[0]
            if head.isdigit():
                found.add(int(head))
    return sorted(found)


def submitted_values(fields: list[FormField], form) -> dict[str, Any]:
    """The form's values as typed, shaped like the fields, to show a submitted form again."""
    def raw(field: FormField, path: str) -> Any:
        if field.kind == OBJECT:
            return {c.name: raw(c, f"{path}.{c.name}") for c in field.children}
        if field.kind in (ROWS, MAP):
            return [{c.name: raw(c, f"{path}.{i}.{c.name}") for c in field.children}
                    for i in _indices(form, path)]
        if field.kind == CHECKBOX:
            return path in form
        if field.kind == CHOICES:
            return form.getlist(path)
        return form.get(path, "")

    return {f.name: raw(f, f.name) for f in fields}


# -- examples ----------------------------------------------------------------------------------------

_DIGITS_RE = re.compile(r"^\^\\d\{(\d+)\}\$$")


# -- submitted form to request ------------------------------------------------------------------------

def _parse_number(raw: str) -> int | float:
    try:
        return int(raw)
    except ValueError:
        number = float(raw)  # ValueError again if it is no number at all
    if not math.isfinite(number):
        raise ValueError(raw)
    return number


class _Unreadable(ValueError):
    """Text that cannot be read as its field's type, at `location` (a pydantic-style path)."""

    def __init__(self, location: tuple, message: str):
        super().__init__(message)
        self.location = location


def _scalar(field: FormField, raw: str, location: tuple) -> Any:
    if field.kind == TRISTATE:
        return raw == "yes"
    if field.kind == SELECT:
        return next((c for c in field.choices if str(c) == raw), raw)
    if field.kind == NUMBER:
        try:
            return _parse_number(raw)
        except ValueError:
            raise _Unreadable(location, f"'{raw}' is not a number") from None
    if field.kind == LIST:
        parts = [p.strip() for p in re.split(r"[,;\n]+", raw) if p.strip()]  # ids may hold spaces
        if not field.integer_items:
            return parts
        try:
            return [int(p) for p in parts]
        except ValueError:
            raise _Unreadable(location, "enter whole numbers separated by commas") from None
    if field.kind == JSON:
        try:
            return json.loads(raw)
        except json.JSONDecodeError as error:
            raise _Unreadable(location, f"not valid JSON: {error.msg} (line {error.lineno}, "
                              f"column {error.colno})") from None
    return raw


def _group(children, form, path: str, location: tuple, errors: list) -> tuple[dict, bool]:
    """An object's values from its children; the flag says whether anything but a checkbox was
    filled in (an untouched group is left out)."""
    values: dict[str, Any] = {}
    filled = False
    for child in children:
        present, value = _read(child, form, f"{path}.{child.name}", location + (child.name,), errors)
        if present:
            values[child.name] = value
            filled = filled or child.kind != CHECKBOX
    return values, filled


def _read(field: FormField, form, path: str, location: tuple, errors: list) -> tuple[bool, Any]:
    """(present, value) of one field; `present` False means "leave it out of the request".

    Text that cannot be read is added to `errors` (as `_Unreadable`) and the field left out.
    """
    if field.kind == CHECKBOX:
        return True, path in form
    if field.kind == CHOICES:
        picked = form.getlist(path)
        return bool(picked) or field.required, [next((c for c in field.choices if str(c) == p), p)
                                                for p in picked]
    if field.kind == OBJECT:
        values, filled = _group(field.children, form, path, location, errors)
        return filled or field.required, values
    if field.kind in (ROWS, MAP):
        rows = []
        for index in _indices(form, path):
            values, filled = _group(field.children, form, f"{path}.{index}",
                                    location + (len(rows),), errors)
            if filled:
                rows.append(values)
        if field.kind == MAP:
            return bool(rows) or field.required, {row["key"]: row.get("value") for row in rows
                                                  if row.get("key") not in (None, "")}
        return bool(rows) or field.required, rows
    raw = form.get(path, "").strip()
    if raw == "":
        if field.kind == LIST and field.required:
            return True, []
        return False, None  # left out: its default, or "Field required"
    try:
        return True, _scalar(field, raw, location)
    except _Unreadable as error:
        errors.append(error)
        return False, None


def _dice_value(form) -> list[Any]:
    """The dice box: numbers separated by commas or spaces; anything else goes to validation."""
    values: list[Any] = []
    for part in re.split(r"[\s,;]+", form.get("dice", "").strip()):
        if part:
            try:
                values.append(int(part))
            except ValueError:
                values.append(part)
    return values


def _inside(location: tuple) -> str:
    """The readable path below the top-level field: "item 1 › hex", "die 2"."""
    parts = []
    for part in location[1:]:
        if isinstance(part, int):
            parts.append(f"die {part + 1}" if location[0] == "dice" else f"item {part + 1}")
        else:
            parts.append(str(part))
    return " › ".join(parts)


_PATTERN_WORDS = {
    r"^\d+$": "digits only (a hex as printed, e.g. 0216)",
    r"^\d{4}-\d{2}$": "a month written YYYY-MM, e.g. 1950-11",
}


def _message(item: dict) -> str:
    """pydantic's message, with regular expressions put into words where we know them."""
    if item["type"] == "missing":
        return "required: fill this in"
    if item["type"] == "value_error":  # a check's own validator: its message is for players
        return str(item.get("ctx", {}).get("error", item["msg"]))
    if item["type"] != "string_pattern_mismatch":
        return item["msg"].replace(" after validation", "")
    pattern = item.get("ctx", {}).get("pattern", "")
    digits = _DIGITS_RE.match(pattern)
    if digits:
        return f"should be {digits.group(1)} digits (as printed on the map, e.g. {('0216' * 3)[: int(digits.group(1))]})"
    if pattern in _PATTERN_WORDS:
        return f"should be {_PATTERN_WORDS[pattern]}"
    return item["msg"]


def form_request(fields: list[FormField], form) -> tuple[dict[str, Any], list[_Unreadable]]:
    """The request a submitted form makes (as the API takes it), and the text it could not read."""
    values: dict[str, Any] = {}
    unreadable: list[_Unreadable] = []
    for field in fields:
        present, value = _read(field, form, field.name, (field.name,), unreadable)
        if present:
            values[field.name] = value
    return values, unreadable


def _error(labels: dict[str, str], location: tuple, message: str) -> FieldError:
    name = str(location[0]) if location else None
    known = name in labels
    where = " › ".join(p for p in (labels.get(name, humanize(name or "")), _inside(location)) if p)
    return FieldError(name if known else None, where or "The situation", message,
                      _inside(location) if known else "")


def read_form(spec: CheckSpec, form) -> tuple[Any | None, list[FieldError]]:
    """Validate a submitted check form with the check's compute model (the players' dice).

    Returns (request model, []) or (None, errors). Every field is read even after a problem,
    so the player sees all the problems of a submission at once.
    """
    fields = form_fields(spec)
    values, unreadable = form_request(fields, form)
    if spec.random:
        values["dice"] = _dice_value(form)
    values = units_by_id(spec, values, unreadable)
    return validate_form(spec.compute_model, fields, values, unreadable)


def read_situation(spec: CheckSpec, form) -> tuple[Any | None, list[FieldError]]:
    """A submitted check form as the check's own request, its dice box left aside: what the
    chances of the situation are asked with (`adjudicator.odds`)."""
    fields = form_fields(spec)
    values, unreadable = form_request(fields, form)
    return validate_form(spec.request, fields, units_by_id(spec, values, unreadable), unreadable)


def units_by_id(spec: CheckSpec, values: dict[str, Any], unreadable: list[_Unreadable]) -> dict[str, Any]:
    """A form's request with each unit typed by its counter's name ("S 17") named by its id, as the
    API reads it (`adjudicator.words.names.with_unit_ids`); a name several counters read is a problem
    of its field (added to `unreadable`), the request left as it was."""
    try:
        return with_unit_ids(spec.system, spec.request, values)
    except UnitNameRefused as refused:
        location = tuple(int(p) if p.isdigit() else p for p in refused.pointer.strip("/").split("/"))
        unreadable.append(_Unreadable(location, refused.detail))
        return values


def validate_form(model, fields: list[FormField], values: dict[str, Any],
                  unreadable: list[_Unreadable]) -> tuple[Any | None, list[FieldError]]:
    """`values` (read from a form of `fields`) validated by `model`: (request, []) or (None, errors
    named after the form's fields, in the form's order)."""
    labels = {f.name: f.label for f in fields}
    labels["dice"] = "Dice"
    errors = [_error(labels, e.location, str(e)) for e in unreadable]
    unreadable_fields = {e.location[0] for e in unreadable}
    try:
        request = model.model_validate_json(json.dumps(values))
    except ValidationError as error:
        for item in error.errors(include_url=False):
            location = tuple(item["loc"])
            if location and location[0] in unreadable_fields:
                continue  # already reported as unreadable text
            errors.append(_error(labels, location, _message(item)))
        order = {name: index for index, name in enumerate(labels)}
        errors.sort(key=lambda e: order.get(e.field, len(order)))  # the form's order, form-wide last
        return None, errors
    return (None, errors) if errors else (request, [])
