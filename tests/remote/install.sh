#!/usr/bin/env bash
# What tests/test_remote.py needs: OpenSSH's server (sshd, started by the test on 127.0.0.1 with a
# configuration of its own, never as a service) and client, and setpriv (util-linux) to run a front as the
# second local user the test makes. Debian packages, installed by tests/apt-tools.sh when missing.
exec bash "$(dirname "$0")/../apt-tools.sh" remote tests/test_remote.py \
  /usr/sbin/sshd:openssh-server ssh:openssh-client ssh-keygen:openssh-client setpriv:util-linux
