"""HTML check forms derived from a check's pydantic request schema.

A check's JSON schema says everything a form needs: each property becomes one input, chosen
by the property's type. Scalars get ordinary inputs; a list of ids gets a comma-separated text
box; anything nested (lists of units with hexes, maps of unit to turn, ...) gets a JSON
textarea. The form starts from the check's registered example (`CheckSpec.example`, dice
included), a valid request a player can submit unchanged and then edit; a field the example
leaves out shows its default, or (nested fields) an example of its shape generated from the
schema, so a player edits a valid shape instead of guessing one.

Submitted forms are turned back into the same JSON the API takes and validated by the same
model (`model_validate_json`, strict), so the pages and the API can never disagree about what
a valid request is. Problems come back as `FieldError`s naming the field and, for nested
fields, the item ("Attackers › item 1 › hex").
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from adjudicator.checks import CheckSpec
from scenarios import load_game

#: Kinds of input a property can become (see `_kind`).
NUMBER, CHECKBOX, TRISTATE, SELECT, TEXT, LIST, JSON = (
    "number", "checkbox", "tristate", "select", "text", "list", "json")

#: Words shown in capitals in labels made from snake_case names ("un_vp" -> "UN VP").
ACRONYMS = frozenset({
    "un", "vp", "vps", "hq", "hqs", "rp", "sp", "roc", "prc", "nk", "rok", "loc", "zoc", "mp",
    "crt", "id", "ids", "pbem", "snafu", "d6", "d10",
})


def humanize(name: str) -> str:
    """A label from a snake_case name: "un_supply_shortage" -> "UN supply shortage"."""
    words = [w.upper() if w in ACRONYMS else w for w in name.split("_") if w]
    if words and not words[0].isupper():
        words[0] = words[0][:1].upper() + words[0][1:]
    return " ".join(words)


@dataclass(frozen=True)
class FormField:
    """One input of a check form, derived from a JSON-schema property."""

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
    example: str = ""  # JSON text of an example value (JSON and LIST kinds)
    #: The value the form starts with: the check's example's, else the default.
    preset: Any = None
    in_example: bool = False

    @property
    def initial(self) -> str:
        """What the input shows before anything was submitted."""
        if self.kind == JSON:
            if self.in_example:
                return json.dumps(self.preset, indent=1, ensure_ascii=False)
            return self.example if self.required else ""
        if self.kind == LIST:
            return ", ".join(str(v) for v in self.preset or ())
        if self.preset is None or self.kind in (CHECKBOX, TRISTATE):
            return ""
        return str(self.preset)


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


def _split_nullable(node: dict, defs: dict) -> tuple[dict, bool]:
    """(the non-null schema, whether null is allowed) for `X | None` properties."""
    options = node.get("anyOf")
    if not options:
        return _deref(node, defs), False
    non_null = [o for o in options if o.get("type") != "null"]
    nullable = len(non_null) < len(options)
    if len(non_null) == 1:
        return _deref(non_null[0], defs), nullable
    return {"anyOf": non_null}, nullable


def _is_scalar(node: dict) -> bool:
    return node.get("type") in ("string", "integer") and "anyOf" not in node


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
    if kind == "array" and _is_scalar(_deref(inner.get("items", {}), defs)):
        return LIST
    return JSON


def _unit_ids(system: str) -> tuple[str, ...]:
    """The game's unit ids, for examples; empty if the game's data cannot be read."""
    try:
        return tuple(load_game(system).units)
    except Exception:  # an example is never worth a broken page
        return ()


def example_dice(spec: CheckSpec) -> str:
    """The dice of the check's example, as the dice box shows them ("3, 4")."""
    return ", ".join(str(d) for d in (spec.example or {}).get("dice", []))


def form_fields(spec: CheckSpec) -> list[FormField]:
    units = _unit_ids(spec.system)
    given = spec.example or {}
    schema = spec.request.model_json_schema()
    defs = schema.get("$defs", {})
    required = set(schema.get("required", []))
    fields = []
    for name, prop in schema.get("properties", {}).items():
        inner, nullable = _split_nullable(prop, defs)
        kind = _kind(inner, nullable, defs)
        items = _deref(inner.get("items", {}), defs)
        example = ""
        if kind == JSON:
            example = json.dumps(example_value(inner, defs, units=units), indent=1, ensure_ascii=False)
        fields.append(
            FormField(
                name=name,
                label=humanize(name),
                kind=kind,
                description=prop.get("description") or inner.get("description", ""),
                required=name in required,
                default=prop.get("default"),
                minimum=inner.get("minimum"),
                maximum=inner.get("maximum"),
                choices=tuple(inner.get("enum", ())),
                pattern=inner.get("pattern"),
                max_length=inner.get("maxLength"),
                nullable=nullable,
                integer_items=kind == LIST and items.get("type") == "integer",
                example=example,
                preset=given.get(name, prop.get("default")),
                in_example=name in given,
            )
        )
    return fields


# -- examples ----------------------------------------------------------------------------------------

_EG_RE = re.compile(r"e\.g\.,?\s*[('\"`]+([^'\"`)]+)['\"`)]")
_DIGITS_RE = re.compile(r"^\^\\d\{(\d+)\}\$$")


