"""Screenshot tests: the main states of the window in both themes at 100 % and 200 %,
compared with stored images (render, compare, update)."""
