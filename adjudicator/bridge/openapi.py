"""The saved-game endpoints in the OpenAPI document (added by ``register_bridge``).

The responses are described by hand-written JSON Schemas rather than pydantic models: they
are built from dataclasses (:mod:`adjudicator.bridge.positions`,
:mod:`adjudicator.rules.positions`) whose ``to_json`` is the single source of the shape; the
tests compare a real response against these schemas.
"""

from __future__ import annotations

from typing import Any

REF = "#/components/schemas/{}"

LOCATION = {
    "type": "object",
    "description": "Where a piece stands. kind: hex (map, hex, on_centre), box (the Boxes map; box: the id of "
    "the box it lies in, a side's dead pile among them), "
    "turn-track (scenario), off-grid (on a hex map, outside the printed hexes), unknown-map, "
    "not-on-a-map. x/y are VASSAL map pixels.",
    "properties": {
        "kind": {"enum": ["hex", "box", "turn-track", "off-grid", "unknown-map", "not-on-a-map"]},
        "vassal_map": {"type": ["string", "null"]},
        "x": {"type": "integer"}, "y": {"type": "integer"},
        "map": {"type": "string"}, "hex": {"type": "string"}, "on_centre": {"type": "boolean"},
        "scenario": {"type": "string"}, "box": {"type": "string"},
    },
    "required": ["kind", "vassal_map", "x", "y"],
}

PLACED_UNIT = {
    "type": "object",
    "properties": {
        "unit": {"type": "string"}, "piece_id": {"type": "string"}, "name": {"type": "string"},
        "side": {"type": "string"}, "nationality": {"type": "string"}, "type": {"type": "string"},
        "designation": {"type": "string"}, "size": {"type": "string"},
        "step": {"type": ["string", "null"], "description": "null when the piece does not say"},
        "step_index": {"type": ["integer", "null"]}, "values": {"type": ["string", "null"]},
        "identified_by": {"enum": ["properties", "name"]},
        "location": {"$ref": REF.format("SavedGameLocation")},
    },
    "required": ["unit", "piece_id", "side", "step", "identified_by", "location"],
}

OTHER_PIECE = {
    "type": "object",
    "description": "A marker (marker, face) or a piece that could not be identified (reason).",
    "properties": {
        "piece_id": {"type": "string"}, "name": {"type": "string"},
        "location": {"$ref": REF.format("SavedGameLocation")},
        "marker": {"type": "string"}, "face": {"type": "string"}, "reason": {"type": "string"},
    },
    "required": ["piece_id", "name", "location"],
}

FILE_INFO = {
    "type": "object",
    "properties": {
        "name": {"type": "string"}, "sha256": {"type": "string"}, "bytes": {"type": "integer"},
        "is_log": {"type": "boolean"}, "module": {"type": "string"},
        "module_version": {"type": "string"},
    },
    "required": ["sha256", "bytes", "is_log"],
}

BY_HEX = {
    "type": "object",
    "description": "map id -> hex label -> unit ids standing there",
    "additionalProperties": {"type": "object",
                             "additionalProperties": {"type": "array", "items": {"type": "string"}}},
}

