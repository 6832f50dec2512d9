"""Rules modules, one per game system.

Each game's package registers its checks (`@register_check` functions with their request
schemas) into the leaf registry `adjudicator.checks`, and its supply tracer into
`adjudicator.rules.positions`, when it is imported. Importing this package alone registers
nothing, so `positions` and the registry stay leaves; whoever assembles the service calls
`register_all_games()`: `adjudicator.app` (the Flask app, and the CLI through it), the
benchmarks and the test suite's conftest.
"""


def register_all_games() -> None:
    """Import every game's rules package, which registers its checks and its supply tracer."""
    from adjudicator.rules import fireandice, holdfast, kwb, spi  # noqa: F401
