"""Things named as players read them: the one place an id becomes words.

A unit is named as its counter reads ("NK 83", "US 27/25": nationality and designation, with the
size where that alone is ambiguous, the long name where that still is; `counter_names`), and a unit
the fog of war hides as the viewer may see it: its side, what the game calls it and where it
stands ("a UN block in 0518"; `hidden_unit_words`, `unit_as_seen`, asking `adjudicator.fog.hidden_side`),
never its commitment. Identical counters (KWB's four "NK SC") share their name: a player tells them
apart by where they stand, never by an id no counter prints. A marker reads by its name ("Communist
Support Fire 2": `marker_ids`, `marker_words`), in any text a unit would. A check reads by its name in words
(`check_name`), a form's option as the rulebook says it (`choice_name`), the data's rule ids in
words (`rule_words`).

Every surface a player reads names things through here: chat lines (`UnitNames`, its
`players_words` switch keeping the words older logs were written in), pages (`for_players`,
`result_for_players`), refusals, verdicts and CLI lines (`said_to`, `UnitNames.text`). Ids and
commitments stay in the JSON for programs.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from adjudicator.fog import HIDDEN, fog_of, hidden_side, redact, unit_in_fog


class UnitNames:
    """A game's unit ids and the names their counters read: nationality and designation ("NK 83",
    "US 27/25"), with the size where that alone is ambiguous, and the long name (or the id) where
    that still is."""

    def __init__(self, names: dict[str, str], full_steps: dict[str, str], parts: bool = True,
                 game: Any = None, players_words: bool = True, orders: bool = True, facts: bool = True):
        self.names = names
        self.full_steps = full_steps
        self.parts = parts
        self.game = game
        #: Whether a ruling reads in players' words as now (issue 51): a headline's facts with their
        #: units named ("rebuilt NK 1"), a report by side by its totals, a hidden unit as the fog
        #: allows ("a UN block in 0520"), a sealed die "hidden", the rules' value names in words
        #: ("foreign aid"); rulings written before read "rebuilt nk-1", a saved game's supply by its
        #: first plain values, "a hidden UN unit at 0520", a die's commitment, "foreign_aid"
        #: (`as_written_before_players_words`).
        self.players_words = players_words
        #: Whether every order a ruling gives reads as a unit line (issue 49): a KWB retreat of the CRT,
        #: a marker, a step restored to full strength (`as_written_before_every_order_was_a_change`).
        self.orders = orders
        #: Whether a headline's facts read as outcomes and markers by their names (issue 51): a yes/no
        #: fact in words ("the Chinese intervene", "no hit"), a side by its name ("winner UN"), a roll of
        #: units' dice with its hits ("no hits"), a marker as it is called ("Communist Support Fire 2");
        #: rulings written before read "intervenes yes", "hit no", "winner un", a roll without its
        #: result, "sf-com-2" (`as_written_before_facts_in_words`).
        self.facts = facts
        #: marker id -> its name, named in text as a unit is (with `facts`: rulings written before named
        #: markers by their ids, "Drew snafu-ammo-com").
        self.markers = marker_ids(game) if facts and game is not None else {}
        ids = sorted(list(names) + [m for m in self.markers if m not in names], key=len, reverse=True)
        self.pattern = re.compile(r"(?<![\w/-])(" + "|".join(map(re.escape, ids)) + r")(/[\w-]+)?(?![\w-])") if ids else None

    @staticmethod
    @lru_cache(maxsize=None)
    def of(system: str) -> UnitNames:
        try:
            from scenarios import load_game

            game = load_game(system)
        except Exception:  # an unknown system (a probe check): ids stay ids
            return UnitNames({}, {})
        return UnitNames(counter_names(game), {u.id: u.steps[0].name for u in game.units.values() if u.steps},
                         game=game)

    def as_written_in_version_2(self) -> UnitNames:
        """These names as version 2 of the rendering wrote them (a part of a broken-down unit as
        "US 2/5-3"), so a version-2 log still compares equal."""
        return UnitNames(self.names, self.full_steps, parts=False, game=self.game, players_words=self.players_words,
                         orders=self.orders, facts=self.facts)

    def with_ids_of_identical_counters(self) -> UnitNames:
        """These names as versions 2 and 3 first wrote them: identical counters each with its id
        ("NK SC (nk-sc-1)"), so the logs they wrote still compare equal."""
        if self.game is None:
            return self
        return UnitNames(counter_names(self.game, ids_of_identical=True), self.full_steps, self.parts, self.game,
                         self.players_words, self.orders, self.facts)

    def as_written_before_players_words(self) -> UnitNames:
        """These names as versions 2 and 3 wrote rulings before issue 51's players' words (see
        `players_words`), so the logs they wrote still compare equal."""
        return UnitNames(self.names, self.full_steps, self.parts, self.game, players_words=False, orders=self.orders,
                         facts=self.facts)

    def as_written_before_every_order_was_a_change(self) -> UnitNames:
        """These names rendering a ruling as logs written before every order a ruling gives was a
        change (issue 49) did: no unit line for a KWB retreat of the CRT, a marker, or a step
        restored to full strength; so the logs they wrote still compare equal."""
        return UnitNames(self.names, self.full_steps, self.parts, self.game, self.players_words, orders=False,
                         facts=self.facts)

    def as_written_before_facts_in_words(self) -> UnitNames:
        """These names rendering a headline as logs written before its facts read as outcomes (issue
        51, see `facts`) did: "intervenes yes", "winner un", a marker by its id; so the logs they wrote
        still compare equal."""
        return UnitNames(self.names, self.full_steps, self.parts, self.game, self.players_words, self.orders,
                         facts=False)

    def name(self, unit_id: str) -> str:
        """The counter's name; a part left by breaking a unit down ("us-d2/5-3", SPI) as "5-3 of US 2"."""
        if self.parts and unit_id not in self.names and "/" in unit_id:
            root, part = unit_id.split("/", 1)
            if root in self.names:
                return f"{part} of {self.names[root]}"
        return self.names.get(unit_id) or self.markers.get(unit_id, unit_id)

    def full_step(self, unit_id: str) -> str:
        return self.full_steps.get(unit_id, "")

    def join(self, unit_ids: list[str]) -> str:
        return ", ".join(self.name(u) for u in unit_ids)

    def text(self, line: str) -> str:
        """`line` with every unit id in it replaced by its counter's name."""
        if self.pattern is None:
            return line
        if not self.parts:
            return self.pattern.sub(lambda m: (self.names.get(m.group(1)) or self.markers[m.group(1)])
                                    + (m.group(2) or ""), line)
        return self.pattern.sub(lambda m: self.name(m.group(1) + (m.group(2) or "")), line)


