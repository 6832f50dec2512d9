"""The VASSAL bridge: a saved game (``.vsav``) or log (``.vlog``) in, positions and supply out.

VASSAL cannot call an HTTP service by itself, so players bring the game file here. The bridge
reads it with :mod:`vassalfmt` (which enforces the safety limits for untrusted zips), finds each
piece's map and hex with the same geometry the module was built with (the scenario model's
``HexGrid``), identifies units by the Marker properties ``modgen`` gives every unit piece (or by
piece name for other modules) and hands the positions to the game's supply tracer.

Modules, by what they hold:

* :mod:`adjudicator.bridge.errors` — :class:`BridgeError`, the one error type (with an HTTP status);
* :mod:`adjudicator.bridge.upload` — reading an uploaded file under limits;
* :mod:`adjudicator.bridge.games` — the scenario model of a system, loaded once;
* :mod:`adjudicator.bridge.locate` — map name and pixel -> map, box, turn track or hex;
* :mod:`adjudicator.bridge.identify` — piece -> unit (properties first, then name);
* :mod:`adjudicator.bridge.positions` — the whole saved game as :class:`Positions`;
* :mod:`adjudicator.bridge.supply` — positions -> every side's supply report.

The pages draw the positions on the module's own board and counters (`adjudicator.web.boardview`,
`adjudicator.web.artwork`). Nothing here imports ``modgen``: the geometry comes from the scenario
model, never from the generator.
"""

from adjudicator.bridge.errors import BridgeError
from adjudicator.bridge.games import load_system_game
from adjudicator.bridge.positions import Positions, PlacedUnit, read_positions
from adjudicator.bridge.supply import SupplyRun, run_supply
from adjudicator.bridge.upload import SAVEDGAME_LIMITS, read_upload

__all__ = [
    "BridgeError",
    "PlacedUnit",
    "Positions",
    "SAVEDGAME_LIMITS",
    "SupplyRun",
    "load_system_game",
    "read_positions",
    "read_upload",
    "run_supply",
]
