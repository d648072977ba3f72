"""``tabsight install``, ``uninstall`` and ``doctor``.

install registers the native host with every browser found and keeps a record
of each file, folder and registry key it created in ``installed.json``, so
uninstall removes exactly those and nothing of the user's. doctor walks the
chain browser -> manifest -> launcher -> host -> extension, one line per link,
and gives the fix for each broken one.
"""

from __future__ import annotations

import functools
import json
import os
import shlex
import subprocess
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, TextIO

import anyio

from tabsight import NATIVE_HOST_NAME, __version__
from tabsight.install.detect import Browser, Detection, detect, manifest_path, registry_key
from tabsight.nativehost.manifest import data_dir, write_atomic, write_launcher, write_manifest
from tabsight.paths import extension_dir, extension_id, extension_origin

RECORD_NAME = "installed.json"
RECORD_KINDS = ("files", "dirs", "registry_keys")

INSTALL_FIX = "run `tabsight install`"
NO_HOST_FIX = "open the browser with the tabsight extension loaded, or let `tabsight mcp` start its embedded browser"

Record = dict[str, list[str]]


# --- MCP client configuration (the README shows the same snippets) ---------


def tabsight_command() -> str:
    """The ``tabsight`` executable beside this Python, as an absolute path.

    MCP clients start servers with their own PATH, which seldom includes the
    virtual environment tabsight lives in; the bare name is the fallback.
    """
    candidate = Path(sys.executable).parent / ("tabsight.exe" if sys.platform == "win32" else "tabsight")
    return str(candidate) if candidate.is_file() else "tabsight"


def mcp_client_snippets(command: str = "tabsight") -> list[tuple[str, str]]:
    """(where it goes, what to put there) for the common MCP clients."""
    shell_word = subprocess.list2cmdline([command]) if sys.platform == "win32" else shlex.quote(command)
    return [
        ("Claude Code, in a shell", f"claude mcp add tabsight -- {shell_word} mcp"),
        ("Cursor, ~/.cursor/mcp.json", json.dumps({"mcpServers": {"tabsight": {"command": command, "args": ["mcp"]}}}, indent=2)),
        (
            "VS Code, .vscode/mcp.json in the workspace",
            json.dumps({"servers": {"tabsight": {"type": "stdio", "command": command, "args": ["mcp"]}}}, indent=2),
        ),
        # A JSON string is a valid TOML basic string.
        ("Codex, ~/.codex/config.toml", f'[mcp_servers.tabsight]\ncommand = {json.dumps(command)}\nargs = ["mcp"]'),
    ]


# --- install ---------------------------------------------------------------


def run_install(
    out: TextIO, home: Path | None = None, environ: Mapping[str, str] | None = None, platform: str = sys.platform
) -> int:
    """Register the host for every browser found, then tell the user the remaining steps."""
    environ = os.environ if environ is None else environ
    directory = data_dir(environ)
    try:
        record = _read_record(directory)  # a re-install adds to it, so uninstall still finds the old files
    except ValueError as error:
        print(f"{directory / RECORD_NAME} is corrupt ({error}); remove it and run `tabsight install` again", file=out)
        return 1
    detection = detect(home, environ, platform)
    _make_dirs(directory, record)
    launcher = write_launcher(directory, platform=platform)
    _remember(record, "files", launcher)
    registered: list[tuple[Browser, str]] = []
    failures = 0
    for browser in detection.found:
        try:
            registered.append((browser, _register(browser, launcher, directory, record, home, environ)))
        except OSError as error:
            failures += 1
            print(f"could not register {browser.name}: {error}", file=out)
    _write_record(directory, record)
    _print_install_report(out, launcher, registered, detection)
    return 1 if failures else 0


def _register(
    browser: Browser, launcher: Path, directory: Path, record: Record, home: Path | None, environ: Mapping[str, str]
) -> str:
    """Put the manifest where this browser reads it; return that place for the report."""
    if browser.platform == "win32":
        manifest = directory / f"{NATIVE_HOST_NAME}.json"
        write_manifest(manifest, launcher)
        _remember(record, "files", manifest)
        key = registry_key(browser)
        _set_registry_value(key, str(manifest))
        _remember(record, "registry_keys", key)
        return rf"HKCU\{key}"
    manifest = manifest_path(browser, home, environ)
    _make_dirs(manifest.parent, record)
    write_manifest(manifest, launcher)
    _remember(record, "files", manifest)
    return str(manifest)


