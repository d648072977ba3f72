#!/usr/bin/env bash
# The linters, which installers/install.sh --test runs before the suite (CI too): ruff check and
# ruff format --check on the Python (pyproject.toml's [tool.ruff]), mypy on host/tabsight
# ([tool.mypy]), ESLint on extension/ (eslint.config.js). Each runs whatever the others find; one
# line per tool, then their findings. Exits 1 if any failed.
#
#   tests/lint/run.sh
#
# ruff and mypy are the virtualenv's (.venv at the repository root unless TABSIGHT_VENV says
# otherwise; the test extras install them); ESLint is tests/lint/install.sh's. Where ESLint is
# missing (no npm), it is skipped with a word, except under CI, where that fails. mypy's and
# ESLint's caches are kept in ${XDG_CACHE_HOME:-$HOME/.cache}/tabsight (mypy takes ~15 s cold,
# under a second warm).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
venv=${TABSIGHT_VENV:-$root/.venv}
cache=${XDG_CACHE_HOME:-$HOME/.cache}/tabsight
cd "$root"

failed=0
check() {
  local name=$1 output status started
  shift
  started=$(date +%s%N)
  output=$("$@" 2>&1)
  status=$?
  local ms=$(( ($(date +%s%N) - started) / 1000000 ))
  if [ "$status" = 0 ]; then
    printf 'lint: %s passed (%d ms)\n' "$name" "$ms"
  else
    printf 'lint: %s FAILED (%d ms):\n%s\n' "$name" "$ms" "$output"
    if [ "$name" = "ruff format --check" ]; then
      echo "lint: (\`$venv/bin/ruff format .\` formats them)"
    fi
    failed=1
  fi
}

check "ruff check" "$venv/bin/ruff" check --quiet .
check "ruff format --check" "$venv/bin/ruff" format --check --quiet --output-format concise .
check "mypy" "$venv/bin/python" -m mypy --cache-dir "$cache/mypy"
eslint=tests/lint/node_modules/.bin/eslint
if [ -x "$eslint" ]; then
  check "eslint" "$eslint" --cache --cache-strategy content --cache-location "$cache/eslint/" extension
elif [ -n "${CI:-}" ]; then
  echo "lint: eslint FAILED: not installed (tests/lint/install.sh; its output is above)"
  failed=1
else
  echo "lint: eslint skipped: not installed (tests/lint/install.sh needs npm)"
fi
exit "$failed"
