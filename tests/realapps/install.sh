#!/usr/bin/env bash
# Makes tests/realapps/node_modules: the real apps tests/test_realapps.py, tests/test_unseen_pages.py
# and bench/realapps_bench.py serve as static files; then bundles src/ into build/ (build.mjs).
#
#   tests/realapps/install.sh
#
# The packages are installed once per package-lock.json: into
# ${XDG_CACHE_HOME:-$HOME/.cache}/tabsight/realapps/<sha256 of package-lock.json>/node_modules
# (npm ci on a miss), and node_modules here is a symlink to it, so a second run, another
# checkout or a CI run with that cache restored costs a few milliseconds. Installs run with
# --ignore-scripts: only the packages' files are needed (and swagger-ui-dist's analytics
# postinstall stays off). node and npm are installed with apt-get when missing and we can
# (root or passwordless sudo). Prints one line saying what it did; exits non-zero when the
# apps could not be installed.
set -euo pipefail
# shellcheck source=../npm-cached.sh
source "$(dirname "$0")/../npm-cached.sh"
npm_cached realapps "the apps"
# the pages of unseen/ load bundles of ES-module-only packages: src/*.js(x) bundled into build/
node "$(dirname "$0")/build.mjs"
