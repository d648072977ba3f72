#!/usr/bin/env bash
# Sets tabsight up on Linux or macOS.
#
#   installers/install.sh           virtualenv + tabsight + a Chromium if none is found
#                                   + native-host registration for your browsers
#   installers/install.sh --test    virtualenv + tabsight with its test extras + a Chromium,
#                                   then the linters (tests/lint/run.sh) and the whole test
#                                   suite (extra arguments go to pytest); either failing fails
#
# The virtualenv is .venv at the repository root unless TABSIGHT_VENV says otherwise.
# tabsight is installed from the repository as a regular (not editable) package, so
# what runs is what a user gets: the extension travels inside the package.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
venv=${TABSIGHT_VENV:-$root/.venv}
python=${PYTHON:-python3}
mode=install
if [ "${1:-}" = "--test" ]; then
  mode=test
  shift
fi

say() { printf 'tabsight: %s\n' "$*" >&2; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo "$@"; else return 1; fi
}

find_browser() {
  if [ -n "${TABSIGHT_CHROMIUM:-}" ]; then echo "$TABSIGHT_CHROMIUM"; return; fi
  for name in chromium chromium-browser google-chrome google-chrome-stable brave-browser microsoft-edge; do
    if command -v "$name" >/dev/null; then command -v "$name"; return; fi
  done
  for app in "/Applications/Chromium.app/Contents/MacOS/Chromium" "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"; do
    if [ -x "$app" ]; then echo "$app"; return; fi
  done
}

browser=$(find_browser || true)
if [ -z "$browser" ]; then
  if command -v apt-get >/dev/null; then
    say "no Chromium-family browser found: installing Debian's chromium"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq \
      && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null \
      || say "could not install chromium (need root or passwordless sudo); install a Chromium-family browser yourself"
    browser=$(find_browser || true)
  else
    say "no Chromium-family browser found; install Chromium (or set TABSIGHT_CHROMIUM to a browser's path)"
  fi
fi
case "$browser" in
  /snap/*) say "$browser is a Snap: its confinement cannot start native hosts; install a non-Snap Chromium or Chrome" ;;
esac

if [ ! -x "$venv/bin/python" ]; then
  say "creating the virtualenv $venv"
  if ! "$python" -m venv "$venv" 2>/dev/null; then
    # Debian ships venv separately
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
    "$python" -m venv "$venv"
  fi
fi

if [ "$mode" = test ]; then
  say "installing tabsight with its test extras"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check "$root[test]"
  # the real web apps tests/test_realapps.py scores annotations on (npm packages, cached per
  # lockfile); if they cannot be installed the suite still runs, and those tests fail under CI
  # (skip elsewhere) saying why
  bash "$root/tests/realapps/install.sh" || say "could not install the real apps: tests/test_realapps.py will fail (skip without CI)"
  # the MCP clients tests/test_clients.py registers tabsight with (Claude Code, Codex, Gemini CLI,
  # the Inspector; npm packages, cached per lockfile); the same rule
  bash "$root/tests/clients/install.sh" || say "could not install the MCP clients: tests/test_clients.py will fail (skip without CI)"
  # the desktop (Xvfb, openbox, X tools) tests/test_headed.py runs a headed browser on; the same rule
  bash "$root/tests/desktop/install.sh" || say "could not install the desktop: tests/test_headed.py will fail (skip without CI)"
  # OpenSSH's server and client and setpriv, for tests/test_remote.py (a second local user's front, a forward
  # over ssh on loopback); the same rule
  bash "$root/tests/remote/install.sh" || say "could not install sshd: tests/test_remote.py will fail (skip without CI)"
  # ESLint for the extension (npm, cached per lockfile); the same rule, for tests/lint/run.sh
  bash "$root/tests/lint/install.sh" || say "could not install ESLint: the lint fails (skips eslint without CI)"
  # ruff, mypy and ESLint (a second or two with their caches): a finding fails the run, after the suite
  linted=0
  TABSIGHT_VENV=$venv bash "$root/tests/lint/run.sh" || linted=1
  cd "$root"
  tested=0
  "$venv/bin/python" -m pytest "$@" || tested=$?
  if [ "$linted" != 0 ]; then say "the linters found something (above, before the suite)"; fi
  if [ "$tested" != 0 ]; then exit "$tested"; fi
  exit "$linted"
fi

say "installing tabsight"
"$venv/bin/python" -m pip install -q --disable-pip-version-check "$root"
"$venv/bin/tabsight" install
say "done. Try: $venv/bin/tabsight shot https://example.com -o example.png"
