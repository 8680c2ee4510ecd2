"""Token usage and its cost: the price table (``pricing``) and sums per conversation (``spend``)."""
