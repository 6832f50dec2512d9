"""Test-session assembly: the rules register into the check registry as the service's do.

`adjudicator.checks` is a leaf that the rules packages fill when imported; the app factory imports
them, and so does the test session, for the tests that call rules and registry functions directly.
"""

from adjudicator.rules import register_all_games

# The real-engine harness's fixtures and `engine` marker (tests/engine/fixtures.py).
pytest_plugins = ["tests.engine.fixtures"]

register_all_games()
