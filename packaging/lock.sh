#!/usr/bin/env bash
# Regenerate packaging/requirements.lock: every package of the app and of its build and test
# tools (pyproject.toml, extra "test"), pinned with the SHA-256 of every file on the index, for
# every platform the release builds on (uv's universal resolution: markers keep the Windows- or
# macOS-only packages). The release build and dev_install.sh install it with --require-hashes;
# tests/packaging/test_lock_file.py fails when pyproject.toml names a package the lock lacks.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/uv ] || .venv/bin/python -m pip install -q uv
.venv/bin/uv pip compile pyproject.toml --extra test --universal --generate-hashes \
  --python-version 3.11 --no-header --quiet -o packaging/requirements.lock
echo "packaging/requirements.lock: $(grep -c '^[a-zA-Z]' packaging/requirements.lock) packages"