POSITIONS = {
    "type": "object",
    "properties": {
        "file": {"$ref": REF.format("SavedGameFile")},
        "system": {"type": "string"},
        "module": {"type": "object"},
        "is_log": {"type": "boolean"},
        "art_scale": {"type": "integer", "description": "1, or 2 for a double-size-art module"},
        "scenario_candidates": {"type": "array", "items": {"type": "string"}},
        "counts": {"type": "object"},
        "by_hex": {"$ref": REF.format("SavedGameByHex")},
        "units": {"type": "array", "items": {"$ref": REF.format("SavedGameUnit")}},
        "markers": {"type": "array", "items": {"$ref": REF.format("SavedGamePiece")}},
        "unidentified": {"type": "array", "items": {"$ref": REF.format("SavedGamePiece")}},
        "warnings": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["file", "system", "by_hex", "units", "markers", "unidentified", "warnings"],
}

UNIT_SUPPLY = {
    "type": "object",
    "properties": {
        "unit": {"type": "string"}, "hex": {"type": "string"}, "in_supply": {"type": "boolean"},
        "path": {"type": "array", "items": {"type": "string"}},
        "source": {"type": "string"}, "reason": {"type": "string"},
        "cost": {"type": ["number", "null"]},
    },
    "required": ["unit", "hex", "in_supply", "path", "source", "reason"],
}

SIDE_REPORT = {
    "type": "object",
    "properties": {
        "side": {"type": "string"},
        "units": {"type": "array", "items": {"$ref": REF.format("UnitSupply")}},
        "in_supply": {"type": "integer"}, "out_of_supply": {"type": "integer"},
        "steps": {"type": "array", "items": {"type": "object"}},
        "warnings": {"type": "array", "items": {"type": "string"}},
        "not_on_map": {"type": "array", "items": {"type": "string"},
                       "description": "units of the side in boxes or on turn tracks (not traced)"},
    },
    "required": ["side", "units", "in_supply", "out_of_supply", "not_on_map"],
}

SUPPLY = {
    "type": "object",
    "properties": {
        "file": {"$ref": REF.format("SavedGameFile")},
        "system": {"type": "string"}, "scenario": {"type": "string"},
        "scenario_guessed": {"type": "boolean"},
        "game_turn": {"type": ["integer", "null"],
                      "description": "The game turn supply was traced at (null: not known; see warnings)"},
        "game_turn_from": {"type": "string",
                           "description": "Where the turn came from: the request, the module's turn tracker, "
                                          "or its starting position (a predefined setup)"},
        "sides": {"type": "array", "items": {"$ref": REF.format("SideSupplyReport")}},
        "unidentified": {"type": "array", "items": {"$ref": REF.format("SavedGamePiece")}},
        "by_hex": {"$ref": REF.format("SavedGameByHex")},
        "warnings": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["system", "scenario", "game_turn", "game_turn_from", "sides", "unidentified", "warnings"],
}

BOARD_FILL = {
    "type": "object",
    "description": "The request built from the file: the player's fields with every field the "
    "board fills (filled: JSON pointer -> board role) written in.",
    "properties": {
        "file": {"$ref": REF.format("SavedGameFile")},
        "request": {"type": "object"},
        "filled": {"type": "object", "additionalProperties": {"type": "string"}},
        "scenario": {"type": "string"},
        "game_turn": {"type": ["integer", "null"]},
        "game_turn_from": {"type": "string"},
        "warnings": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["file", "request", "filled", "scenario", "game_turn"],
}

SAVEDGAME_CHECK = {
    "type": "object",
    "description": "The check's result (as the check's own operation answers) plus `savedgame`.",
    "properties": {"system": {"type": "string"}, "check": {"type": "string"},
                   "outcome": {"type": "object"}, "steps": {"type": "array"},
                   "dice_used": {"type": "array"}, "warnings": {"type": "array"},
                   "savedgame": {"$ref": REF.format("SavedGameBoardFill")}},
    "required": ["system", "check", "outcome", "steps", "dice_used", "savedgame"],
}

LOG_CHECK = {
    "type": "object",
    "description": "Every adjudication in the log against the game's ledger.",
    "properties": {
        "game_id": {"type": "string"},
        "ok": {"type": "boolean", "description": "every ruling verified (or unrecorded), none hidden, "
               "the ledger itself verified"},
        "rulings": {"type": "array", "items": {"type": "object", "properties": {
            "status": {"enum": ["verified", "forged", "altered", "other-game", "unrecorded"]},
            "game_id": {"type": ["string", "null"]}, "seq": {"type": ["integer", "null"]},
            "first_line": {"type": "string", "maxLength": 200}, "why": {"type": "string", "maxLength": 200}},
            "required": ["status", "seq", "first_line", "why"]},
            "description": "the rulings found, in order: at most 1,000, only 20 of them with no ledger record "
                           "(forged, another game's, computed); texts the log supplies cut to 200 characters"},
        "not_listed": {"type": "integer", "description": "rulings found and counted in `counts` but not listed"},
        "hidden": {"type": "array", "description": "ledger rulings the log does not show",
                   "items": {"type": "object"}},
        "breaks": {"type": "array", "items": {"type": "string"},
                   "description": "where the files sent are not one game's chain in order: a file that continues "
                                  "another session or begins a chain, files in reverse order, a session twice, a loop"},
        "ledger": {"type": "object"},
        "counts": {"type": "object", "description": "every ruling found, by status"},
    },
    "required": ["game_id", "ok", "rulings", "hidden", "ledger"],
}

SCHEMAS = {
    "SavedGameLogCheck": LOG_CHECK,
    "SavedGameBoardFill": BOARD_FILL,
    "SavedGameCheck": SAVEDGAME_CHECK,
    "SavedGameLocation": LOCATION,
    "SavedGameUnit": PLACED_UNIT,
    "SavedGamePiece": OTHER_PIECE,
    "SavedGameFile": FILE_INFO,
    "SavedGameByHex": BY_HEX,
    "SavedGamePositions": POSITIONS,
    "UnitSupply": UNIT_SUPPLY,
    "SideSupplyReport": SIDE_REPORT,
    "SavedGameSupply": SUPPLY,
}

UPLOAD_BODY = {
    "required": True,
    "description": "The .vsav or .vlog: multipart field 'file', or the raw body.",
    "content": {
        "multipart/form-data": {
            "schema": {"type": "object", "properties": {
                "file": {"type": "string", "contentMediaType": "application/zip"},
                "side": {"type": "string"}, "scenario": {"type": "string"},
                "game_turn": {"type": "string"}, "request_id": {"type": "string"}}, "required": ["file"]},
        },
        "application/octet-stream": {"schema": {"type": "string", "contentMediaType": "application/zip"}},
    },
}


#: A check from a saved game: the file, the player's fields and what the player points at.
CHECK_BODY = {
    "required": True,
    "description": "The .vsav or .vlog (field 'file') with the check's fields the board cannot know.",
    "content": {"multipart/form-data": {"schema": {"type": "object", "properties": {
        "file": {"type": "string", "contentMediaType": "application/zip"},
        "request": {"type": "string", "contentMediaType": "application/json",
                    "description": "A JSON object: the check's fields the board cannot know (dice in "
                    "compute mode, weather, an attacker's supply state...). Fields the board fills "
                    "(GET /api/v1/systems: `board`) are written over from the file."},
        "attackers": {"type": "string", "description": "The attacking (selected) units' ids, comma-separated"},
        "target_hex": {"type": "string", "description": "The hex attacked or struck, as printed: its units "
                       "are the defenders"},
        "target_map": {"type": "string", "description": "The target hex's map (games with several maps)"},
        "unit": {"type": "string", "description": "The unit the check is about (moving, breaking down...)"},
        "side": {"type": "string"}, "scenario": {"type": "string"},
        "game_turn": {"type": "string"}, "request_id": {"type": "string"}}, "required": ["file"]}}},
}

#: Board roles that need positions: checks with one of them are offered from a saved game.
POSITION_ROLES = frozenset({"positions", "attackers", "defenders", "target_hex", "unit", "hex"})


def savedgame_checks(checks) -> list:
    """The checks a saved game can fill: those with a board field that needs positions."""
    return [spec for spec in checks if any(role in POSITION_ROLES for _, role in spec.board)]


def _query(name: str, description: str) -> dict:
    return {"name": name, "in": "query", "required": False, "schema": {"type": "string"},
            "description": description}


def _path(name: str) -> dict:
    return {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}


SIDE_PARAM = _query("side", "Side id or name; leave out for both sides.")
SCENARIO_PARAM = _query("scenario", "Scenario id; may be left out when the file shows it "
                        "(maps used, reinforcements waiting on a scenario's turn track).")
GAME_TURN_PARAM = _query("game_turn", "The game turn to trace supply at; leave out to use the turn the "
                         "module's turn tracker shows in the file (a predefined setup: the first turn).")
REQUEST_ID_PARAM = _query("request_id", "Client-chosen id; repeating it returns the recorded "
                          "result instead of recording again.")


def _json(schema_name: str, description: str) -> dict:
    return {"description": description,
            "content": {"application/json": {"schema": {"$ref": REF.format(schema_name)}}}}


def _operation(summary: str, description: str, responses: dict, params: list, tags: list,
               secured: bool = False) -> dict:
    op: dict[str, Any] = {"summary": summary, "description": description, "tags": tags,
                          "parameters": params, "requestBody": UPLOAD_BODY,
                          "responses": {**responses,
                                        "default": {"$ref": "#/components/responses/Problem"}}}
    if secured:
        op["security"] = [{"bearer": []}]
    return op


def _check_paths(document: dict) -> None:
    from adjudicator.checks import SYSTEM_IDS, all_checks

    paths = document["paths"]
    usable = savedgame_checks(all_checks())
    for system in SYSTEM_IDS:
        names = [spec.name for spec in usable if spec.system == system]
        op = _operation(
            f"Any check from a saved game's positions [{system}] (compute mode)",
            "The check's board fields (positions, attackers, defenders, target hex, the context unit, "
            "scenario, turn) are filled from the file and what the player points at; the rest come "
            "in `request`. The answer shows the request built (`savedgame.request`).",
            {"200": _json("SavedGameCheck", "The result; nothing is stored")},
            [{**_path("check"), "schema": {"enum": names}}], ["saved games", f"compute: {system}"])
        op["requestBody"] = CHECK_BODY
        paths[f"/api/v1/systems/{system}/savedgame/checks/{{check}}"] = {"post": op}
    op = _operation(
        "Any check from a saved game's positions, rolled into the game's ledger (side token)",
        "As the compute-mode operation, in the game's scenario and for the token's side; the dice are "
        "the server's and the built request is what the ledger records.",
        {"201": _json("SavedGameCheck", "Recorded"),
         "200": _json("SavedGameCheck", "request_id seen before: the recorded result")},
        [_path("game_id"), {**_path("check"), "schema": {"enum": sorted({s.name for s in usable})}}],
        ["saved games", "games"], secured=True)
    op["requestBody"] = CHECK_BODY
    paths["/api/v1/games/{game_id}/savedgame/checks/{check}"] = {"post": op}
    paths["/api/v1/games/{game_id}/savedgame/log-check"] = {"post": _operation(
        "Verify a log received from the opponent against the game's ledger (any token of the game)",
        "Each adjudication line of the .vlog (written by the VASSAL extension or the saved-game page) "
        "is checked against the ledger record of its number: same record hash, same result. Ledger "
        "rulings the log does not show are listed as hidden; lines matching no record as forged.",
        {"200": _json("SavedGameLogCheck", "The verdict (ok false: something does not match)")},
        [_path("game_id")], ["saved games", "verification"], secured=True)}


def add_bridge_paths(document: dict) -> None:
    """Add the saved-game paths and their schemas to an OpenAPI document, in place."""
    document.setdefault("components", {}).setdefault("schemas", {}).update(SCHEMAS)
    paths = document.setdefault("paths", {})
    limits = ("Uploads are limited in size, entries and unpacked size; damaged files, zip bombs "
              "and unsafe entry names get a 4xx problem.")
    paths["/api/v1/systems/{system}/savedgame/positions"] = {"post": _operation(
        "Read a VASSAL saved game or log: every unit by hex (compute mode)",
        "Units are identified by the properties of modules built by modgen, else by piece name; "
        "pieces that cannot be identified are listed with the reason. " + limits,
        {"200": _json("SavedGamePositions", "The positions")}, [_path("system")], ["saved games"])}
    paths["/api/v1/systems/{system}/savedgame/supply"] = {"post": _operation(
        "Supply / LoC report of a saved game, per side (compute mode)",
        "Every unit on the map, in or out of supply, with its path or the reason it has none, "
        "by the system's supply tracer (501 while a system has none). " + limits,
        {"200": _json("SavedGameSupply", "The reports; nothing is stored")},
        [_path("system"), SIDE_PARAM, SCENARIO_PARAM, GAME_TURN_PARAM], ["saved games"])}
    paths["/api/v1/games/{game_id}/savedgame/supply"] = {"post": _operation(
        "Supply / LoC report of a saved game, recorded in the game's ledger (side token)",
        "As the compute-mode report, in the game's scenario; the ledger records the positions "
        "read from the file and the file's SHA-256 (check '<system>.savedgame_supply', no dice). "
        + limits,
        {"201": _json("GameCheckResponse", "Recorded; outcome holds the supply answer"),
         "200": _json("GameCheckResponse", "request_id seen before: the recorded result")},
        [_path("game_id"), SIDE_PARAM, GAME_TURN_PARAM, REQUEST_ID_PARAM], ["saved games", "games"], secured=True)}
    _check_paths(document)