def counter_names(game, ids_of_identical: bool = False) -> dict[str, str]:
    """unit id -> the name its counter reads: its nationality and designation, with its size where
    that alone is ambiguous, its long name where that still is. Counters that read alike even so
    (the identical counters of a game: KWB's four "NK SC", SPI's Chinese regiments) share their
    name: a player tells them apart by where they stand, never by an id no counter prints
    (`ids_of_identical`: with the id in brackets, as rulings first named them)."""

    def plain(unit) -> str:
        return _nationality_and_designation(game, unit) or unit.name or unit.id

    def sized(unit) -> str:
        return f"{plain(unit)} {unit.size}".strip()

    out: dict[str, str] = {}
    def long(unit) -> str:
        return unit.name or sized(unit)

    for attempt in (plain, sized, long):
        counts: dict[str, int] = {}
        for unit in game.units.values():
            if unit.id not in out:
                counts[attempt(unit)] = counts.get(attempt(unit), 0) + 1
        for unit in game.units.values():
            if unit.id not in out and counts[attempt(unit)] == 1:
                out[unit.id] = attempt(unit)
    for unit in game.units.values():
        if unit.id not in out:
            out[unit.id] = f"{plain(unit)} ({unit.id})" if ids_of_identical and plain(unit) != unit.id else plain(unit)
    return out