def _print_install_report(out: TextIO, launcher: Path, registered: list[tuple[Browser, str]], detection: Detection) -> None:
    print(f"tabsight {__version__}: native host {NATIVE_HOST_NAME}, launcher {launcher}", file=out)
    if registered:
        print("\nRegistered for:", file=out)
        for browser, where in registered:
            print(f"  {browser.name}: {where}", file=out)
    else:
        print(
            "\nNo Chromium-family browser found (Chrome, Chromium, Brave, Edge, Vivaldi, Arc): nothing registered."
            "\n`tabsight mcp` can still start its embedded browser; after installing a browser, run `tabsight install` again.",
            file=out,
        )
    if detection.unsupported:
        print("\nNot registered:", file=out)
        for item in detection.unsupported:
            print(f"  {item.name} ({item.where}): {item.reason}", file=out)
    print(
        f"\nExtension id: {extension_id()}"
        "\n\nLoad the extension in each browser profile you want agents to see:"
        "\n  1. open chrome://extensions"
        "\n  2. turn on Developer mode"
        f"\n  3. click Load unpacked and pick {extension_dir()}"
        "\n  (if it was already loaded, click its reload button so it connects to the host)"
        "\n\nConnect your MCP client:",
        file=out,
    )
    for where, snippet in mcp_client_snippets(tabsight_command()):
        print(f"\n{where}:\n" + "\n".join(f"    {line}" for line in snippet.splitlines()), file=out)
    print("\nCheck every link with: tabsight doctor", file=out)


# --- uninstall -------------------------------------------------------------


def run_uninstall(out: TextIO, environ: Mapping[str, str] | None = None) -> int:
    """Remove what installed.json lists, then the record itself."""
    directory = data_dir(environ)
    record_path = directory / RECORD_NAME
    if not record_path.exists():
        print(f"Nothing to uninstall: no {record_path}", file=out)
        return 0
    try:
        record = _read_record(directory)
    except ValueError as error:
        print(f"{record_path} is corrupt ({error}); nothing removed", file=out)
        return 1
    for key in record["registry_keys"]:
        _delete_registry_key(key)
        print(rf"removed HKCU\{key}", file=out)
    for name in record["files"]:
        path = Path(name)
        print(f"removed {path}" if path.exists() else f"already gone: {path}", file=out)
        path.unlink(missing_ok=True)
    record_path.unlink()
    for name in sorted(record["dirs"], key=lambda d: len(Path(d).parts), reverse=True):
        try:
            Path(name).rmdir()
        except OSError:
            pass  # gone already, or something else now keeps files there
    print("tabsight's native host is unregistered; remove the extension at chrome://extensions", file=out)
    return 0


# --- the install record ----------------------------------------------------


def _read_record(directory: Path) -> Record:
    """The previous install's record, empty if there is none; ValueError if unreadable."""
    try:
        saved = json.loads((directory / RECORD_NAME).read_text(encoding="utf-8"))
    except FileNotFoundError:
        saved = {}
    if not isinstance(saved, dict) or not all(isinstance(saved.get(kind, []), list) for kind in RECORD_KINDS):
        raise ValueError("not an install record")
    return {kind: [str(item) for item in saved.get(kind, [])] for kind in RECORD_KINDS}


def _write_record(directory: Path, record: Record) -> None:
    write_atomic(directory / RECORD_NAME, json.dumps(record, indent=2) + "\n")


def _remember(record: Record, kind: str, item: Path | str) -> None:
    if str(item) not in record[kind]:
        record[kind].append(str(item))


def _make_dirs(path: Path, record: Record) -> None:
    """mkdir -p that records each folder it creates, so uninstall can remove it."""
    for folder in reversed([path, *path.parents]):
        if not folder.exists():
            folder.mkdir()
            _remember(record, "dirs", folder)


# --- Windows registry (winreg exists only there) ---------------------------


def _set_registry_value(key: str, value: str) -> None:
    import winreg

    with winreg.CreateKey(winreg.HKEY_CURRENT_USER, key) as handle:
        winreg.SetValueEx(handle, "", 0, winreg.REG_SZ, value)


def _read_registry_value(key: str) -> str | None:
    import winreg

    try:
        return winreg.QueryValue(winreg.HKEY_CURRENT_USER, key)
    except FileNotFoundError:
        return None


def _delete_registry_key(key: str) -> None:
    import winreg

    try:
        winreg.DeleteKey(winreg.HKEY_CURRENT_USER, key)
    except FileNotFoundError:
        pass


# --- doctor ----------------------------------------------------------------


@dataclass(frozen=True)
class Check:
    status: Literal["ok", "FAIL", "note"]
    what: str
    fix: str = ""

    def line(self) -> str:
        return f"{self.status:<4}  {self.what}" + (f"  -> fix: {self.fix}" if self.fix else "")


