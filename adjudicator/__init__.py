"""The adjudicator: a Flask service that resolves each game's die-roll checks by its rules.

Start with `adjudicator.app.create_app`. The pieces, each in its own module:

- `checks`   the check registry (`@register_check`), `Dice`, `CheckResult`
- `dice`     supplied dice (compute mode) and seed-derived ledger dice (game mode)
- `ledger`   hash-chained records and Ed25519 receipts
- `verify`   verification of receipts and whole ledgers (also used offline by the CLI)
- `storage`  SQLAlchemy Core tables and the transactional append
- `rules/`   one module per game system; each check is one function plus one schema
"""
