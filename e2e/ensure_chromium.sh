#!/usr/bin/env bash
# Make sure Debian's chromium (the benchmarks' browser) and its old headless shell (the browser tests') are installed
# for Playwright (never a Playwright browser download). Does nothing when both are there; otherwise installs them
# with apt-get (as root, or through sudo).
set -euo pipefail

BROWSERS=(/usr/bin/chromium /usr/lib/chromium/chromium-headless-shell)
PACKAGES=(chromium chromium-headless-shell)

missing() {
    for browser in "${BROWSERS[@]}"; do
        [ -x "$browser" ] || return 0
    done
    return 1
}

if ! missing; then
    exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "ensure_chromium: ${BROWSERS[*]} are needed and apt-get is not available; install ${PACKAGES[*]} manually" >&2
    exit 1
fi

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        SUDO=(sudo)
    else
        echo "ensure_chromium: need root (or sudo) to install ${PACKAGES[*]}" >&2
        exit 1
    fi
fi

echo "ensure_chromium: installing Debian ${PACKAGES[*]}" >&2
"${SUDO[@]}" apt-get update
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y "${PACKAGES[@]}"

if missing; then
    echo "ensure_chromium: apt-get finished but one of ${BROWSERS[*]} is still missing" >&2
    exit 1
fi
