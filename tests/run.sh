#!/usr/bin/env bash
# The whole test suite: installs what it needs, then lint, format, types, import contracts and
# pytest (inside a D-Bus session with an unlocked gnome-keyring, so keyring tests use the real
# Secret Service). Extra arguments go to pytest, after the default of two pytest-xdist workers
# (`-n 0` runs in this process, e.g. `bash tests/run.sh -n 0 tests/ui/test_app.py`); how tests
# that share a resource are kept apart is in tests/conftest.py.
set -euo pipefail
cd "$(dirname "$0")/.."

bash packaging/dev_install.sh --test

export QT_API=pyside6
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
.venv/bin/lint-imports

mkdir -p test-output
exec dbus-run-session -- bash -c '
  echo -n ci | gnome-keyring-daemon --unlock --components=secrets >/dev/null
  exec .venv/bin/python -m pytest -n 3 "$@"
' pytest "$@"
