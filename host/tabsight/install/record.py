"""The install record, ``installed.json`` in the data folder: each file, folder and registry key an install
created, so uninstall removes exactly those and nothing of the user's (or, for ``--system``, of the machine's).
A re-install adds to it, so uninstall still finds the older files.
"""

from __future__ import annotations

import json
from pathlib import Path

from tabsight.nativehost.manifest import write_atomic

RECORD_NAME = "installed.json"
#: user_data_dirs: the --user-data-dir folders registered, for doctor to check; trees: folders removed whole (the
#: extension a browser keeps, a host environment)
RECORD_KINDS = ("files", "dirs", "trees", "registry_keys", "user_data_dirs")

Record = dict[str, list[str]]


def empty_record() -> Record:
    return {kind: [] for kind in RECORD_KINDS}


def read_record(directory: Path) -> Record:
    """The record in ``directory``, empty if there is none; ValueError if unreadable."""
    try:
        saved = json.loads((directory / RECORD_NAME).read_text(encoding="utf-8"))
    except FileNotFoundError:
        saved = {}
    if not isinstance(saved, dict) or not all(isinstance(saved.get(kind, []), list) for kind in RECORD_KINDS):
        raise ValueError("not an install record")
    return {kind: [str(item) for item in saved.get(kind, [])] for kind in RECORD_KINDS}


def write_record(directory: Path, record: Record) -> None:
    write_atomic(directory / RECORD_NAME, json.dumps(record, indent=2) + "\n")


def remember(record: Record, kind: str, item: Path | str) -> None:
    if str(item) not in record[kind]:
        record[kind].append(str(item))


def make_dirs(path: Path, record: Record) -> None:
    """mkdir -p that records each folder it creates, so uninstall can remove it."""
    for folder in reversed([path, *path.parents]):
        if not folder.exists():
            folder.mkdir()
            remember(record, "dirs", folder)
