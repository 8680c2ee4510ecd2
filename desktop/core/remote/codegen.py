"""Regenerate the Python gRPC code for ``runtime.proto`` with grpcio-tools.

The generated modules are committed (so the app needs no protoc at run time) and a test checks
that regenerating gives identical files. protoc writes imports rooted at its ``-I`` folder, so the
proto is compiled from a temporary mirror of its package path; the stubs then import
``desktop.core.remote.generated.runtime_pb2`` by its absolute name.

Run ``python -m desktop.core.remote.codegen`` after changing ``runtime.proto``.
"""

from __future__ import annotations

import importlib
import importlib.resources
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROTO = HERE / "runtime.proto"
GENERATED = HERE / "generated"
_PACKAGE_PATH = Path("desktop", "core", "remote", "generated")
#: The files ``generate`` writes, in the order it writes them.
OUTPUTS = ("__init__.py", "runtime_pb2.py", "runtime_pb2.pyi", "runtime_pb2_grpc.py")
_INIT = (
    '"""Generated from ``../runtime.proto`` by ``desktop.core.remote.codegen``; do not edit."""\n'
)


#: protoc's output is not mypy-strict clean; it is checked only as far as desktop code uses it.
_MYPY_OFF = "# mypy: ignore-errors\n"


class CodegenError(RuntimeError):
    """protoc failed."""


def generate(out_dir: Path = GENERATED, proto: Path = PROTO) -> list[Path]:
    """Compile ``proto`` into ``out_dir`` and return the written files.

    Raises:
        CodegenError: protoc reported an error.
    """
    protoc = importlib.import_module("grpc_tools.protoc")  # dev dependency, untyped

    include = str(importlib.resources.files("grpc_tools") / "_proto")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp, "src")
        target = root / _PACKAGE_PATH
        target.mkdir(parents=True)
        shutil.copyfile(proto, target / "runtime.proto")
        built = Path(tmp, "out")
        built.mkdir()
        status = protoc.main(
            [
                "grpc_tools.protoc",
                f"-I{root}",
                f"-I{include}",
                f"--python_out={built}",
                f"--pyi_out={built}",
                f"--grpc_python_out={built}",
                str(_PACKAGE_PATH / "runtime.proto"),
            ]
        )
        if status != 0:
            raise CodegenError(f"protoc failed with status {status}")
        out_dir.mkdir(parents=True, exist_ok=True)
        written = [out_dir / "__init__.py"]
        written[0].write_text(_INIT, encoding="utf-8")
        for name in OUTPUTS[1:]:
            code = (built / _PACKAGE_PATH / name).read_text(encoding="utf-8")
            (out_dir / name).write_text(_MYPY_OFF + code, encoding="utf-8")
            written.append(out_dir / name)
    return written


def main() -> int:
    """Regenerate the committed code and list the files."""
    for path in generate():
        sys.stdout.write(f"{path}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