def _nationality_and_designation(game, unit) -> str:
    """What a counter prints to name its unit: nationality and designation ("NK 83"); "" for a
    counter without a designation."""
    if unit.designation.strip() in ("", "-", "?"):
        return ""
    nat = game.nationalities.get(unit.nationality)
    return f"{(nat.letter or nat.id.upper()) if nat else unit.nationality.upper()} {unit.designation}"


#: What in a marker's id says it is one, not a word of a sentence ("weather", "game-turn"): a number
#: or a side's or nationality's token ("sf-com-2", "snafu-ammo-un", "repl-us").
_MARKER_TOKENS = {"un", "com", "communist", "us", "rok", "nk", "prc", "su", "cw"}


def marker_ids(game) -> dict[str, str]:
    """marker id -> its name, of the markers whose id is no word of a sentence ("sf-com-2",
    "snafu-ammo-un"; not "weather", "game-turn"): where one stands in a text, it names that marker."""
    return {m.id: m.name for m in game.markers.values()
            if re.search(r"\d", m.id) or _MARKER_TOKENS & set(m.id.split("-"))}


def marker_words(game, ids: list[str]) -> str:
    """Markers as their counters are called ("Communist Support Fire 2, UN Support Fire 3"), never by
    the ids a request names them with: a rule's step text says them so (KWB 8.1: a Support Fire
    marker is seen by the opponent once it is used, so a combat's steps may name it)."""
    return ", ".join(game.markers[m].name if m in game.markers else m for m in ids)


def hidden_unit_words(system: str, sealed: dict[str, Any]) -> str:
    """A unit the fog of war hides, as the viewer may see it: its side, what the game calls it and
    where it stands ("a UN block in 0518"), never its commitment."""
    side, where = sealed.get("side"), sealed.get("hex")
    return unit_in_fog(fog_of(system), side if isinstance(side, str) else None, where if isinstance(where, str) else "")


def unit_as_seen(system: str, unit_id: str, viewer: str | None, hex_: str = "", names: UnitNames | None = None) -> str:
    """A unit as `viewer` (a side; None: an observer) may read it: its counter's name, or, where the
    fog of war hides it from the viewer (`adjudicator.fog.hidden_side`), its side, what the game calls
    it and where it stands ("a UN block in 0520")."""
    fog = fog_of(system)
    side = hidden_side(fog, unit_id, viewer)
    if side is not None:
        return unit_in_fog(fog, side, hex_)
    return (names or UnitNames.of(system)).name(unit_id)


#: A value that is a name of the program's ("ground_support", "mig_alley"): shown in words.
_SNAKE = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")


def for_players(system: str, node: Any, hidden: str = "a hidden unit", name_units: bool = True) -> Any:
    """A ruling's JSON (its request, outcome, steps, dice) as a page shows it to players: each sealed
    unit as the fog lets the viewer read it ("a UN block in 0520"), a sealed value as `hidden`, and
    (`name_units`) each unit id in a value or a key as its counter reads ("NK 83"), a value that is a
    marker's id by its name ("Communist Support Fire 2") and a value that is a snake_case name in
    words ("ground support"): never a commitment or an id. The JSON the API
    answers keeps them all for programs."""
    names = UnitNames.of(system) if name_units else None

    def words(text: str) -> str:
        if text.startswith(f"{HIDDEN}:"):
            return hidden
        if names is not None and _SNAKE.fullmatch(text):  # a value the rules name ("ground_support"), in words
            return text.replace("_", " ")
        return names.text(text) if names is not None else text

    def key_words(key: str) -> str:
        """A key keeps its name (the pages humanize it, and `data-key` names it for programs), a
        unit id in it named, a sealed one hidden."""
        if key.startswith(f"{HIDDEN}:"):
            return hidden
        return names.text(key) if names is not None else key

    def walk(item: Any) -> Any:
        if isinstance(item, dict):
            if isinstance(item.get(HIDDEN), str):
                return {"unit": hidden_unit_words(system, item)}
            return {(key_words(key) if isinstance(key, str) else key): walk(value) for key, value in item.items()}
        if isinstance(item, list):
            return [walk(value) for value in item]
        return words(item) if isinstance(item, str) else item
    return walk(node)


