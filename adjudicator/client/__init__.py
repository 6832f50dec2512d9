"""``adjudicator-client``: the adjudicator's HTTP API from the command line.

For players and their scripts: read a VASSAL saved game's positions or supply, run any check
from a JSON situation file, create games and roll in them with a token, fetch and verify
ledgers and receipts. :mod:`.http` talks to the server (``requests``), :mod:`.output` prints
results for people (``--json`` prints the server's JSON for scripts), :mod:`.cli` holds the
commands. Run it as ``adjudicator-client`` or ``python -m adjudicator.client``.
"""
