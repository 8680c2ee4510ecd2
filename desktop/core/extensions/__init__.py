"""The extension runtime: load extensions, dispatch agent events, execute their requests.

See ``desktop.sdk`` for the surface extensions see and ``runtime.ExtensionRuntime`` for the
host side. Nothing here imports Qt.
"""
