"""Context the user gives an agent from the composer: files mentioned with ``@`` (``files``),
images (``images``) and the slash commands an agent offers (``commands``).

Qt-free: the window's composer builds on these, and each protocol adapter asks ``images`` how
the files of a prompt travel to its agent.
"""
