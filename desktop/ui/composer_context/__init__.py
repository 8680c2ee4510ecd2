"""Context in the composer: the ``@`` file finder, image chips (paste, drop), the ``/`` menu.

``ComposerContext`` (``controller``) wires them into a pane's ``Composer``; the popup, the chips,
the mention tokens and the slash commands are its parts. Built with the pane, after the core is
loaded: the first window's composer paints without them.
"""
