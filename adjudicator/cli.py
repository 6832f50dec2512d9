"""The `adjudicator` command.

    adjudicator serve [--host 127.0.0.1] [--port 8000] [--workers N]
    adjudicator status [--server URL] [--json]   (the game data a running server serves; a refused reload)
    adjudicator verify ledger.json --key pub.pem [--key old.pem] [--receipts kept.json]
    adjudicator verify ledger.json --dice-stats [--key pub.pem]   (every roll; are the dice fair?)
    adjudicator public-key [--out pub.pem]      (the server's key; never creates one)
    adjudicator rotate-key
    adjudicator examples [--system kwb] [--out DIR]   (a situation file per check, for adjudicator-client)
    adjudicator odds-table                            (docs/odds.md's table of examples and their chances)

`verify` works offline: it needs only the exported ledger and the public key(s) (a PEM file or
the JSON served at /.well-known/adjudicator-keys.json). It checks the chain and every
signature and, if the seed has been revealed, recomputes every die. With `--dice-stats` it also
counts every server roll by check, side and die type and tests each die type's faces against a
fair die (`adjudicator.ledger.dicestats`); the keys are then optional (without them nothing is verified).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from adjudicator.checks import SYSTEM_IDS

GUNICORN_CONF = Path(__file__).with_name("gunicorn.conf.py")


def _serve(args: argparse.Namespace) -> int:
    from adjudicator.app import prepare
    from adjudicator.config import Config
    from adjudicator.ledger.storage import StorageUnavailable

    try:
        prepare(Config.load())  # fail fast on bad configuration, before gunicorn starts
    except StorageUnavailable as error:
        print(f"adjudicator serve: {error}. Check DATABASE_URL, that the database server runs and that "
              "its file and folder are writable by this user, and that the disk has room.", file=sys.stderr)
        return 2
    if not _game_data_ok():
        return 1
    command = [sys.executable, "-m", "gunicorn", "-c", str(GUNICORN_CONF),
               "--bind", f"{args.host}:{args.port}"]
    if args.workers:
        command += ["--workers", str(args.workers)]
    command.append("adjudicator.wsgi:app")
    os.execv(sys.executable, command)
    return 0  # not reached


def _game_data_ok() -> bool:
    """Check the games' data as the server's master will (adjudicator.served_data: every game read and
    checked, none the rules know missing), and say what the server will serve.

    Gunicorn's master reads it again, and on SIGHUP: a running server keeps the data it read until then.
    The message says so, and how to make it read edited data."""
    from adjudicator.served_data import read_all
    from scenarios.loader import DATA_ROOT

    games, problems, _ = read_all()
    if problems:
        print("\n".join(problems), file=sys.stderr)
        print(f"adjudicator serve: the game data in {DATA_ROOT} has {len(problems)} problem(s), listed above "
              "(`scenarios check` lists them too); fix them, then start the server", file=sys.stderr)
        return False
    served = ", ".join(f"{g} ({len(game.scenarios)} scenarios)" for g, game in games.items())
    print(f"adjudicator serve: game data {DATA_ROOT}: {served}. The server reads it when it starts; after "
          f"editing it, `scenarios check`, then `kill -HUP {os.getpid()}`: the server reads it again and new "
          "workers serve it (the running ones finish their requests). Data with a problem (a game missing is "
          "one) is refused and the data read before stays served; `adjudicator status` says which, and why.",
          file=sys.stderr)
    return True


def _status(args: argparse.Namespace) -> int:
    """What a running server serves: its data (where from, read when) and its last reload's problems."""
    import requests

    from adjudicator.client.http import server_url

    url = server_url(args.server) + "/api/v1/status"
    try:
        answer = requests.get(url, timeout=10, headers=_maintainer_header())
        answer.raise_for_status()
        document = answer.json()
    except (requests.RequestException, ValueError) as error:
        print(f"adjudicator status: no status from {url}: {error}", file=sys.stderr)
        return 2
    print(json.dumps(document, indent=2) if args.json else "\n".join(status_lines(document)))
    return 0 if document.get("ok") else 1


