"""The window's side of checkpoints (issue 17): a turn's "Changes" summary in the
conversation, the restore plan and its "Undo restore" bar, and the bridge that runs the
checkpoint store's blocking calls off the event loop.

Nothing is imported here: the pane and the review load these modules only when a store exists.
"""
