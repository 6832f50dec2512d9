"""The real-engine test harness (see docs/engine-harness.md)."""
