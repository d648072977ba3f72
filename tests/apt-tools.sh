#!/usr/bin/env bash
# Debian packages a group of tests needs (tests/desktop/install.sh, tests/remote/install.sh), installed with
# apt-get when missing and we can (root or passwordless sudo). Prints one line saying what it did; exits non-zero
# when they are missing and could not be installed.
#   tests/apt-tools.sh NAME TESTS TOOL:PACKAGE...
# NAME prefixes the line, TESTS names the tests that need them, each TOOL (a command, or a path) is looked for
# and PACKAGE installed when it is missing.
set -euo pipefail

name=$1 tests=$2
shift 2
say() { printf '%s: %s\n' "$name" "$*"; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo "$@"; else return 1; fi
}

missing=()
for pair in "$@"; do
  command -v "${pair%%:*}" >/dev/null || missing+=("${pair#*:}")
done
if [ ${#missing[@]} -eq 0 ]; then
  say "$(printf '%s\n' "$@" | sed 's/.*://' | sort -u | tr '\n' ' ')are installed"
  exit 0
fi
packages=$(printf '%s\n' "${missing[@]}" | sort -u | tr '\n' ' ')
if ! command -v apt-get >/dev/null; then
  say "missing: $packages(install them to run $tests)" >&2
  exit 1
fi
# RUNLEVEL=1: invoke-rc.d starts no service a package brings along (openssh-server's sshd: the tests start their own)
# shellcheck disable=SC2086
as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 \
  && as_root env DEBIAN_FRONTEND=noninteractive RUNLEVEL=1 apt-get install -y -qq $packages >/dev/null \
  || { say "could not install $packages(apt-get needs root or passwordless sudo)" >&2; exit 1; }
say "installed $packages"