def _example_string(node: dict) -> str:
    """A plausible string: a documented example ("e.g. 'nk-6'"), else one fitting the pattern."""
    found = _EG_RE.search(node.get("description", ""))
    if found:
        return found.group(1)
    pattern = node.get("pattern", "")
    digits = _DIGITS_RE.match(pattern)
    if digits:
        return ("0101" * 4)[: int(digits.group(1))]
    if pattern == r"^\d+$":
        return "0101"
    if pattern == r"^\d{4}-\d{2}$":
        return "1950-11"
    return "…"


def example_value(node: dict, defs: dict, depth: int = 0, units: tuple[str, ...] = (),
                  name: str = "") -> Any:
    """An example instance of a JSON schema: required properties only, one item per list.

    It is a starting point to edit, not a promise that the rules accept it. A property called
    `unit` gets an id from the game's own units (`units`) when the field's description offers
    none of them, since shared schemas describe their ids with another game's examples.
    """
    node, _ = _split_nullable(node, defs)
    if name == "unit" and units and node.get("type") == "string":
        found = _EG_RE.search(node.get("description", ""))
        return found.group(1) if found and found.group(1) in units else units[0]
    if depth > 6:
        return None
    if node.get("examples"):
        return node["examples"][0]
    if "anyOf" in node:
        return example_value(node["anyOf"][0], defs, depth + 1, units, name)
    if "enum" in node:
        return next((v for v in node["enum"] if v != ""), node["enum"][0])
    if node.get("default") not in (None, "", [], {}):
        return node["default"]
    kind = node.get("type")
    if kind == "object":
        properties = node.get("properties", {})
        if properties:
            if node.get("required"):
                return {name: example_value(properties[name], defs, depth + 1, units, name)
                        for name in node["required"]}
            # Nothing required: show every property, at its default where it has one.
            return {name: prop["default"] if "default" in prop else example_value(prop, defs, depth + 1, units, name)
                    for name, prop in properties.items()}
        values = node.get("additionalProperties")
        if isinstance(values, dict):
            return {"…": example_value(values, defs, depth + 1, units)}
        return {}
    if kind == "array":
        if node.get("prefixItems"):
            return [example_value(item, defs, depth + 1, units) for item in node["prefixItems"]]
        item = example_value(node.get("items", {}), defs, depth + 1, units)
        return [item] * max(1, node.get("minItems", 1))
    if kind == "integer" or kind == "number":
        low = node.get("minimum", node.get("exclusiveMinimum", 0))
        return max(low, 1) if node.get("maximum", 1) >= 1 else low
    if kind == "boolean":
        return False
    if kind == "string":
        return _example_string(node)
    return None


# -- submitted form to request ------------------------------------------------------------------------

def _parse_number(raw: str) -> int | float:
    try:
        return int(raw)
    except ValueError:
        number = float(raw)  # ValueError again if it is no number at all
    if not math.isfinite(number):
        raise ValueError(raw)
    return number


def _field_value(field: FormField, form) -> tuple[bool, Any]:
    """(present, value) of one field; `present` False means "leave it out of the request".

    Raises ValueError with a player-facing message when the text cannot be read.
    """
    if field.kind == CHECKBOX:
        return True, field.name in form
    raw = form.get(field.name, "").strip()
    if raw == "":
        if field.kind == LIST and field.required:
            return True, []
        return False, None  # left out: its default, or "Field required"
    if field.kind == TRISTATE:
        return True, raw == "yes"
    if field.kind == SELECT:
        return True, next((c for c in field.choices if str(c) == raw), raw)
    if field.kind == NUMBER:
        try:
            return True, _parse_number(raw)
        except ValueError:
            raise ValueError(f"'{raw}' is not a number") from None
    if field.kind == LIST:
        parts = [p.strip() for p in re.split(r"[,;\n]+", raw) if p.strip()]  # ids may hold spaces
        if not field.integer_items:
            return True, parts
        try:
            return True, [int(p) for p in parts]
        except ValueError:
            raise ValueError("enter whole numbers separated by commas") from None
    if field.kind == JSON:
        try:
            return True, json.loads(raw)
        except json.JSONDecodeError as error:
            raise ValueError(f"not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})") from None
    return True, raw


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


def read_form(spec: CheckSpec, form) -> tuple[Any | None, list[FieldError]]:
    """Validate a submitted check form with the check's compute model.

    Returns (request model, []) or (None, errors). Every field is read even after a problem,
    so the player sees all the problems of a submission at once.
    """
    fields = form_fields(spec)
    labels = {f.name: f.label for f in fields}
    labels["dice"] = "Dice"
    values: dict[str, Any] = {}
    errors: list[FieldError] = []
    for field in fields:
        try:
            present, value = _field_value(field, form)
        except ValueError as error:
            errors.append(FieldError(field.name, field.label, str(error)))
            continue
        if present:
            values[field.name] = value
    if spec.random:
        values["dice"] = _dice_value(form)
    unreadable = {e.field for e in errors}
    try:
        request = spec.compute_model.model_validate_json(json.dumps(values))
    except ValidationError as error:
        for item in error.errors(include_url=False):
            location = tuple(item["loc"])
            name = str(location[0]) if location else None
            if name in unreadable:
                continue  # already reported as unreadable text
            known = name in labels
            where = " › ".join(p for p in (labels.get(name, humanize(name or "")), _inside(location)) if p)
            errors.append(FieldError(name if known else None, where or "The situation", _message(item),
                                     _inside(location) if known else ""))
        order = {name: index for index, name in enumerate(labels)}
        errors.sort(key=lambda e: order.get(e.field, len(order)))  # the form's order, form-wide last
        return None, errors
    return (None, errors) if errors else (request, [])
