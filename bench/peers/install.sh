#!/usr/bin/env bash
# Makes bench/peers/node_modules: the peers the benchmarks compare tabsight with (Playwright MCP,
# Chrome DevTools MCP) and the tokenizers bench/tokencount.py counts text with, at the versions
# package-lock.json pins. Not part of CI; the benchmarks that need them say to run it.
#
#   bench/peers/install.sh
#
# Installed once per package-lock.json into ${XDG_CACHE_HOME:-$HOME/.cache}/tabsight/peers/, as
# tests/realapps/install.sh does (tests/npm-cached.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../../tests/npm-cached.sh
source "$here/../../tests/npm-cached.sh"
npm_cached "$here" "the peers and tokenizers"
