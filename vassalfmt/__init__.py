"""VASSAL 3.7 file formats, shared by the module generator and the saved-game reader.

Modules, by what they hold:

* :mod:`vassalfmt.sequence` — the engine's sequence encoding (escaping, nesting);
* :mod:`vassalfmt.keys` — key strokes and named commands;
* :mod:`vassalfmt.traits` — piece traits (type/state strings both ways);
* :mod:`vassalfmt.piece` — whole pieces and the AddPiece command;
* :mod:`vassalfmt.commands` — the saved-game/log command stream (pieces, stacks, board layout);
* :mod:`vassalfmt.savedgame` — ``.vsav``/``.vlog``: obfuscation, writing setups, reading uploads;
* :mod:`vassalfmt.moduledata` — ``moduledata``/``savedata`` XML;
* :mod:`vassalfmt.buildfile` — building and validating ``buildFile.xml``;
* :mod:`vassalfmt.module` — whole ``.vmod`` files: write (validated, atomic), read, check;
* :mod:`vassalfmt.zipwriter` / :mod:`vassalfmt.zipreader` — reproducible writing, safe reading.

Everything follows VASSAL 3.7.26 (tag ``3.7.26``, commit b16ccbfa); each module names the engine
source files it mirrors. No engine code is included: this is our own implementation.
"""

from .commands import BoardPlacement
from .deck import DeckSpec
from .errors import VassalFormatError, VassalLimitError, VassalTimeLimit
from .keys import ALT, CTRL, META, SHIFT, KeyStroke, key, named
from .module import ModuleInvalid, check_vmod, read_vmod, write_vmod
from .moduledata import ModuleData, SaveData
from .piece import Piece, add_piece_command, parse_add_piece_command, parse_piece
from .savedgame import (
    PieceOnMap,
    SavedGame,
    SavedGameWriter,
    WorkLimits,
    continue_log,
    deobfuscate,
    obfuscate,
    read_command_text,
    read_saved_game,
)
from .sequence import decode, encode
from .traits import (
    AreaOfEffect,
    BasicPiece,
    CalculatedProperty,
    Clone,
    Comment,
    Delete,
    DynamicKeyCommand,
    DynamicProperty,
    Embellishment,
    FreeRotator,
    Immobilized,
    Labeler,
    Marker,
    MenuSeparator,
    MovementMarkable,
    Obscurable,
    PropertyChanger,
    RawTrait,
    ReportState,
    Restricted,
    ReturnToDeck,
    SendToLocation,
    SubMenu,
    Trait,
    TriggerAction,
    UsePrototype,
    access_sides,
    parse_trait,
)
from .zipreader import ZipLimits
from .zipwriter import build_zip, write_zip

#: Friendlier aliases for the engine's class names.
Layer = Embellishment
TextLabel = Labeler
MarkMoved = MovementMarkable
DoesNotStack = Immobilized

__all__ = [name for name in dir() if not name.startswith("_")]
