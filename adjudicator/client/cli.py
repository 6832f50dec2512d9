"""The ``adjudicator-client`` command (see :mod:`adjudicator.client`).

    adjudicator-client positions GAME.vsav --system kwb
    adjudicator-client supply GAME.vsav --system kwb [--side un] [--scenario pusan] [--game-turn 3]
    adjudicator-client supply GAME.vsav --game ID --token T [--side un] [--game-turn 3] [--request-id R]
    adjudicator-client check kwb un_supply_shortage_end situation.json [--dice 4 --dice 2]
    adjudicator-client new-game kwb pusan
    adjudicator-client roll ID un_supply_shortage_end situation.json --token T [--request-id R]
    adjudicator-client ledger ID --token T [--out ledger.json]
    adjudicator-client close ID --token T                 (reveals the seed: every die can be checked)
    adjudicator-client keys [--out keys.json]             (the keys the server publishes)
    adjudicator-client verify ledger.json|receipt.json [--key keys.json]
    adjudicator-client verify-log GAME.vlog [MORE.vlog ...] --game ID --token T
                                               (a log's rulings, or a chain's in order, against the ledger)

The server is ``--server`` or ``$ADJUDICATOR_URL`` (default http://127.0.0.1:8000); the token
``--token`` or ``$ADJUDICATOR_TOKEN``. ``--json`` prints the server's JSON unchanged. Exit
status: 0 done, 1 the server refused (its problem title and detail are printed on stderr) or
a verification failed, 2 the request could not be made (no server, unreadable file, usage).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from adjudicator.client import output
from adjudicator.client.http import SERVER_ENV, Api, ClientError, read_bytes, server_url

TOKEN_ENV = "ADJUDICATOR_TOKEN"


def _read_json(path: str) -> Any:
    try:
        return json.loads(read_bytes(Path(path)).decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ClientError(f"{path} is not a JSON file: {error}", 2) from None


def _situation(path: str) -> dict:
    situation = _read_json(path)
    if not isinstance(situation, dict):
        raise ClientError(f"{path} must hold one JSON object (the check's situation)", 2)
    return situation


def _dice(values: list[str] | None) -> list[int]:
    dice: list[int] = []
    for value in values or []:
        for part in value.replace(",", " ").split():
            try:
                dice.append(int(part))
            except ValueError:
                raise ClientError(f"--dice takes whole numbers, not {part!r}", 2) from None
    return dice


# --- commands: each returns (JSON to print with --json, lines for people, exit status) ------

def cmd_positions(api: Api, args) -> tuple[dict, list[str], int]:
    body = api.post_file(f"/api/v1/systems/{args.system}/savedgame/positions", Path(args.file), {})
    return body, output.positions_lines(body), 0


def cmd_supply(api: Api, args) -> tuple[dict, list[str], int]:
    params = {"side": args.side, "scenario": args.scenario, "game_turn": args.game_turn}
    if args.game:
        params["request_id"] = args.request_id
        body, response = api.post_file(f"/api/v1/games/{args.game}/savedgame/supply", Path(args.file), params,
                                       token=True, with_response=True)
        lines = output.supply_lines(body["outcome"]) + output.receipt_lines(body, replayed(response))
        return body, lines, 0
    if not args.system:
        raise ClientError("supply needs --system (compute mode) or --game with --token", 2)
    body = api.post_file(f"/api/v1/systems/{args.system}/savedgame/supply", Path(args.file), params)
    return body, output.supply_lines(body), 0


def cmd_check(api: Api, args) -> tuple[dict, list[str], int]:
    situation = _situation(args.situation)
    if args.dice is not None:
        situation["dice"] = _dice(args.dice)
    body = api.post_json(f"/api/v1/systems/{args.system}/{args.check}", situation)
    return body, output.check_lines(body), 0


def cmd_new_game(api: Api, args) -> tuple[dict, list[str], int]:
    body = api.post_json("/api/v1/games", {"system": args.system, "scenario": args.scenario})
    return body, output.game_lines(body, api.base), 0


def cmd_roll(api: Api, args) -> tuple[dict, list[str], int]:
    situation = _situation(args.situation)
    if args.request_id:
        situation["request_id"] = args.request_id
    body, response = api.request("POST", f"/api/v1/games/{args.game_id}/{args.check}", json=situation,
                                 token=True)
    return body, output.check_lines(body) + output.receipt_lines(body, replayed(response)), 0


def replayed(response) -> bool:
    """Whether the server answered with a request_id's recorded result (no new roll)."""
    return response.headers.get("Idempotent-Replayed", "").lower() == "true"


