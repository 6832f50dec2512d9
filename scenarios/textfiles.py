"""Reading a data file's text: UTF-8, or an error that says which line is not and what to do.

Maintainers edit the data in spreadsheets and editors that save in their own encodings (Excel's
"CSV" is Windows-1252, its "Unicode Text" UTF-16).  Python's own error names neither the file nor
the line, and ends every command in a traceback; ``read_text`` names both, shows the character as
the likely encoding would, and says how to save the file as UTF-8.  A byte-order mark (Excel's
"CSV UTF-8" writes one) is dropped, so such a file reads as its columns say.
"""

from __future__ import annotations

from pathlib import Path

SAVE_AS_UTF8 = ("save it as UTF-8 (Excel: Save As 'CSV UTF-8'; LibreOffice: Character set 'Unicode (UTF-8)'; "
                "an editor: Save with Encoding 'UTF-8')")


class Unreadable(ValueError):
    """A data file that cannot be read as text: ``line`` is where (1 when it is the whole file)."""

    def __init__(self, path: Path, line: int, message: str):
        self.path, self.line, self.message = Path(path), line, message
        super().__init__(f"{path}:{line}: {message}")


def read_text(path: Path) -> str:
    """The file's text, decoded as UTF-8; ``Unreadable`` when it is not UTF-8 or cannot be read."""
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        raise Unreadable(path, 1, f"cannot be read ({err.strerror or err})") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise Unreadable(path, *_where_not_utf8(data, err.start)) from None


def _where_not_utf8(data: bytes, start: int) -> tuple[int, str]:
    """The line of the first byte that is not UTF-8, and a message naming it and the likely encoding."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return 1, f"not UTF-8 text: the file is UTF-16 (Excel's 'Unicode Text'); {SAVE_AS_UTF8}"
    line = data.count(b"\n", 0, start) + 1
    column = start - (data.rfind(b"\n", 0, start) + 1) + 1
    byte = data[start]
    shown = bytes([byte]).decode("cp1252", errors="replace")
    guess = f" ({shown!r} in Windows-1252 or Latin-1, as Excel and older editors save)" if shown != "\ufffd" else ""
    return line, f"not UTF-8 text: byte 0x{byte:02X} at column {column}{guess}; {SAVE_AS_UTF8}"
