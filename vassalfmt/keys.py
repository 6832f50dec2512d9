"""Key strokes and named key strokes as VASSAL writes them.

A key stroke is ``keyCode,modifiers`` with Java AWT numbers (``KeyEvent.VK_*`` for the code and
``KeyStroke.getModifiers()`` for the modifiers, which adds the old and new mask bits: Ctrl = 130,
Shift = 65, Alt = 520, Meta = 260). A named command, which traits send to each other, is
``keyCode,modifiers,Name``; a purely named one is ``0,0,Name``. No key at all is the empty string
(``VASSAL/configure/NamedHotKeyConfigurer.java`` ``encode``/``decode``).

Note on named keys: the 3.7 engine gives every name a private key code from U+E000 upward when it
loads a module and writes *that* code back when it re-saves (``VASSAL/tools/NamedKeyManager.java``);
the code written in the file is ignored on reading. ``0,0,Name`` is therefore as good as any code.

>>> key("Ctrl+D").encode()
'68,130'
>>> named("Flip").encode()
'0,0,Flip'
>>> KeyStroke.decode("70,130,Flip") == KeyStroke(70, CTRL, "Flip")
True
"""

from __future__ import annotations

from dataclasses import dataclass

from .sequence import decode, encode

SHIFT = 1 + 64
CTRL = 2 + 128
META = 4 + 256
ALT = 8 + 512

#: InputEvent.CTRL_DOWN_MASK alone: the engine's default modifier for old single-letter keys.
CTRL_DOWN_MASK = 128

_MODIFIER_NAMES = {"shift": SHIFT, "ctrl": CTRL, "control": CTRL, "alt": ALT, "meta": META,
                   "cmd": META}

#: KeyEvent.VK_* codes for keys that are not a letter or digit.
VK = {
    "BACKSPACE": 8, "BACK_SPACE": 8, "TAB": 9, "ENTER": 10, "ESCAPE": 27, "ESC": 27,
    "SPACE": 32, "PAGE_UP": 33, "PAGE_DOWN": 34, "END": 35, "HOME": 36,
    "LEFT": 37, "UP": 38, "RIGHT": 39, "DOWN": 40, "COMMA": 44, "MINUS": 45, "PERIOD": 46,
    "SLASH": 47, "SEMICOLON": 59, "EQUALS": 61, "OPEN_BRACKET": 91, "BACK_SLASH": 92,
    "CLOSE_BRACKET": 93, "DELETE": 127, "INSERT": 155,
    **{f"F{n}": 111 + n for n in range(1, 13)},
}


@dataclass(frozen=True)
class KeyStroke:
    """A key (``code``/``modifiers``), a named command (``name``), or both."""

    code: int = 0
    modifiers: int = 0
    name: str = ""

    def encode(self) -> str:
        text = f"{self.code},{self.modifiers}"
        if self.name:
            text += "," + self.name
        return text

    @staticmethod
    def decode(text: str, legacy_char: bool = True) -> KeyStroke | None:
        """Read a field the way the engine does; ``None`` means "no key".

        A field without a comma is a legacy single character (Ctrl+that character) where a
        trait field is read (``Decoder.nextNamedKeyStroke``); inside key lists
        (``legacy_char=False``) it is unreadable. Unparsable numbers give ``None``, like the
        engine's NULL_KEYSTROKE.
        """
        if not text:
            return None
        if "," not in text:
            if not legacy_char:
                return None
            return KeyStroke(ord(text[0].upper()), CTRL_DOWN_MASK)
        parts = text.split(",")
        try:
            code, modifiers = int(parts[0]), int(parts[1])
        except ValueError:
            return None
        name = parts[2] if len(parts) > 2 else ""
        return KeyStroke(code, modifiers, name)

    def __str__(self) -> str:
        return self.encode()


def encode_key(stroke: KeyStroke | None) -> str:
    """Encode an optional key stroke; ``None`` is the empty field."""
    return "" if stroke is None else stroke.encode()


def named(name: str) -> KeyStroke:
    """A purely named command, e.g. ``named("Flip")`` -> ``0,0,Flip``."""
    if not name:
        raise ValueError("a named key stroke needs a name")
    if "," in name:
        raise ValueError(f"key command names cannot contain commas: {name!r}")
    return KeyStroke(0, 0, name)


def key(spec: str, name: str = "") -> KeyStroke:
    """A key stroke from a readable spec: ``"Ctrl+D"``, ``"Alt+Shift+F3"``, ``"DELETE"``.

    ``name`` optionally makes it a named command bound to that key as well.
    """
    parts = [p.strip() for p in spec.split("+")]
    if not parts or not parts[-1]:
        raise ValueError(f"no key in {spec!r}")
    modifiers = 0
    for part in parts[:-1]:
        try:
            modifiers |= _MODIFIER_NAMES[part.lower()]
        except KeyError:
            raise ValueError(f"unknown modifier {part!r} in {spec!r}") from None
    last = parts[-1].upper()
    if len(last) == 1 and (last.isalpha() or last.isdigit()) and last.isascii():
        code = ord(last)
    elif last in VK:
        code = VK[last]
    else:
        raise ValueError(f"unknown key {parts[-1]!r} in {spec!r}")
    if "," in name:
        raise ValueError(f"key command names cannot contain commas: {name!r}")
    return KeyStroke(code, modifiers, name)


def decode_key_list(text: str) -> list[KeyStroke]:
    """A comma list of key strokes (``NamedKeyStrokeArrayConfigurer``).

    Empty and unreadable items are dropped, as the engine drops them on its next save.
    """
    out = []
    if not text:
        return out
    for item in decode(text, ","):
        stroke = KeyStroke.decode(item, legacy_char=False)
        if stroke is not None:
            out.append(stroke)
    return out


def encode_key_list(strokes: list[KeyStroke]) -> str:
    return encode([s.encode() for s in strokes], ",") if strokes else ""