def cmd_close(api: Api, args) -> tuple[dict, list[str], int]:
    body = api.post_json(f"/api/v1/games/{args.game_id}/close", None, token=True)
    return body, output.close_lines(body), 0


def cmd_keys(api: Api, args) -> tuple[dict, list[str], int]:
    body = api.get("/.well-known/adjudicator-keys.json")
    lines = output.keys_lines(body)
    if args.out:
        Path(args.out).write_text(json.dumps(body, indent=2), encoding="utf-8")
        lines.append(f"saved to {args.out} (adjudicator verify ledger.json --key {args.out})")
    return body, lines, 0


def cmd_ledger(api: Api, args) -> tuple[dict, list[str], int]:
    body = api.get(f"/api/v1/games/{args.game_id}/ledger", token=True)
    lines = output.ledger_lines(body)
    if args.out:
        Path(args.out).write_text(json.dumps(body, indent=2), encoding="utf-8")
        lines.append(f"saved to {args.out}")
    return body, lines, 0


def verification_subject(document: Any) -> dict:
    """A ledger, a receipt, or a game-mode answer carrying one -> the /verify request body."""
    if isinstance(document, dict) and isinstance(document.get("records"), list):
        return {"ledger": document}
    if isinstance(document, dict) and "signature" in document:
        return {"receipt": document}
    if isinstance(document, dict) and isinstance(document.get("receipt"), dict):
        return {"answer": document}  # its content is compared with the signed record too
    raise ClientError("the file is neither a ledger (with 'records') nor a receipt "
                      "(with 'signature') nor a recorded result (with 'receipt')", 2)


def cmd_verify(api: Api, args) -> tuple[dict, list[str], int]:
    subject = verification_subject(_read_json(args.file))
    if args.key:
        report = _verify_offline(subject, args.key)
    else:
        report = api.post_json("/api/v1/verify", subject)
    return report, output.verify_lines(report), 0 if report.get("ok") else 1


def _verify_offline(subject: dict, key_paths: list[str]) -> dict:
    from adjudicator.ledger.keys import load_public_keys
    from adjudicator.ledger.verify import verify_answer, verify_ledger, verify_receipt

    keys = {}
    for path in key_paths:
        try:
            keys.update(load_public_keys(path))
        except (OSError, ValueError) as error:
            raise ClientError(f"cannot load the public key {path}: {error}", 2) from None
    if "ledger" in subject:
        return verify_ledger(subject["ledger"], keys).to_json()
    if "answer" in subject:
        return verify_answer(subject["answer"], keys).to_json()
    return verify_receipt(subject["receipt"], keys).to_json()


def cmd_verify_log(api: Api, args) -> tuple[dict, list[str], int]:
    """One log, or every log of the game in order (the chain: a missing file and a re-roll named)."""
    paths = [Path(f) for f in args.files]
    if len(paths) == 1:
        body = api.post_file(f"/api/v1/games/{args.game}/savedgame/log-check", paths[0], {}, token=True)
    else:
        body = api.post_files(f"/api/v1/games/{args.game}/savedgame/log-check", paths, token=True)
    return body, output.log_check_lines(body), 0 if body["ok"] else 1


