"""The ledger and what keeps it: each game's hash-chained records (`records`), their storage
(`storage`, SQLite or PostgreSQL), the server's signing keys (`keys`), the dice derived from the
seed (`dice`), the sealed draws (`draws`), the units' state the records leave (`board`), the dice
record (`dicestats`), the kept uploads (`uploads`) and the offline verifier (`verify`)."""
