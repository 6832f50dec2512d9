"""Human-readable printing of the server's answers (``--json`` bypasses all of this).

Each function takes the JSON the server returned and gives lines of text; the CLI prints
them. Kept apart from the commands so the wording can change without touching the logic.
"""

from __future__ import annotations

from typing import Any

from adjudicator.checks import side_label
from adjudicator.words.transcript import notice_texts, readable
from adjudicator.ledger.verify import report_lines


def _step(step: Any) -> str:
    if step is None:
        return "step ?"
    return str(step)


def positions_lines(body: dict) -> list[str]:
    counts = body.get("counts", {})
    lines = [f"{body.get('system')}: {counts.get('units', 0)} units "
             f"({counts.get('on_map', 0)} on the map), {counts.get('markers', 0)} markers, "
             f"{counts.get('unidentified', 0)} unidentified"
             + ("; a log, read to its end" if body.get("is_log") else "")]
    if body.get("scenario_candidates"):
        lines.append("scenario: " + " or ".join(body["scenario_candidates"]))
    units = {u["unit"]: u for u in body.get("units", [])}
    for map_id, hexes in body.get("by_hex", {}).items():
        lines.append(f"map {map_id}:")
        for label, ids in hexes.items():
            lines.append(f"  {label}  " + ", ".join(
                f"{i} ({_step(units[i]['step']) if i in units else '?'})" for i in ids))
    off = [u for u in body.get("units", []) if u["location"]["kind"] != "hex"]
    if off:
        lines.append("not on a hex:")
        for u in off:
            loc = u["location"]
            where = loc["kind"] + (f" ({loc['scenario']})" if loc.get("scenario") else "")
            lines.append(f"  {u['unit']}: {where}")
    for piece in body.get("unidentified", []):
        lines.append(f"UNIDENTIFIED {piece.get('name') or piece.get('piece_id')}: {piece.get('reason', '')}")
    lines += [f"warning: {w}" for w in body.get("warnings", [])]
    return lines


def supply_lines(body: dict) -> list[str]:
    lines = [f"{body.get('system')} scenario {body.get('scenario')}"
             + (" (worked out from the file)" if body.get("scenario_guessed") else "")]
    if "game_turn" in body:
        turn = body["game_turn"]
        lines.append(f"game turn {turn} (from {body.get('game_turn_from')})" if turn is not None
                     else "game turn: not known (see the warnings)")
    for side in body.get("sides", []):
        lines.append(f"{side['side']}: {side.get('in_supply', 0)} in supply, "
                     f"{side.get('out_of_supply', 0)} out of supply")
        for unit in side.get("units", []):
            if unit["in_supply"]:
                via = " -> ".join(unit.get("path") or [])
                source = f" to {unit['source']}" if unit.get("source") else ""
                lines.append(f"  ok   {unit['unit']} at {unit['hex']}" + (f" via {via}" if via else "") + source)
            else:
                lines.append(f"  OUT  {unit['unit']} at {unit['hex']}: {unit.get('reason', '')}")
        for text in side.get("steps", []):
            rule = f" ({text['rule']})" if text.get("rule") else ""
            lines.append(f"  rule: {text['text']}{rule}")
        if side.get("not_on_map"):
            lines.append("  not on the map (not traced): " + ", ".join(side["not_on_map"]))
        lines += [f"  warning: {w}" for w in side.get("warnings", [])]
    for piece in body.get("unidentified", []):
        lines.append(f"UNIDENTIFIED {piece.get('name') or piece.get('piece_id')}: {piece.get('reason', '')}")
    lines += [f"warning: {w}" for w in body.get("warnings", [])]
    return lines


def _text(value: Any) -> str:
    """An outcome value as text: a list of numbers or words comma-separated, anything nested as the
    chat lines word it (adjudicator.words.transcript.readable)."""
    if isinstance(value, list) and value and not any(isinstance(v, (list, dict)) for v in value):
        return ", ".join(readable(v) for v in value)
    return readable(value)


def check_lines(body: dict) -> list[str]:
    lines = [f"{body.get('system')}.{body.get('check')} (rule {body.get('rule')})"
             + (f", asked by the {side_label(body['side'])} player" if body.get("side") else "")]
    seen = body.get("as_you_see_it") or {}
    lines += [f"  NOTICE: {text}" for text in notice_texts(seen if "notices" in seen else body, body.get("system", ""))]
    for key, value in (body.get("outcome") or {}).items():
        lines.append(f"  {key}: {_text(value)}")
    for n, step in enumerate(body.get("steps", []), start=1):
        rule = f" ({step['rule']})" if step.get("rule") else ""
        lines.append(f"  {n}. {step['text']}{rule}")
    dice = body.get("dice_used", [])
    lines.append("  dice: " + (", ".join(f"d{d['sides']}={d['value']} ({d['purpose']})" for d in dice)
                               if dice else "none"))
    lines += [f"  warning: {w}" for w in body.get("warnings", [])]
    return lines