def _maintainer_header() -> dict[str, str]:
    """The maintainer's token when this machine holds the server's signing key (ADJUDICATOR_KEY_PATH):
    the status then names the data folder's full path; without it, its last part only."""
    from adjudicator import served_data
    from adjudicator.config import Config
    from adjudicator.ledger.keys import load_signing_key

    try:
        key = load_signing_key(Config.load().key_path)
    except (OSError, ValueError):
        return {}
    return {"Authorization": f"Bearer {served_data.maintainer_token(key)}"}


def status_lines(document: dict) -> list[str]:
    """The status (GET /api/v1/status) in words: the data served, then a refused reload's problems."""
    lines = [("ok: " if document.get("ok") else "RELOAD REFUSED: ") + str(document.get("summary", ""))]
    data = document.get("data") or {}
    if data:
        lines.append(f"read at {data.get('loaded_at')} by the {data.get('read_by')} from {data.get('folder')}:")
        lines += [f"  {g.get('id')}: {', '.join(g.get('scenarios') or [])}" for g in data.get("games") or []]
    last = document.get("last_reload")
    if last and not last.get("taken"):
        lines.append(f"the reload at {last.get('at')} found {len(last.get('problems') or [])} problem(s):")
        lines += [f"  {p}" for p in last.get("problems") or []]
        lines.append("fix them (`scenarios check` lists them too), then send the server's master SIGHUP again")
    elif last:
        lines.append(f"last reload: {last.get('at')}, taken")
    return lines


def _verify(args: argparse.Namespace) -> int:
    from adjudicator.ledger.dicestats import dice_record
    from adjudicator.ledger.dicestats import report_lines as dice_lines
    from adjudicator.ledger.keys import load_public_keys
    from adjudicator.ledger.verify import revealed_values, report_lines, verify_ledger

    if not args.key and not args.dice_stats:
        print("adjudicator verify: give the server's public key(s) with --key (or ask only for --dice-stats)",
              file=sys.stderr)
        return 2
    try:
        keys = {}
        for key_path in args.key or []:
            keys.update(load_public_keys(key_path))
        document = json.loads(Path(args.ledger).read_text(encoding="utf-8"))
        receipts = None
        if args.receipts:
            receipts = json.loads(Path(args.receipts).read_text(encoding="utf-8"))
            receipts = receipts if isinstance(receipts, list) else [receipts]
        records = document["records"] if isinstance(document, dict) and isinstance(document.get("records"), list) \
            else None
        if args.dice_stats and records is None:
            raise ValueError("a ledger is an object with a 'records' list")
    except (OSError, ValueError, KeyError, TypeError) as error:  # unreadable file, not JSON, not a key
        print(f"adjudicator verify: cannot read the input: {error}", file=sys.stderr)
        return 2
    out: dict = {}
    lines: list[str] = []
    ok = True
    if args.key:
        report = verify_ledger(document, keys, receipts)
        out["verification"] = report.to_json()
        lines += report_lines(report.to_json())
        ok = report.ok
    if args.dice_stats:
        seen = {**(revealed_values(records) if records else {}), **_own_revealed(document)}
        dice = dice_record([r for r in records if isinstance(r, dict)], seen)
        out["dice"] = dice.to_json()
        if lines:
            lines.append("")
        lines += dice_lines(dice)
        if not args.key:
            lines.append("")
            lines.append("(the ledger itself was not verified: give --key to check its chain and signatures)")
    if args.json:
        print(json.dumps(out if args.dice_stats else out["verification"], indent=2))
    else:
        print("\n".join(lines))
    return 0 if ok else 1


def _own_revealed(document: dict) -> dict:
    """The sealed values a ledger downloaded with a side's token reveals to that side."""
    revealed = document.get("revealed")
    if not isinstance(revealed, list):
        return {}
    return {p.get("commitment"): p.get("value") for p in revealed if isinstance(p, dict)}


