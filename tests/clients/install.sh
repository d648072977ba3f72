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
# shellcheck source=../npm-cached.sh
source "$(dirname "$0")/../npm-cached.sh"

# Claude Code's postinstall: copies the platform's native binary over the bin/claude.exe stub
claude_native() {
  local output
  if ! output=$(cd node_modules/@anthropic-ai/claude-code && node install.cjs 2>&1) \
    || ! node_modules/.bin/claude --version >/dev/null 2>&1; then
    printf '%s\n' "$output" >&2
    echo "Claude Code's native binary could not be put in place" >&2
    return 1
  fi
}

npm_cached clients "the clients" claude_native
