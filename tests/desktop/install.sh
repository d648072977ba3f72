#!/usr/bin/env bash
# The desktop tests/test_headed.py runs a headed Chromium on: an X server without a screen (Xvfb),
# a window manager (openbox) and the X tools the tests use to cover, minimize and inspect windows
# (xdotool, and xmessage, xprop, xwininfo from x11-utils), and scrot to look at the screen as the user sees it. Debian packages, installed with apt-get when
# missing and we can (root or passwordless sudo). Prints one line saying what it did; exits
# non-zero when they are missing and could not be installed.
set -euo pipefail

say() { printf 'desktop: %s\n' "$*"; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo "$@"; else return 1; fi
}

missing=()
for tool in Xvfb:xvfb openbox:openbox xdotool:xdotool xmessage:x11-utils xprop:x11-utils scrot:scrot; do
  command -v "${tool%%:*}" >/dev/null || missing+=("${tool#*:}")
done
if [ ${#missing[@]} -eq 0 ]; then
  say "Xvfb, openbox, xdotool, x11-utils and scrot are installed"
  exit 0
fi
packages=$(printf '%s\n' "${missing[@]}" | sort -u | tr '\n' ' ')
if ! command -v apt-get >/dev/null; then
  say "missing: $packages(install them to run tests/test_headed.py)" >&2
  exit 1
fi
# shellcheck disable=SC2086
as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 \
  && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $packages >/dev/null \
  || { say "could not install $packages(apt-get needs root or passwordless sudo)" >&2; exit 1; }
say "installed $packages"