def _public_key(args: argparse.Namespace) -> int:
    """Export the server's public key. Never creates a key: a new one would verify nothing."""
    from adjudicator.config import Config
    from adjudicator.ledger.keys import load_signing_key, public_pem

    path = Path(Config.load().key_path)
    if not path.is_file():
        print(f"adjudicator: no signing key at {path.resolve()}. The server's key is ADJUDICATOR_KEY_PATH "
              "(default var/signing-key.pem, relative to the folder the server was started in): run this "
              "there, or fetch the keys the server publishes: adjudicator-client keys --out keys.json "
              "(GET /.well-known/adjudicator-keys.json); `adjudicator verify --key keys.json` takes them.",
              file=sys.stderr)
        return 2
    pem = public_pem(load_signing_key(path).public_key)
    if args.out:
        Path(args.out).write_text(pem, encoding="ascii")
    else:
        sys.stdout.write(pem)
    return 0


def _rotate_key(args: argparse.Namespace) -> int:
    from adjudicator.app import prepare
    from adjudicator.config import Config
    from adjudicator.ledger.keys import rotate_signing_key
    from adjudicator.ledger.storage import StorageUnavailable

    config = Config.load()
    try:
        services = prepare(config)  # records the current public key before it is replaced
    except StorageUnavailable as error:
        print(f"adjudicator rotate-key: {error}; the key was not rotated", file=sys.stderr)
        return 2
    new_key = rotate_signing_key(config.key_path)
    services.store.register_public_key(new_key)
    print(f"new signing key {new_key.kid}; old key {services.signing_key.kid} stays published")
    print("restart the server to sign with the new key")
    return 0


def _examples(args: argparse.Namespace) -> int:
    from adjudicator.checks import checks_for
    from adjudicator.examples import example_files
    from adjudicator.rules import register_all_games

    register_all_games()
    if args.system and args.system not in SYSTEM_IDS:
        print(f"adjudicator examples: unknown system {args.system!r}; known: {', '.join(SYSTEM_IDS)}", file=sys.stderr)
        return 2
    checks = [spec for system in SYSTEM_IDS if system in (args.system or system) for spec in checks_for(system)]
    out = Path(args.out)
    for name, text in example_files(checks).items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_text(text, encoding="utf-8")
    print(f"wrote {len(checks)} situations to {out}/ (index: {out / 'README.md'})")
    return 0


def _odds_table(args: argparse.Namespace) -> int:
    from adjudicator.odds.book import book_table
    from adjudicator.rules import register_all_games

    register_all_games()
    sys.stdout.write(book_table())
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="adjudicator", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="serve the API and pages with gunicorn")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=0, help="default: CPU count")
    serve.set_defaults(func=_serve)

    verify = sub.add_parser("verify", help="verify an exported ledger offline")
    verify.add_argument("ledger", help="ledger JSON (GET /api/v1/games/<id>/ledger)")
    verify.add_argument("--key", action="append",
                        help="public key PEM, or the keys JSON; repeat for rotated keys")
    verify.add_argument("--dice-stats", action="store_true",
                        help="every server roll by check and side, and each die type tested against a fair die")
    verify.add_argument("--receipts", help="JSON receipt or list of receipts you kept")
    verify.add_argument("--json", action="store_true", help="print the report as JSON")
    verify.set_defaults(func=_verify)

    public_key = sub.add_parser("public-key", help="print the server's active public key (PEM); run it where "
                                "the server runs (or use: adjudicator-client keys)")
    public_key.add_argument("--out")
    public_key.set_defaults(func=_public_key)

    status = sub.add_parser("status", help="what a running server serves: its game data (from where, read when) "
                            "and its last reload (SIGHUP), with every problem that made it refuse one")
    status.add_argument("--server", default=None, help="the server's URL (default $ADJUDICATOR_URL or "
                        "http://127.0.0.1:8000)")
    status.add_argument("--json", action="store_true", help="print the server's JSON")
    status.set_defaults(func=_status)

    rotate = sub.add_parser("rotate-key", help="start signing with a new key")
    rotate.set_defaults(func=_rotate_key)

    examples = sub.add_parser("examples", help="write a situation file per check (for adjudicator-client)")
    examples.add_argument("--system", help="only this game system's checks")
    examples.add_argument("--out", default="examples", help="folder to write (default: ./examples)")
    examples.set_defaults(func=_examples)
    odds_table = sub.add_parser("odds-table", help="print docs/odds.md's table: every check's example and the "
                                "books' worked examples with their chances")
    odds_table.set_defaults(func=_odds_table)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
