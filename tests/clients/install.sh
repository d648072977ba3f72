#!/usr/bin/env bash
# Makes tests/clients/node_modules: the MCP clients tests/test_clients.py registers tabsight with,
# as a user would (Claude Code, Codex, Gemini CLI, and the MCP Inspector's CLI for --strict).
#
#   tests/clients/install.sh
#
# The packages are installed once per package-lock.json: into
# ${XDG_CACHE_HOME:-$HOME/.cache}/tabsight/clients/<sha256 of package-lock.json>/node_modules
# (npm ci on a miss), and node_modules here is a symlink to it, so a second run, another
# checkout or a CI run with that cache restored costs a few milliseconds. Installs run with
# --ignore-scripts (gemini's optional keytar and node-pty builds stay off: the checks need
# neither); the one install script the clients need, Claude Code's (it puts the native binary
# for this platform in place of bin/claude.exe), is run by hand afterwards. node and npm are
# installed with apt-get when missing and we can (root or passwordless sudo). Prints one line
# saying what it did; exits non-zero when the clients could not be installed.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
lock=$here/package-lock.json

say() { printf 'clients: %s\n' "$*"; }
fail() { printf 'clients: %s\n' "$*" >&2; exit 1; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo "$@"; else return 1; fi
}

sha256() {
  if command -v sha256sum >/dev/null; then sha256sum "$1" | cut -d' ' -f1; else shasum -a 256 "$1" | cut -d' ' -f1; fi
}

hash=$(sha256 "$lock")
cache=${XDG_CACHE_HOME:-$HOME/.cache}/tabsight/clients/$hash
link=$here/node_modules

if [ -L "$link" ] && [ "$(readlink "$link")" = "$cache/node_modules" ] && [ -f "$cache/complete" ]; then
  say "node_modules is up to date (cache $hash)"
  exit 0
fi

did="linked node_modules to the cache $cache"
if [ ! -f "$cache/complete" ]; then
  if ! command -v npm >/dev/null; then
    if command -v apt-get >/dev/null; then
      as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 \
        && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null \
        || fail "npm is missing and could not be installed (apt-get install nodejs npm needs root or passwordless sudo)"
    else
      fail "npm is missing: install Node.js (with npm), then run $0 again"
    fi
  fi
  started=$(date +%s)
  # built next to its final place and renamed in one step, so a run that was interrupted,
  # or one racing this one, never leaves a half-filled cache behind
  mkdir -p "$(dirname "$cache")"
  building=$(mktemp -d "${cache}.building.XXXXXX")
  trap 'rm -rf "$building"' EXIT
  cp "$here/package.json" "$lock" "$building/"
  if ! output=$(cd "$building" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error 2>&1); then
    printf '%s\n' "$output" >&2
    fail "npm ci failed (its output is above)"
  fi
  # Claude Code's postinstall: copies the platform's native binary over the bin/claude.exe stub
  if ! output=$(cd "$building/node_modules/@anthropic-ai/claude-code" && node install.cjs 2>&1) \
    || ! "$building/node_modules/.bin/claude" --version >/dev/null 2>&1; then
    printf '%s\n' "$output" >&2
    fail "Claude Code's native binary could not be put in place (its install script's output is above)"
  fi
  touch "$building/complete"
  if [ ! -f "$cache/complete" ]; then  # else a run racing this one got there first
    rm -rf "$cache"
    mv "$building" "$cache"
  fi
  did="installed the clients with npm ci in $(( $(date +%s) - started )) s into $cache and linked node_modules to it"
fi

# node_modules is only ever what package-lock.json makes: a directory left by a plain
# `npm install` here, or a link to another lock's cache, is replaced
rm -rf "$link"
ln -s "$cache/node_modules" "$link"
say "$did"