def result_for_players(system: str, result: dict[str, Any]) -> dict[str, Any]:
    """A check's answer or result with what a page shows of it in players' words (`for_players`):
    its request, outcome, steps and warnings; its dice, a sealed die as "hidden"."""
    shown = dict(result)
    for key in ("request", "outcome", "steps", "warnings"):
        if key in shown:
            shown[key] = for_players(system, shown[key])
    if "dice_used" in shown:
        shown["dice_used"] = for_players(system, shown["dice_used"], hidden="hidden")
    return shown


def said_to(system: str, text: str, viewer: str | None = None, fogged: bool = False) -> str:
    """A sentence the program says to a player (a refusal, a verdict) with its units as he reads
    them: each unit the fog hides from `viewer` (when `fogged`: a recorded game's asker, None an
    observer) by its side ("a UN block"), every other unit id as its counter reads ("NK 83"). A
    calculation's asker sent every unit himself: it is not `fogged`."""
    if fogged:
        text = redact(system, text, viewer)
    return UnitNames.of(system).text(text)


def check_name(check: str) -> str:
    """A check as players call it ("chinese_intervention" -> "Chinese intervention", "ooc" stays a
    word): the pages' lists, refusals and headlines; the id stays in the JSON and the addresses."""
    from adjudicator.words.forms import humanize  # forms reads the games' data: only when words are wanted

    return humanize(check.rpartition(".")[2])


def rule_words(text: str) -> str:
    """A text naming the data's own rules by their ids ("the special rule un_units_off_north_edge"),
    with each such id in words ("un units off north edge")."""
    return _SNAKE_WORD.sub(lambda found: found.group(0).replace("_", " "), text)


_SNAKE_WORD = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")


_CHOICE = re.compile(r"[a-z]+(?:[_-][a-z]+)*")


def choice_name(value: Any) -> str:
    """A form's option as the rulebook says it ("ammo_shortage" -> "Ammo shortage", "ooc" -> "OOC",
    "invasion-inchon" -> "Invasion Inchon"); any other value (a chit, a month, "Prepared Attack")
    as it is. The option's value stays what the request takes."""
    from adjudicator.words.forms import humanize  # forms reads the games' data: only when words are wanted

    if isinstance(value, str) and _CHOICE.fullmatch(value):
        return humanize(value.replace("-", "_"))
    return "" if value is None else str(value)


# -- a unit named by its counter's name: the way back to its id ------------------------------------------


class UnitNameRefused(ValueError):
    """A unit named by a name several counters read ("US 1": a division and a regiment): which
    counters it could be, in their names; `pointer` is where the request names it."""

    def __init__(self, pointer: str, detail: str):
        super().__init__(f"{pointer}: {detail}")
        self.pointer = pointer
        self.detail = detail


def _name_key(text: str) -> str:
    """A name as typed, compared without case or extra spaces ("s  17" reads "S 17")."""
    return " ".join(text.split()).casefold()


@lru_cache(maxsize=None)
def _ids_by_name(system: str) -> dict[str, tuple[str, ...]]:
    """name as players read or write it -> the ids of the units it names: each counter's name
    (`counter_names`), its long name and its nationality and designation ("US 1", even where that
    alone names a division and a regiment: then it names both)."""
    try:
        from scenarios import load_game

        game = load_game(system)
    except Exception:  # an unknown system (a probe check): no names
        return {}
    found: dict[str, list[str]] = {}
    counters = counter_names(game)
    for unit in game.units.values():
        for name in (counters.get(unit.id), unit.name, _nationality_and_designation(game, unit)):
            if name and unit.id not in found.setdefault(_name_key(name), []):
                found[_name_key(name)].append(unit.id)
    return {name: tuple(ids) for name, ids in found.items()}


