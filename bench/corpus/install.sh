#!/usr/bin/env bash
# Makes bench/corpus/node_modules and bench/corpus/build/: the UI libraries of the corpus pages
# (bench/corpus/pages/*.html) and the bundles of their entry files (src/<page>.jsx|.js ->
# build/<page>.js, and build/<page>.css when the entry imports styles), served as static files
# from bench/corpus. Not part of CI; the benchmark runs it.
#
#   bench/corpus/install.sh
#
# The packages are installed once per package-lock.json, as tests/realapps/install.sh does
# (tests/npm-cached.sh): into ${XDG_CACHE_HOME:-$HOME/.cache}/tabsight/corpus/<sha256 of
# package-lock.json>/node_modules, node_modules here being a symlink to it. The bundles are made
# with esbuild (a devDependency) by build.mjs, and only when an entry file, build.mjs or the lockfile
# is newer than the last build. Prints one line saying what it did; exits non-zero on failure.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../../tests/npm-cached.sh
source "$here/../../tests/npm-cached.sh"
installed=$(npm_cached "$here" "the corpus libraries")
installed=${installed#corpus: }

stamp=$here/build/.built
if [ -f "$stamp" ] && [ -z "$(find "$here/src" "$here/build.mjs" "$here/package-lock.json" -newer "$stamp" -print -quit)" ]; then
  built="the bundles are up to date"
else
  started=$(date +%s)
  if ! output=$(cd "$here" && node build.mjs 2>&1); then
    printf '%s\n' "$output" >&2
    echo "corpus: esbuild failed (its output is above)" >&2
    exit 1
  fi
  touch "$stamp"
  built="bundled $output in $(( $(date +%s) - started )) s"
fi
echo "corpus: $installed; $built"
