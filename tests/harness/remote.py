"""Somewhere else for an agent, on loopback (tests/test_remote.py): a second local account made by the test setup,
a front (``tabsight mcp``) run as it, an sshd of the test's own for it, and the ``ssh -R`` forward a user runs.

The front runs as the account through ``setpriv`` with one capability kept, CAP_DAC_READ_SEARCH: it may read and
list what root's test checkout holds (the venv, the sources, wherever the clone is), as an agent's own copy of
tabsight would be readable to it, and nothing more: it may not write there, and opening a socket takes write
permission, which the capability does not give. So what reaches the user's host is decided as for any other
account: by the socket's and folder's modes and ACLs, and by the host's uid check.
"""

from __future__ import annotations

import json
import os
import pwd
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

from mcp import StdioServerParameters

from harness.processes import wait_until

#: the ``tabsight`` command of the checkout under test
TABSIGHT = (sys.executable, "-m", "tabsight")
#: the second local account the tests make (and keep: a later run finds it)
PEER = "tabsight-peer"
#: what the front as the peer is given of the test's environment; the rest (HOME, XDG_*) is the account's own
KEPT = ("PATH", "LANG", "LC_ALL", "TABSIGHT_START_AHEAD")


def peer_account() -> pwd.struct_passwd:
    """The second local account, made (``useradd -m``) if missing, with no password and not locked: sshd without
    PAM refuses a locked account's keys too."""
    try:
        pwd.getpwnam(PEER)
    except KeyError:
        subprocess.run(["useradd", "--create-home", "--shell", "/bin/sh", "--password", "*", PEER], check=True)
    return pwd.getpwnam(PEER)


def peer_command(account: pwd.struct_passwd, *args: str) -> list[str]:
    """``tabsight ARGS`` as ``account`` (see the module's docstring)."""
    return [
        "setpriv",
        f"--reuid={account.pw_uid}",
        f"--regid={account.pw_gid}",
        "--clear-groups",
        "--inh-caps=+dac_read_search",
        "--ambient-caps=+dac_read_search",
        "--",
        *TABSIGHT,
        *args,
    ]


def peer_env(account: pwd.struct_passwd, **env: str) -> dict[str, str]:
    """The test's environment as the account has it: ``KEPT``, ``env``, and the account's HOME."""
    environment = {name: os.environ[name] for name in KEPT if name in os.environ}
    environment.update(HOME=account.pw_dir, USER=account.pw_name, **env)
    return environment


def as_peer(account: pwd.struct_passwd, **env: str) -> StdioServerParameters:
    """``tabsight mcp`` as ``account``, with ``env``: for the SDK's client."""
    command, *args = peer_command(account, "mcp")
    return StdioServerParameters(command=command, args=args, env=peer_env(account, **env))


def in_container(account: pwd.struct_passwd, runtime: Path, mount: Path, **env: str) -> StdioServerParameters:
    """``tabsight mcp`` as ``account`` in a container of sorts, as a dev container runs an agent: a mount and a pid
    namespace of its own (``unshare``), the user's runtime folder bind-mounted at ``mount`` (an empty folder, the
    mount seen inside only), ``TABSIGHT_RUNTIME_DIR`` naming it, the host's process out of sight."""
    mount.mkdir(mode=0o755, exist_ok=True)
    command = shlex.join(peer_command(account, "mcp"))
    script = f"mount --bind {shlex.quote(str(runtime))} {shlex.quote(str(mount))} && exec {command}"
    return StdioServerParameters(
        command="unshare",
        args=["--mount", "--pid", "--fork", "--mount-proc", "sh", "-c", script],
        env=peer_env(account, TABSIGHT_RUNTIME_DIR=str(mount), **env),
    )


def owned_by(path: Path, account: pwd.struct_passwd, mode: int = 0o700) -> Path:
    """``path`` made as a folder of ``account``'s (and its missing parents inside the account's home)."""
    path.mkdir(parents=True, exist_ok=True)
    for folder in [path, *path.parents]:
        if folder == Path(account.pw_dir):
            break
        os.chown(folder, account.pw_uid, account.pw_gid)
        os.chmod(folder, mode)
    return path


