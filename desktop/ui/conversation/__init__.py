"""The conversation view: a transcript model plus one widget per item."""