# --- parser -------------------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    # The options are accepted before and after the command; SUPPRESS keeps a subcommand from
    # resetting a value given before it.
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--server", default=argparse.SUPPRESS,
                        help=f"adjudicator URL (default ${SERVER_ENV} or http://127.0.0.1:8000)")
    common.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                        help="print the server's JSON (for scripts)")
    token = argparse.ArgumentParser(add_help=False)
    token.add_argument("--token", default=os.environ.get(TOKEN_ENV),
                       help=f"game token (default ${TOKEN_ENV})")

    parser = argparse.ArgumentParser(prog="adjudicator-client",
                                     description="Call the Korean War wargames adjudicator's API.")
    parser.add_argument("--server", default=None, help="adjudicator URL (also after the command)")
    parser.add_argument("--json", action="store_true", help="print the server's JSON (for scripts)")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("positions", parents=[common], help="units by hex in a saved game or log")
    p.add_argument("file", help=".vsav or .vlog")
    p.add_argument("--system", required=True, help="game system id (kwb, spi, holdfast, fireandice)")
    p.set_defaults(func=cmd_positions)

    p = sub.add_parser("supply", parents=[common, token], help="supply report of a saved game or log")
    p.add_argument("file", help=".vsav or .vlog")
    p.add_argument("--system", help="game system id (compute mode)")
    p.add_argument("--side", help="side id or name (default: both)")
    p.add_argument("--scenario", help="scenario id (default: worked out from the file)")
    p.add_argument("--game-turn", help="the game turn (default: the turn the file's turn tracker shows)")
    p.add_argument("--game", help="record in this game's ledger (needs --token)")
    p.add_argument("--request-id", help="with --game: repeat-safe id of this request")
    p.set_defaults(func=cmd_supply)

    p = sub.add_parser("check", parents=[common], help="run a check (compute mode)")
    p.add_argument("system")
    p.add_argument("check")
    p.add_argument("situation", help="JSON file with the check's situation")
    p.add_argument("--dice", action="append", help="dice rolled elsewhere, in order (e.g. --dice 4,2)")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("new-game", parents=[common], help="create a recorded game; prints its tokens")
    p.add_argument("system")
    p.add_argument("scenario")
    p.set_defaults(func=cmd_new_game)

    p = sub.add_parser("roll", parents=[common, token], help="roll a check in a game (recorded)")
    p.add_argument("game_id")
    p.add_argument("check")
    p.add_argument("situation", help="JSON file with the check's situation")
    p.add_argument("--request-id", help="repeat-safe id: sending it again returns the same roll")
    p.set_defaults(func=cmd_roll)

    p = sub.add_parser("ledger", parents=[common, token], help="a game's ledger")
    p.add_argument("game_id")
    p.add_argument("--out", help="also save the ledger JSON to this file")
    p.set_defaults(func=cmd_ledger)

    p = sub.add_parser("close", parents=[common, token], help="close a game: reveals its seed")
    p.add_argument("game_id")
    p.set_defaults(func=cmd_close)

    p = sub.add_parser("keys", parents=[common], help="the server's published public keys")
    p.add_argument("--out", help="also save them to this file (for verify --key)")
    p.set_defaults(func=cmd_keys)

    p = sub.add_parser("verify", parents=[common], help="verify a ledger or receipt file")
    p.add_argument("file", help="ledger JSON, receipt JSON, or a saved roll answer")
    p.add_argument("--key", action="append", help="public key PEM or keys JSON (adjudicator-client keys): "
                   "verify offline")
    p.set_defaults(func=cmd_verify)

    p = sub.add_parser("verify-log", parents=[common, token],
                       help="check every ruling in a .vlog (or every log of the game, in order) against the "
                            "game's ledger (hidden, re-rolled, forged, altered, not applied, a file missing)")
    p.add_argument("files", nargs="+", metavar="file", help=".vlog received from the opponent (or every log, in order)")
    p.add_argument("--game", required=True, help="the recorded game's id")
    p.set_defaults(func=cmd_verify_log)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    api = Api(server_url(args.server), getattr(args, "token", None))
    try:
        body, lines, status = args.func(api, args)
    except ClientError as error:
        if args.json and error.problem is not None:
            print(json.dumps(error.problem, indent=2))
        print(str(error), file=sys.stderr)
        return error.exit_code
    if args.json:
        print(json.dumps(body, indent=2))
    else:
        print("\n".join(lines))
    return status


if __name__ == "__main__":
    sys.exit(main())
