"""First run without a terminal: the welcome panel, the problem banner and the empty state.

``empty`` is painted with the first frame (no core imports); ``panel``, ``banner``,
``setup`` and ``controller`` load with the conversation pane.
"""
