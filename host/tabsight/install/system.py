"""``tabsight install --system`` (root, Linux): the extension and the host for every user's browsers, Google
Chrome included, which reads no per-user extension folder.

The mechanism is the one every Chromium-family browser on Linux reads: managed policy. A file
``<browser's machine folder>/policies/managed/tabsight.json`` force-installs the extension
(``ExtensionInstallForcelist``) from a local update manifest (``file:///opt/tabsight/update.xml``, whose
codebase is the packed ``.crx``); a higher version there updates it, removing the file removes it, each at the
browser's next start. (Debian's Chromium wrapper turns its system extension folder, /usr/share/chromium/extensions,
into --load-extension and shows a blocking dialog for a ``.json`` there, so that folder is not used.) The host is
registered in each browser's machine-wide ``native-messaging-hosts`` folder. Everything the browsers keep is in
/opt/tabsight (``paths.SYSTEM_DATA_DIR``), readable by every user: the launcher, a host environment of its own
(the interpreter running the install may live in root's home), the extension and its packed form; the key that
signs it stays root's, 0600.

What the user sees: the browser says "Managed by your organization" and the extension "Installed by your
administrator"; users cannot turn it off, ``sudo tabsight uninstall --system`` removes it. Each user's MCP client
still runs that user's own ``tabsight mcp``.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TextIO

from tabsight import __version__
from tabsight.errors import BrowserError
from tabsight.install import crx, hostenv
from tabsight.install.commands import pack_recorded, run_uninstall
from tabsight.install.detect import system_folders
from tabsight.install.record import RECORD_NAME, make_dirs, read_record, remember, write_record
from tabsight.nativehost.manifest import write_atomic, write_launcher, write_manifest
from tabsight.paths import SYSTEM_DATA_DIR

UPDATE_MANIFEST_NAME = "update.xml"
FORCELIST = "ExtensionInstallForcelist"
#: Chrome's update manifest (the "gupdate" format, protocol 2.0) naming the packed extension
UPDATE_MANIFEST = """<?xml version='1.0' encoding='UTF-8'?>
<gupdate xmlns='http://www.google.com/update2/response' protocol='2.0'>
  <app appid='{id}'>
    <updatecheck codebase='{crx}' version='{version}' />
  </app>
</gupdate>
"""


def forcelist_entry(extension_id: str, directory: Path = SYSTEM_DATA_DIR) -> str:
    """The ``ExtensionInstallForcelist`` item: the extension's id and its update manifest's URL."""
    return f"{extension_id};{(directory / UPDATE_MANIFEST_NAME).as_uri()}"


def run_uninstall_system(out: TextIO, euid: int | None = None) -> int:
    """Remove what the system install's record lists (commands.run_uninstall)."""
    if not _root(euid) and (SYSTEM_DATA_DIR / RECORD_NAME).exists():
        print("--system removes machine-wide files: run it as root, `sudo tabsight uninstall --system`", file=out)
        return 1
    return run_uninstall(out, SYSTEM_DATA_DIR)


def run_install_system(
    out: TextIO, environ: Mapping[str, str] | None = None, platform: str = sys.platform, euid: int | None = None
) -> int:
    """Install for every user of this machine (see the module's docstring); the report says what to restart."""
    environ = os.environ if environ is None else environ
    if platform != "linux":
        print(
            "--system is for Linux only: on macOS and Windows, browsers install extensions from outside the Chrome "
            "Web Store only when an organization manages them; run `tabsight install` and load the extension "
            "unpacked (docs/browsers.md)",
            file=out,
        )
        return 1
    if not _root(euid):
        print(
            "--system writes machine-wide folders (/opt, /etc): run it as root, `sudo tabsight install --system`",
            file=out,
        )
        return 1
    folders = system_folders(environ=environ)
    if not folders:
        print(
            "no browser found that --system serves (Google Chrome, Chromium, Microsoft Edge); nothing written; "
            "for another browser, run `tabsight install` as its user",
            file=out,
        )
        return 1
    directory = SYSTEM_DATA_DIR
    previous = os.umask(0o022)  # what the browsers keep must be readable by every user (the key is made 0600)
    try:
        try:
            record = read_record(directory)
        except ValueError as error:
            print(f"{directory / RECORD_NAME} is corrupt ({error}); remove it and run the install again", file=out)
            return 1
        try:
            make_dirs(directory, record)
            python = hostenv.make_host_env(directory / hostenv.ENV_NAME, environ, hostenv.shared_interpreter())
            remember(record, "trees", directory / hostenv.ENV_NAME)
            launcher = write_launcher(directory, str(python), data=directory)
            remember(record, "files", launcher)
            packed = pack_recorded(directory, record)
        except (OSError, BrowserError, hostenv.HostEnvError, crx.PackError) as error:
            if directory.is_dir():
                write_record(directory, record)  # what was made, for uninstall
            print(f"could not prepare {directory} ({error}); no browser registered", file=out)
            return 1
        update = directory / UPDATE_MANIFEST_NAME
        write_atomic(
            update, UPDATE_MANIFEST.format(id=packed.extension_id, crx=packed.crx.as_uri(), version=packed.version)
        )
        remember(record, "files", update)
        entry = forcelist_entry(packed.extension_id, directory)
        lines, notes, failures = [], [], 0
        for folder in folders:
            try:
                for path in (folder.host_manifest, folder.policy):
                    make_dirs(path.parent, record)
                write_manifest(folder.host_manifest, launcher)
                remember(record, "files", folder.host_manifest)
                write_atomic(folder.policy, json.dumps({FORCELIST: [entry]}, indent=2) + "\n")
                remember(record, "files", folder.policy)
                lines.append(f"  {', '.join(folder.browsers)}: {folder.host_manifest}, {folder.policy}")
                notes += _conflicts(folder.policy, entry)
            except OSError as error:
                failures += 1
                print(f"could not register {', '.join(folder.browsers)}: {error}", file=out)
        write_record(directory, record)
    finally:
        os.umask(previous)
    print(
        f"tabsight {__version__}, for every user of this machine: host launcher {launcher}, extension id "
        f"{packed.extension_id} ({packed.crx}, force-installed by managed policy)\n\nRegistered for:\n"
        + "\n".join(lines)
        + "\n\nRestart those browsers (every user's): they install the extension at their next start. They then "
        'say "Managed by your organization", and the extension "Installed by your administrator"; '
        "`sudo tabsight uninstall --system` removes it."
        "\nEach user's MCP client runs that user's own tabsight (`uv tool install tabsight`, then "
        "`claude mcp add -s user tabsight -- tabsight mcp`); check with `tabsight doctor`.",
        file=out,
    )
    for note in notes:
        print(f"\nnote: {note}", file=out)
    return 1 if failures else 0


def _root(euid: int | None) -> bool:
    """Whether this runs as root (``euid``: the effective uid to judge instead, in tests)."""
    return (os.geteuid() if euid is None else euid) == 0


def _conflicts(ours: Path, entry: str) -> list[str]:
    """Other policy files of the folder that set the force-install list too: a browser takes one file's list,
    not both, so ours or theirs may be ignored."""
    notes = []
    for other in sorted(ours.parent.glob("*.json")):
        if other == ours:
            continue
        try:
            policies = json.loads(other.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(policies, dict) and FORCELIST in policies:
            notes.append(
                f"{other} sets {FORCELIST} too, and a browser applies one file's list only: add "
                f'"{entry}" to that list, or the extension may not be installed'
            )
    return notes
