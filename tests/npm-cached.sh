# Installs an npm package set into a cache keyed by its lockfile, and links node_modules to it:
# what tests/realapps/install.sh and tests/clients/install.sh share. Sourced by them; they call
#
#   npm_cached NAME WHAT [AFTER]
#
# with NAME the folder beside this file (its package.json and package-lock.json), or the path of a
# folder elsewhere (anything with a slash in it: bench/corpus/install.sh passes its own folder; the
# cache is then named after the folder's last component), WHAT the words
# for what gets installed ("the apps"), and AFTER an optional command run in the freshly built
# folder before it becomes the cache (an install script the packages need, --ignore-scripts left
# out). The cache is ${XDG_CACHE_HOME:-$HOME/.cache}/tabsight/NAME/<sha256 of package-lock.json>;
# `npm ci --ignore-scripts` fills it once, later runs only check the link. node and npm are
# installed with apt-get when missing and we can (root or passwordless sudo). Prints one line
# saying what it did; exits non-zero when the packages could not be installed.

npm_cached() {
  local name=$1 what=$2 after=${3:-}
  local here
  case $name in
    */*) here=$(cd "$name" && pwd); name=$(basename "$here") ;;
    *) here=$(cd "$(dirname "${BASH_SOURCE[0]}")/$name" && pwd) ;;
  esac
  local lock=$here/package-lock.json

  say() { printf '%s: %s\n' "$name" "$*"; }
  fail() { printf '%s: %s\n' "$name" "$*" >&2; exit 1; }

  local hash cache link did
  hash=$(_sha256 "$lock")
  cache=${XDG_CACHE_HOME:-$HOME/.cache}/tabsight/$name/$hash
  link=$here/node_modules

  if [ -L "$link" ] && [ "$(readlink "$link")" = "$cache/node_modules" ] && [ -f "$cache/complete" ]; then
    say "node_modules is up to date (cache $hash)"
    return 0
  fi

  did="linked node_modules to the cache $cache"
  if [ ! -f "$cache/complete" ]; then
    if ! command -v npm >/dev/null; then
      if command -v apt-get >/dev/null; then
        _as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 \
          && _as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null \
          || fail "npm is missing and could not be installed (apt-get install nodejs npm needs root or passwordless sudo)"
      else
        fail "npm is missing: install Node.js (with npm), then run $0 again"
      fi
    fi
    local started building output
    started=$(date +%s)
    # built next to its final place and renamed in one step, so a run that was interrupted,
    # or one racing this one, never leaves a half-filled cache behind
    mkdir -p "$(dirname "$cache")"
    building=$(mktemp -d "${cache}.building.XXXXXX")
    trap "rm -rf '$building'" EXIT
    cp "$here/package.json" "$lock" "$building/"
    if ! output=$(cd "$building" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error 2>&1); then
      printf '%s\n' "$output" >&2
      fail "npm ci failed (its output is above)"
    fi
    if [ -n "$after" ]; then
      (cd "$building" && "$after") || fail "$after failed in $building (its output is above)"
    fi
    touch "$building/complete"
    if [ ! -f "$cache/complete" ]; then  # else a run racing this one got there first
      rm -rf "$cache"
      mv "$building" "$cache"
    fi
    did="installed $what with npm ci in $(( $(date +%s) - started )) s into $cache and linked node_modules to it"
  fi

  # node_modules is only ever what package-lock.json makes: a directory left by a plain
  # `npm install` here, or a link to another lock's cache, is replaced
  rm -rf "$link"
  ln -s "$cache/node_modules" "$link"
  say "$did"
}

_as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo "$@"; else return 1; fi
}

_sha256() {
  if command -v sha256sum >/dev/null; then sha256sum "$1" | cut -d' ' -f1; else shasum -a 256 "$1" | cut -d' ' -f1; fi
}
