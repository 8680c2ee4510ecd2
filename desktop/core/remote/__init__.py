"""Remote Agent Runtimes: conversations with agents that run on a cluster, over gRPC ``Converse``.

``config`` holds the settings model and factory (importing it does not load gRPC); ``backend``
is the session backend; ``token`` signs the runtime's bearer tokens; ``generated`` is protoc's
output for ``runtime.proto`` (regenerate with ``python -m desktop.core.remote.codegen``).
"""
