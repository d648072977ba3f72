#!/usr/bin/env bash
# Makes tests/lint/node_modules: ESLint (pinned in package.json), which lints the extension's
# JavaScript with eslint.config.js at the repository root.
#
#   tests/lint/install.sh
#
# Installed once per package-lock.json, as the other npm package sets are (tests/npm-cached.sh):
# into ${XDG_CACHE_HOME:-$HOME/.cache}/tabsight/lint/<sha256 of package-lock.json>/node_modules
# (npm ci on a miss), node_modules here being a symlink to it. Prints one line saying what it
# did; exits non-zero when ESLint could not be installed.
set -euo pipefail
# shellcheck source=../npm-cached.sh
source "$(dirname "$0")/../npm-cached.sh"
npm_cached lint "ESLint"
