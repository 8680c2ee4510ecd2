#!/usr/bin/env bash
# Install Agent Desk from this checkout into ./.venv on Debian/Ubuntu.
#   bash packaging/dev_install.sh          # the app
#   bash packaging/dev_install.sh --test   # the app plus everything the test suite needs
# System packages are installed with apt-get when running as root (or through sudo).
set -euo pipefail
cd "$(dirname "$0")/.."

with_tests=0
[ "${1:-}" = "--test" ] && with_tests=1

# Qt's xcb platform plugin needs these at run time (see desktop-engineering.md §4.3).
packages=(libegl1 libgl1 libfontconfig1 libdbus-1-3 libxkbcommon-x11-0 libxcb-cursor0
          libxcb-icccm4 libxcb-keysyms1 libxcb-shape0 libxcb-randr0 libxcb-render-util0
          libxcb-image0 libxcb-xinerama0 libxcb-xkb1)
if [ "$with_tests" = 1 ]; then
  # Xvfb + xdotool for the end-to-end test, the real Secret Service for keyring tests, the
  # AT-SPI bus a screen reader listens on (tests/e2e/test_atspi_announce.py).
  packages+=(xvfb xdotool x11-apps dbus dbus-x11 gnome-keyring fonts-dejavu-core at-spi2-core)
  # Packaging tests: .deb checks, RUNPATH fix, ELF inspection, NSIS compile check, metadata,
  # the AppImage's .zsync.
  packages+=(lintian patchelf binutils nsis desktop-file-utils appstream squashfs-tools zsync)
fi
python3 -c "import ensurepip, venv" 2>/dev/null || packages+=(python3-venv)

missing=()
for pkg in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ] && command -v apt-get >/dev/null; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "Installing system packages: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

python="${PYTHON:-python3}"
[ -x .venv/bin/python ] || "$python" -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
# The pinned, hash-checked inputs the release build uses too (packaging/lock.sh writes them),
# then the app itself; the second step only adds what a newer pyproject.toml names and the lock
# does not have yet (tests/packaging/test_lock_file.py fails until it is re-locked).
.venv/bin/python -m pip install -q --require-hashes -r packaging/requirements.lock
if [ "$with_tests" = 1 ]; then
  .venv/bin/python -m pip install -q -e ".[test]"
else
  .venv/bin/python -m pip install -q -e .
fi
.venv/bin/python packaging/translations.py compile >/dev/null  # the .qm catalogues
echo "Agent Desk is installed in .venv (run .venv/bin/agentdesk)."
