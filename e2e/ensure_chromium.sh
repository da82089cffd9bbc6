#!/usr/bin/env bash
# Make sure Debian's chromium is installed for the Playwright e2e tests (never a Playwright browser download).
# Does nothing when /usr/bin/chromium exists; otherwise installs it with apt-get (as root, or through sudo).
set -euo pipefail

if [ -x /usr/bin/chromium ]; then
    exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "ensure_chromium: /usr/bin/chromium is missing and apt-get is not available; install chromium manually" >&2
    exit 1
fi

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        SUDO=(sudo)
    else
        echo "ensure_chromium: need root (or sudo) to install chromium" >&2
        exit 1
    fi
fi

echo "ensure_chromium: installing Debian chromium" >&2
"${SUDO[@]}" apt-get update
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium

if [ ! -x /usr/bin/chromium ]; then
    echo "ensure_chromium: apt-get finished but /usr/bin/chromium is still missing" >&2
    exit 1
fi
