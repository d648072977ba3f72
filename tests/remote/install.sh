#!/usr/bin/env bash
# What tests/test_remote.py needs: OpenSSH's server (sshd, started by the test on 127.0.0.1 with a
# configuration of its own, never as a service) and client, and setpriv (util-linux) to run a front as the
# second local user the test makes. Debian packages, installed with apt-get when missing and we can (root or
# passwordless sudo). Prints one line saying what it did; exits non-zero when they are missing and could not be
# installed.
set -euo pipefail

say() { printf 'remote: %s\n' "$*"; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo "$@"; else return 1; fi
}

missing=()
for tool in /usr/sbin/sshd:openssh-server ssh:openssh-client ssh-keygen:openssh-client setpriv:util-linux; do
  command -v "${tool%%:*}" >/dev/null || missing+=("${tool#*:}")
done
if [ ${#missing[@]} -eq 0 ]; then
  say "sshd, ssh and setpriv are installed"
  exit 0
fi
packages=$(printf '%s\n' "${missing[@]}" | sort -u | tr '\n' ' ')
if ! command -v apt-get >/dev/null; then
  say "missing: $packages(install them to run tests/test_remote.py)" >&2
  exit 1
fi
# the package's own service is not wanted (the test starts its sshd): in runlevel 1 invoke-rc.d starts none
# shellcheck disable=SC2086
as_root env DEBIAN_FRONTEND=noninteractive RUNLEVEL=1 apt-get install -y -qq $packages >/dev/null \
  || { say "could not install $packages(apt-get needs root or passwordless sudo)" >&2; exit 1; }
say "installed $packages"
