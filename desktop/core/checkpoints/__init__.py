"""Checkpoints of a workspace around each turn: record, compare, restore (issue 17)."""