def receipt_lines(body: dict, replayed: bool) -> list[str]:
    """Where a recorded answer stands in the ledger, and whether it is a replay (no new roll)."""
    receipt = body.get("receipt") or {}
    lines = [f"recorded: game {body['game_id']} record {body['seq']} hash {body['hash']}",
             f"receipt: signed by key {receipt.get('kid', '?')} (keep it: adjudicator-client verify "
             "takes the saved --json answer)"]
    if replayed:
        lines.append(f"replayed: request_id {body.get('request_id')!r} was seen before; this is the recorded "
                     "result, not a new roll")
    return lines


def close_lines(body: dict) -> list[str]:
    record = body.get("record", {})
    return [f"game {body['game_id']} closed: record {record.get('seq')} hash {record.get('hash')}",
            f"seed revealed: {body['seed']}",
            f"every die can now be recomputed: adjudicator-client ledger {body['game_id']} --out ledger.json, "
            "then adjudicator-client verify ledger.json (offline: adjudicator-client keys --out keys.json, "
            "then verify ledger.json --key keys.json)"]


def keys_lines(body: dict) -> list[str]:
    lines = []
    for key in body.get("keys", []):
        state = f"retired {key['retired']}" if key.get("retired") else "active"
        lines.append(f"key {key['kid']} ({key.get('alg', 'Ed25519')}, {state}, created {key.get('created')})")
    return lines or ["the server publishes no key"]


def game_lines(body: dict, server: str) -> list[str]:
    game = body["game_id"]
    lines = [f"game {game} ({body['system']}, scenario {body['scenario']})",
             f"seed commitment: {body['seed_commitment']}",
             "tokens (shown only now; keep them, and send each player theirs):"]
    lines += [f"  {role}: {token}" for role, token in body.get("tokens", {}).items()]
    lines += [f"game page: {server}/games/{game}",
              f"roll: adjudicator-client roll {game} CHECK situation.json --token SIDE_TOKEN --request-id ID "
              "(situation files: adjudicator examples, or docs/examples/)"]
    return lines


def ledger_lines(body: dict) -> list[str]:
    game = body.get("game", {})
    lines = [f"game {game.get('id')} ({game.get('system')}, {game.get('scenario')}), "
             f"{game.get('status')}, {len(body.get('records', []))} records"]
    for record in body.get("records", []):
        b = record.get("body", {})
        dice = " ".join(f"d{d['sides']}={d['value']}" for d in (b.get("result") or {}).get("dice_used", []) or [])
        lines.append(f"  {record['seq']:>4}  {b.get('time', '')}  {b.get('side') or '':<10} "
                     f"{b.get('check')}" + (f"  [{dice}]" if dice else ""))
        lines += [f"        notice: {text}" for text in notice_texts(b.get("result") or {}, game.get("system", ""))]
    return lines


def verify_lines(report: dict) -> list[str]:
    return report_lines(report)


def log_check_lines(body: dict) -> list[str]:
    """A log's (or a chain's) rulings against the ledger: one line each, then what the files hide."""
    notices = len(body.get("notices") or [])
    lines = [("NOT OK: the log does not match the ledger." if not body["ok"] else
              f"OK, BUT {notices} NOTICE{'S' if notices > 1 else ''}: the rulings' lines match the ledger and none "
              "that belongs in the files is hidden, but the ledger saw something wrong in what was asked (below)"
              if notices else "OK: every ruling matches the ledger; none that belongs in the files is hidden.")]
    lines += [f"  {b}" for b in body.get("breaks", [])]
    for f in body.get("files", [{"name": "", "rulings": body["rulings"], "session": None}]):
        if f.get("session"):
            lines.append(f"  {f.get('name') or 'the log'}: log session {f['session']}")
        for ruling in f["rulings"]:
            seq = "-" if ruling["seq"] is None else ruling["seq"]
            why = f" ({ruling['why']})" if ruling["why"] else ""
            lines.append(f"  record {seq}: {ruling['status']}{why}")
            lines += [f"    notice: {text}" for text in ruling.get("notices") or []]
        if f.get("not_listed"):
            counted = ", ".join(f"{n} {status}" for status, n in f.get("counts", {}).items() if n)
            lines.append(f"  ... and {f['not_listed']} more, counted not listed (in all: {counted})")
    lines += [f"  record {h['seq']}: hidden: {h['check']} for {h['side']}: {h.get('why', 'not in the log')}"
              for h in body["hidden"]]
    lines += [f"  record {h['seq']}: {h['why']}" for h in body.get("rerolls", [])]
    lines += [f"  record {h['seq']}: {h['why']}" for h in body.get("missing_files", [])]
    lines += [f"  record {o['seq']}: {o['status']}: {o['why']}" for o in body.get("owed", [])]
    if not body["ledger"]["ok"]:
        lines += [f"  ledger: {p}" for p in body["ledger"]["problems"]]
    return lines