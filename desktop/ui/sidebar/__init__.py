"""The conversations sidebar: stored history per workspace, search, rename, delete, export.

A window uses ``WindowHistory`` (cheap: the widgets only). Its ``HistoryEngine`` (``engine``)
does the work: shared database access (``service``), recording (``recording``), reopening
(``replay``, ``resume``), search hits (``highlight``), delete/undo and export (``actions``).
Widgets: ``panel`` (the sidebar), ``lists`` and ``results`` (over ``rows``), ``bars``.
"""

from desktop.ui.sidebar.controller import WindowHistory

__all__ = ["WindowHistory"]
