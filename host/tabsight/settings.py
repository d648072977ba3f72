"""What only the user may allow: tabsight's settings file, read by the host.

An agent can be talked by a page into any call, and may be able to edit the MCP client's configuration (a
project's ``.mcp.json``, ``.cursor/mcp.json``) and so tabsight's environment. So what widens the security boundary
is never a tool argument nor an environment variable: it lives in one file in the user's own configuration
folder, found from the account's home folder in the password database (not ``HOME`` or ``XDG_CONFIG_HOME``, which
the environment sets), and counts only when it is the user's own regular file, mode 0600 or stricter, not a
symlink:

- Linux and others: ``~/.config/tabsight/settings.json``
- macOS: ``~/Library/Application Support/tabsight/settings.json``

Its content, each key optional (``false`` or empty when absent)::

    {"embedded_browser": {"read_cookies": false, "write_cookies": false},
     "users_browser":    {"read_cookies": false, "write_cookies": false},
     "peer_uids": []}

``read_cookies`` lets ``execute``'s CDP steps read cookies (``Network.getCookies``, ``getAllCookies``,
``Storage.getCookies``) and stops the masking of cookie values in ``execute``'s answers; ``write_cookies`` lets them
set and delete cookies of the tab's own site (never another's, never all at once). The host reads the file on
every ``execute``, so a change counts from the next call.

``peer_uids`` lists the uids besides the user's own that tabsight's processes talk to over its sockets
(docs/remote.md): on the browser's side, the host serves fronts of these uids (a container's agent, which the
kernel reports as another uid under a rootful engine or a user namespace that does not map to the user) and opens
its runtime folder and socket to them (a POSIX ACL, ``grant_peers``); on the agent's side, a front uses a host of
these uids. Read at each connection.
"""

from __future__ import annotations

import json
import logging
import os
import stat
import sys
from pathlib import Path

log = logging.getLogger(__name__)

#: what each kind of browser may be allowed, all refused by default
PERMISSIONS = ("read_cookies", "write_cookies")
#: the file's key for each kind of browser
KINDS = {"own": "embedded_browser", "user": "users_browser"}


def settings_path() -> Path:
    """The settings file's path, from the account's home folder (not the environment's)."""
    try:
        import pwd

        home = Path(pwd.getpwuid(os.getuid()).pw_dir)
    except (ImportError, KeyError):  # Windows, or an account without an entry
        home = Path.home()
    if sys.platform == "darwin":
        return home / "Library" / "Application Support" / "tabsight" / "settings.json"
    return home / ".config" / "tabsight" / "settings.json"


def allowed(kind: str) -> dict[str, bool]:
    """What the user allowed for a kind of browser (``own`` or ``user``): each of ``PERMISSIONS``, ``False``
    unless the settings file, when it counts, says ``true``."""
    section = _content().get(KINDS[kind])
    if not isinstance(section, dict):
        return dict.fromkeys(PERMISSIONS, False)
    return {name: section.get(name) is True for name in PERMISSIONS}


def peer_uids() -> frozenset[int]:
    """The uids besides the user's own that the settings file lists under ``peer_uids`` (none by default); an
    entry that is not a uid is skipped, with a warning."""
    listed = _content().get("peer_uids", [])
    if not isinstance(listed, list):
        log.warning("tabsight's settings file %s: peer_uids must be a list of uids; ignored", settings_path())
        return frozenset()
    uids = {entry for entry in listed if type(entry) is int and 0 <= entry < 2**32 - 1}
    if len(uids) != len(listed):
        log.warning("tabsight's settings file %s: peer_uids takes uids (0-4294967294) only", settings_path())
    return frozenset(uids)


def _content() -> dict:
    """The settings file's object when it counts (the user's own regular file, 0600, JSON), else ``{}``."""
    path = settings_path()
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except FileNotFoundError:
        return {}
    except OSError as exc:
        log.warning("tabsight's settings file %s is not read: %s", path, exc.strerror)
        return {}
    with os.fdopen(fd, "rb") as file:
        info = os.fstat(file.fileno())
        if not stat.S_ISREG(info.st_mode) or (hasattr(os, "getuid") and info.st_uid != os.getuid()):
            log.warning("tabsight's settings file %s is not read: it must be a regular file of your own", path)
            return {}
        if stat.S_IMODE(info.st_mode) & 0o077:
            log.warning("tabsight's settings file %s is not read: its mode must be 0600 (chmod 600 it)", path)
            return {}
        try:
            content = json.loads(file.read(65536))
        except ValueError as exc:
            log.warning("tabsight's settings file %s is not read: %s", path, exc)
            return {}
    return content if isinstance(content, dict) else {}
