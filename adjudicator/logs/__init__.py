"""VASSAL logs and saved games received from a player, read against the ledger: which ruling each
file must show (`sessions`), what each ruling did to the pieces (`board`), the verdicts (`check`) and
the step-by-step replay (`replay`)."""
