"""Hostile and pathological uploads, made on the spot (issue 29): the tests, `make fuzz` and the
soak send them to a real server and check the answer and what it cost.

Every file is real: zips from `zipfile` and the real compressors, command streams from
`vassalfmt`'s own writer and command classes, so the server reads what an attacker could send.
"""

from __future__ import annotations

import io
import zipfile

from vassalfmt import ModuleData, SaveData, build_zip, obfuscate
from vassalfmt.commands import AddPiece, MovePiece, join_commands, log_entry
from vassalfmt.piece import Piece
from vassalfmt.traits import BasicPiece

MAP = "Main Map"


def compression_bomb(method: int, unpacked_bytes: int) -> bytes:
    """A saved game whose 'savedGame' entry is `unpacked_bytes` of zeros compressed with `method`
    (zipfile.ZIP_BZIP2, ZIP_LZMA, ZIP_DEFLATED), declared sizes as the compressor wrote them."""
    buffer = io.BytesIO()
    block = b"\0" * (1 << 20)
    with zipfile.ZipFile(buffer, "w", method) as archive:
        with archive.open("savedGame", "w", force_zip64=True) as entry:
            for _ in range(unpacked_bytes >> 20):
                entry.write(block)
    return buffer.getvalue()


def saved_game(commands: list[str]) -> bytes:
    return build_zip({"savedGame": obfuscate(join_commands(commands)), "savedata": SaveData().to_xml(),
                      "moduledata": ModuleData(name="hostile").to_xml()})


def _piece(n: int, x: int, y: int) -> str:
    return Piece([BasicPiece(image="x.png", name=f"u{n}", map_id=MAP, x=x, y=y)]).add_piece_command(f"p{n}")


def many_pieces(count: int) -> bytes:
    """A save with `count` pieces, each alone on its spot (the 70k-piece save of the issue)."""
    return saved_game(["begin_save", *(_piece(n, (n % 300) * 10, (n // 300) * 10) for n in range(count)),
                       "end_save"])


def stacks_and_moves(stacks: int, moves: int) -> bytes:
    """A log: `stacks` one-piece stacks, then `moves` logged moves onto empty spots. Reading it
    scanned every stack per move (stacks x moves) before stacks were found by position."""
    commands = ["begin_save"]
    for n in range(stacks):
        commands.append(_piece(n, n * 10, 0))
        commands.append(AddPiece(f"s{n}", "stack", f"{MAP};{n * 10};0;p{n}").encode())
    commands.append("end_save")
    for m in range(moves):
        n = m % stacks
        move = MovePiece(f"p{n}", MAP, n * 10 + 5, 1 + m // stacks, None, None, 0, 0, None, "p")
        commands.append(log_entry(move.encode()))
    return saved_game(commands)


def deep_json(depth: int) -> bytes:
    return b'{"scenario": "pusan", "x": ' + b"[" * depth + b"]" * depth + b"}"