@contextmanager
def settings_file(path: Path, content: dict, account: pwd.struct_passwd | None = None):
    """A tabsight settings file at ``path`` as its user writes it (0600; ``account``'s, else root's), for the
    test's length; any earlier one put back."""
    path.parent.mkdir(parents=True, exist_ok=True)
    before = path.read_bytes() if path.exists() else None
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as file:
        json.dump(content, file)
    if account is not None:
        os.chown(path, account.pw_uid, account.pw_gid)
        owned_by(path.parent, account)
    try:
        yield path
    finally:
        if before is None:
            path.unlink()
        else:
            path.write_bytes(before)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Sshd:
    """Debian's sshd on 127.0.0.1, a configuration of the test's own: key-based login for ``account`` only,
    Unix-socket forwarding allowed (OpenSSH takes it only with AllowTcpForwarding ``remote`` or ``yes``), a
    forward's socket made 0600 and replacing a stale one (``StreamLocalBindUnlink``)."""

    def __init__(self, folder: Path, account: pwd.struct_passwd) -> None:
        self.folder = folder
        self.account = account
        self.port = free_port()
        self.key = folder / "client_key"
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> Sshd:
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        host_key = self.folder / "host_key"
        for key in (host_key, self.key):
            subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
        authorized = owned_by(Path(self.account.pw_dir) / ".ssh", self.account) / "authorized_keys"
        authorized.write_text(Path(f"{self.key}.pub").read_text())
        os.chown(authorized, self.account.pw_uid, self.account.pw_gid)
        os.chmod(authorized, 0o600)
        Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)  # sshd's privilege separation folder
        config = self.folder / "sshd_config"
        config.write_text(
            "\n".join(
                [
                    f"ListenAddress 127.0.0.1:{self.port}",
                    f"HostKey {host_key}",
                    f"PidFile {self.folder / 'sshd.pid'}",
                    f"AllowUsers {self.account.pw_name}",
                    "AuthenticationMethods publickey",
                    "PasswordAuthentication no",
                    "KbdInteractiveAuthentication no",
                    "UsePAM no",
                    "AllowTcpForwarding remote",
                    "AllowStreamLocalForwarding yes",
                    "StreamLocalBindUnlink yes",
                    "StreamLocalBindMask 0177",
                    "X11Forwarding no",
                    "LogLevel VERBOSE",
                    "",
                ]
            )
        )
        self.process = subprocess.Popen(
            ["/usr/sbin/sshd", "-D", "-e", "-f", str(config)], stderr=open(self.folder / "sshd.log", "wb")
        )
        wait_until(lambda: _listening(self.port) or self.process.poll() is not None, 20)
        if self.process.poll() is not None:
            raise RuntimeError(f"sshd did not start: {(self.folder / 'sshd.log').read_text()}")
        return self

    def forward(self, remote: Path, runtime: Path) -> subprocess.Popen:
        """``tabsight remote forward`` as the user runs it (the user's runtime folder: ``runtime``), to this sshd
        as the account (the port, key and known hosts file after ``--``, for ssh); returned once the far socket
        is there."""
        process = subprocess.Popen(
            [
                *TABSIGHT,
                "remote",
                "forward",
                f"{self.account.pw_name}@127.0.0.1",
                "--remote-socket",
                str(remote),
                "--",
                "-p",
                str(self.port),
                "-i",
                str(self.key),
                "-o",
                "StrictHostKeyChecking=no",
                "-o",
                f"UserKnownHostsFile={self.folder / 'known_hosts'}",
                "-o",
                "BatchMode=yes",
            ],
            env={**os.environ, "TABSIGHT_RUNTIME_DIR": str(runtime)},
            stdin=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,  # ssh with it: the test ends both, as Ctrl-C would
        )
        wait_until(lambda: remote.exists() or process.poll() is not None, 20)
        if process.poll() is not None:
            raise RuntimeError(f"tabsight remote forward failed: {process.stderr.read().decode()}")
        time.sleep(0.2)  # listening once the socket is named: sshd binds, then listens
        return process

    def __exit__(self, *exc) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(10)
        shutil.rmtree(self.folder, ignore_errors=True)


def _listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False