def unit_id_named(system: str, text: str, pointer: str = "") -> str:
    """The id of the unit `text` names: an id as it is; a name a counter reads ("S 17") or its long
    name ("17th Regiment") as that unit's id, when it names one unit only; anything else as it is
    (the rules then refuse an unknown unit). A name several counters read is refused
    (`UnitNameRefused`), naming them as they read: a player tells them apart by their names, or,
    for identical counters, picks one from the form's list."""
    names = UnitNames.of(system)
    if not isinstance(text, str) or text in names.names:
        return text
    ids = _ids_by_name(system).get(_name_key(text), ())
    if len(ids) == 1:
        return ids[0]
    if not ids:
        return text
    read = sorted({names.name(u) for u in ids})
    if len(read) == 1:
        detail = (f"{text!r} is the name of {len(ids)} identical counters ({read[0]}): pick one from the "
                  "list of units")
    else:
        detail = f"{text!r} could be any of {len(ids)} units: {', '.join(read)}; name one of them"
    raise UnitNameRefused(pointer, detail)


#: The board roles of a request's fields that name units (adjudicator.checks.BOARD_ROLES).
_UNIT_ROLES = frozenset({"unit", "attackers", "defenders", "counters_not_in_play"})


@lru_cache(maxsize=None)
def _unit_pointers(model: Any) -> tuple[tuple[str, ...], ...]:
    """The paths of the fields of a check's request `model` (a pydantic model) the board fills with
    units, from its JSON schema's board roles (read once per model)."""
    from adjudicator.checks import board_fields  # the leaf that reads a schema's board roles

    return tuple(tuple(pointer.strip("/").split("/")) for pointer, role in board_fields(model.model_json_schema())
                 if role in _UNIT_ROLES)


def with_unit_ids(system: str, model: Any, request: Any) -> Any:
    """`request` (a check's JSON body, read against the check's request `model`) with each unit it
    names by a counter's name named by its id (`unit_id_named`): in the fields the board fills with
    units, and as any object's ``unit`` (or ``block``). The request then reads as if the id had been
    sent, so the record keeps the id and is verified as any other; a name several counters read
    raises `UnitNameRefused`."""

    def named(value: Any, where: str) -> Any:
        if isinstance(value, str):
            return unit_id_named(system, value, where)
        if isinstance(value, list):
            return [unit_id_named(system, v, f"{where}/{i}") if isinstance(v, str) else v for i, v in enumerate(value)]
        return value

    def along(node: Any, parts: list[str], where: str) -> Any:
        if not parts:
            return named(node, where)
        head, rest = parts[0], parts[1:]
        if head == "-" and isinstance(node, list):
            return [along(item, rest, f"{where}/{i}") for i, item in enumerate(node)]
        if isinstance(node, dict) and head in node:
            return {**node, head: along(node[head], rest, f"{where}/{head}")}
        return node

    def objects(node: Any, where: str) -> Any:
        if isinstance(node, dict):
            return {key: (named(value, f"{where}/{key}") if key in ("unit", "block") and isinstance(value, str)
                          else objects(value, f"{where}/{key}")) for key, value in node.items()}
        if isinstance(node, list):
            return [objects(item, f"{where}/{i}") for i, item in enumerate(node)]
        return node

    for parts in _unit_pointers(model):
        request = along(request, list(parts), "")
    return objects(request, "")


def changes_named(system: str, changes: list[dict[str, Any]], viewer: str | None) -> list[dict[str, Any]]:
    """An answer's `piece_changes` with each unit named as `viewer` may read it (`name` beside
    `unit`, `beside_name` beside `beside`, in each change and action): the VASSAL extension lists a
    change to a unit it finds no piece of ("not on the board") by that name, never by its id."""
    units = UnitNames.of(system)
    known = set(units.names)

    def named(entry: dict[str, Any], hex_: str) -> dict[str, Any]:
        out = dict(entry)
        for key, name_key in (("unit", "name"), ("beside", "beside_name")):
            unit = entry.get(key)
            if isinstance(unit, str) and unit in known:
                out[name_key] = unit_as_seen(system, unit, viewer, entry.get("hex") or hex_ or "", units)
        return out

    out = []
    for change in changes:
        hex_ = change.get("hex") if isinstance(change.get("hex"), str) else ""
        out.append({**named(change, hex_), **({"actions": [named(a, hex_) for a in change["actions"]]}
                                            if isinstance(change.get("actions"), list) else {})})
    return out
