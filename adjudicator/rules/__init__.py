"""Rules modules, one per game system. Importing this package registers every check.

Each module owns one game's checks (`@register_check` functions with their request schemas);
the rules engines grow here without touching the service.
"""

from adjudicator.rules import fireandice, holdfast, kwb, spi  # noqa: F401
