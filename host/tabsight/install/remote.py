"""``tabsight remote``: a browser here, an agent on another machine, joined by OpenSSH's Unix-socket forwarding.

- ``tabsight remote where [--name NAME]``, on the agent's machine: the path a forward should make there, a socket
  in that machine's runtime folder named ``host-NAME.sock``, where its fronts look for hosts.
- ``tabsight remote forward DESTINATION``, on the browser's machine: ``ssh -N -R <that path>:<the profile's
  socket> DESTINATION``, run in the foreground (Ctrl-C ends it). The profile's socket is the stable name its host
  gives it (``profile-<id>.sock``, nativehost/sharing.py), so the forward outlives browser and host restarts.
  The path on the far side is asked of the remote's ``tabsight remote where`` over ssh, unless given
  (``--remote-socket``). Arguments after ``--`` go to ssh as they are (``-p 2222``, ``-i KEY``, ``-J jump``).

Nothing listens on a port: sshd makes the far socket (mode 0600 with OpenSSH's default ``StreamLocalBindMask``),
and the user's own ssh client is what the host sees connect, a process of the user's.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import TextIO

from ..errors import BrowserError
from ..nativehost.sharing import profile_digits
from ..paths import FolderError, runtime_dir

NAME = re.compile(r"[A-Za-z0-9_-]{1,32}")
#: ssh's options for a forward that says so when it cannot be made, and notices a dead link within a minute
SSH_OPTIONS = ("-N", "-o", "ExitOnForwardFailure=yes", "-o", "ServerAliveInterval=15", "-o", "ServerAliveCountMax=3")


def run(args: argparse.Namespace, out: TextIO = sys.stdout, err: TextIO = sys.stderr) -> int:
    """``tabsight remote``'s actions (their arguments: cli.py); the exit status."""
    try:
        if args.remote_action == "where":
            if not NAME.fullmatch(args.name):
                print(f"tabsight remote where: --name {args.name!r}: letters, digits, _ or -, 1-32 of them", file=err)
                return 2
            print(runtime_dir() / f"host-{args.name}.sock", file=out)
            return 0
        return _forward(args, out, err)
    except (FolderError, BrowserError) as exc:
        print(f"tabsight remote: {exc}", file=err)
        return 1


def _forward(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    extra = args.ssh_args
    local = _profile_socket(args.profile, err)
    if local is None:
        return 1
    remote = args.remote_socket or _ask_where(args.destination, extra, err)
    if remote is None:
        return 1
    command = ["ssh", *SSH_OPTIONS, *extra, "-R", f"{remote}:{local}", args.destination]
    if args.print:
        print(shlex.join(command), file=out)
        return 0
    print(f"forwarding {local.name} to {args.destination}:{remote} (Ctrl-C ends it)", file=err, flush=True)
    return subprocess.call(command)


def _profile_socket(profile: str | None, err: TextIO) -> Path | None:
    """The stable socket of the user's browser profile to forward: the only one running, or ``profile``'s."""
    sockets = sorted(runtime_dir().glob("profile-*.sock"))
    if profile:
        digits = profile_digits(profile)
        sockets = [path for path in sockets if digits and path.stem.removeprefix("profile-").startswith(digits)]
    if len(sockets) == 1:
        return sockets[0]
    if not sockets:
        print(
            "tabsight remote forward: no browser profile of yours with tabsight is running here"
            + (f" whose id starts {profile}" if profile else "")
            + " (`tabsight doctor` says why); open the browser first",
            file=err,
        )
    else:
        names = ", ".join(path.stem.removeprefix("profile-") for path in sockets)
        print(f"tabsight remote forward: several profiles run here ({names}): choose one with --profile", file=err)
    return None


def _ask_where(destination: str, extra: list[str], err: TextIO) -> str | None:
    """The forward's path on ``destination``, from its own ``tabsight remote where``."""
    asked = subprocess.run(
        ["ssh", *extra, destination, "tabsight", "remote", "where"], capture_output=True, text=True, timeout=60
    )
    path = asked.stdout.strip()
    if asked.returncode == 0 and os.path.isabs(path) and path.endswith(".sock"):
        return path
    print(
        f"tabsight remote forward: could not ask {destination} where its runtime folder is "
        f"({(asked.stderr.strip().splitlines() or ['no answer'])[-1]}); run `tabsight remote where` there and "
        "give its answer as --remote-socket",
        file=err,
    )
    return None
