"""Generated from ``../runtime.proto`` by ``desktop.core.remote.codegen``; do not edit."""