def ok(what: str) -> Check:
    return Check("ok", what)


def fail(what: str, fix: str) -> Check:
    return Check("FAIL", what, fix)


def run_doctor(
    out: TextIO, home: Path | None = None, environ: Mapping[str, str] | None = None, platform: str = sys.platform
) -> int:
    """Print one line per link of the chain; exit 0 only if none failed."""
    failed = False
    for check in _doctor_checks(home, environ, platform):
        print(check.line(), file=out)
        failed |= check.status == "FAIL"
    return 1 if failed else 0


def _doctor_checks(home: Path | None, environ: Mapping[str, str] | None, platform: str) -> Iterator[Check]:
    try:
        origin = extension_origin()
    except (OSError, KeyError, ValueError) as error:
        yield fail(f"extension files unreadable: {error}", "reinstall tabsight")
        return
    yield ok(f"extension id {extension_id()} (from the key in {extension_dir() / 'manifest.json'})")
    detection = detect(home, environ, platform)
    if not detection.found:
        yield fail("no Chromium-family browser found", "install Google Chrome or Chromium, then run `tabsight install`")
    for browser in detection.found:
        yield from _manifest_checks(browser, origin, home, environ)
    for item in detection.unsupported:
        yield Check("note", f"{item.name} ({item.where}) is not supported: {item.reason}")
    yield from _host_checks()


def _manifest_checks(browser: Browser, origin: str, home: Path | None, environ: Mapping[str, str] | None) -> Iterator[Check]:
    where, path = _registered_manifest(browser, home, environ)
    label = browser.name
    if path is None or not path.is_file():
        yield fail(f"{label}: no host manifest at {where}", INSTALL_FIX)
        return
    yield ok(f"{label}: manifest at {where}")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(manifest, dict):
            raise ValueError("not a JSON object")
    except (OSError, ValueError) as error:
        yield fail(f"{label}: {path} is not valid JSON ({error})", INSTALL_FIX)
        return
    yield ok(f"{label}: manifest is valid JSON")
    for field, expected in (("name", NATIVE_HOST_NAME), ("type", "stdio")):
        yield _expect_field(label, manifest, field, expected)
    launcher = Path(str(manifest.get("path", "")))
    if launcher.is_absolute() and launcher.is_file() and os.access(launcher, os.X_OK):
        yield ok(f"{label}: launcher {launcher} is executable")
    else:
        yield fail(f"{label}: launcher {launcher} is missing or not executable", INSTALL_FIX)
    yield _expect_field(label, manifest, "allowed_origins", [origin])


def _expect_field(label: str, manifest: dict, field: str, expected: object) -> Check:
    value = manifest.get(field)
    if value == expected:
        return ok(f"{label}: {field} is {value!r}")
    return fail(f"{label}: {field} is {value!r}, expected {expected!r}", INSTALL_FIX)


def _registered_manifest(browser: Browser, home: Path | None, environ: Mapping[str, str] | None) -> tuple[str, Path | None]:
    """Where the browser will look (for the report) and the manifest file found there."""
    if browser.platform == "win32":
        key = registry_key(browser)
        value = _read_registry_value(key)
        return rf"HKCU\{key}", Path(value) if value else None
    path = manifest_path(browser, home, environ)
    return str(path), path


def _host_checks() -> Iterator[Check]:
    from tabsight.browser.hosts import probe_hosts

    try:
        hosts = anyio.run(functools.partial(probe_hosts, timeout=1.0))
    except OSError as error:
        yield fail(f"could not look for running hosts: {error}", "fix the folder the error names, or set TABSIGHT_RUNTIME_DIR")
        return
    if not hosts:
        yield fail("no tabsight host running", NO_HOST_FIX)
    for host in hosts:
        label = f"host pid {host.pid}" + (f" (embedded browser {host.embedded})" if host.embedded else "")
        if host.version == __version__:
            yield ok(f"{label} runs tabsight {host.version}")
        else:
            yield fail(f"{label} runs tabsight {host.version}, this is {__version__}", "restart the browser")
        extension = host.extension
        if extension is None:
            yield fail(f"{label}: no extension connected", "reload the extension at chrome://extensions, or restart the browser")
        elif extension.version != __version__:
            yield fail(
                f"{label}: extension {extension.version} connected, expected {__version__}",
                "reload the extension at chrome://extensions",
            )
        else:
            browser = f"{extension.browser.name} {extension.browser.version}".strip()
            yield ok(f"{label}: extension {extension.version} connected from {browser}, profile {extension.profile_id}")
