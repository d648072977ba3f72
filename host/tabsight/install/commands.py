"""``tabsight install``, ``uninstall`` and ``doctor``.

install registers the native host with every browser found (and in each
``--user-data-dir`` folder given: a browser started with one reads manifests
there only) and keeps a record of each file, folder and registry key it
created in ``installed.json``, so uninstall removes exactly those and nothing
of the user's. doctor walks the chain browser -> manifest -> launcher -> host
-> extension, one line per link, then says what is wrong and how to fix it
(see :mod:`tabsight.install.diagnose`).
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TextIO

from tabsight import NATIVE_HOST_NAME, __version__, config, redact
from tabsight.browsers import Browser, user_data_dir
from tabsight.errors import BrowserError
from tabsight.install import crx, hostenv
from tabsight.install.detect import (
    Detection,
    detect,
    manifest_in,
    manifest_paths,
    registry_key,
    sandboxed,
    system_folders,
    system_manifest,
)
from tabsight.install.diagnose import (
    INSTALL_FIX,
    NO_HOST_FIX,
    Check,
    HostScan,
    Place,
    Process,
    Running,
    extension_profiles,
    fail,
    launcher_of,
    list_processes,
    manifest_checks,
    manifest_problem,
    ok,
    running_browsers,
    scan_hosts,
    verdict,
)
from tabsight.install.record import (
    RECORD_NAME,
    Record,
    empty_record,
    make_dirs,
    read_record,
    remember,
    write_record,
)
from tabsight.nativehost.manifest import write_atomic, write_launcher, write_manifest
from tabsight.paths import (
    SYSTEM_DATA_DIR,
    FolderError,
    data_dir,
    extension_dir,
    extension_id,
    extension_id_from_key,
    extension_ids,
    extension_origin,
    installed_extension_dir,
)

__all__ = ["INSTALL_FIX", "NO_HOST_FIX", "Check", "fail", "ok", "run_doctor", "run_install", "run_uninstall"]

# --- MCP client configuration (docs/clients.md shows the same snippets) ---------


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
    # Cursor and Claude Desktop read the same form
    mcp_servers = json.dumps({"mcpServers": {"tabsight": {"command": command, "args": ["mcp"]}}}, indent=2)
    return [
        ("Claude Code, in a shell", f"claude mcp add tabsight -- {shell_word} mcp"),
        ("Cursor, ~/.cursor/mcp.json", mcp_servers),
        (
            "VS Code, .vscode/mcp.json in the workspace",
            json.dumps({"servers": {"tabsight": {"type": "stdio", "command": command, "args": ["mcp"]}}}, indent=2),
        ),
        # A JSON string is a valid TOML basic string.
        ("Codex, ~/.codex/config.toml", f'[mcp_servers.tabsight]\ncommand = {json.dumps(command)}\nargs = ["mcp"]'),
        ("Gemini CLI, in a trusted folder", f"gemini mcp add tabsight {shell_word} mcp"),
        ("Claude Desktop, claude_desktop_config.json", mcp_servers),
    ]


# --- install ---------------------------------------------------------------


def run_install(
    out: TextIO,
    home: Path | None = None,
    environ: Mapping[str, str] | None = None,
    platform: str = sys.platform,
    user_data_dirs: Sequence[Path] = (),
) -> int:
    """Register the host for every browser found and in each ``user_data_dirs`` folder,
    then tell the user the remaining steps."""
    environ = os.environ if environ is None else environ
    directory = data_dir()
    made = empty_record()
    try:
        make_dirs(directory, made)
        probe = directory / ".writable"
        probe.write_text("")
        probe.unlink()
    except OSError as error:
        print(
            f"cannot write tabsight's data folder {directory} ({error.strerror or error}): set TABSIGHT_DATA_DIR to "
            "an absolute folder of yours that you can write, then run `tabsight install` again; nothing registered",
            file=out,
        )
        return 1
    try:
        record = read_record(directory)  # a re-install adds to it, so uninstall still finds the old files
    except ValueError as error:
        print(f"{directory / RECORD_NAME} is corrupt ({error}); remove it and run `tabsight install` again", file=out)
        return 1
    for created in made["dirs"]:
        remember(record, "dirs", created)
    detection = detect(home, environ, platform)
    try:
        python = hostenv.host_python(directory, environ)
    except hostenv.HostEnvError as error:
        print(f"{error}; nothing registered", file=out)
        return 1
    if Path(python).is_relative_to(directory / hostenv.ENV_NAME):
        remember(record, "trees", directory / hostenv.ENV_NAME)
    launcher = write_launcher(directory, python, platform=platform)
    remember(record, "files", launcher)
    # before the host manifests: they allow the id of this machine's key too (paths.extension_ids)
    packed = _pack_extension(directory, record, out) if platform == "linux" else None
    registered: list[tuple[str, str]] = []
    installed: list[str] = []
    failures = 0
    for browser in detection.found:
        try:
            registered.append((browser.name, _register(browser, launcher, directory, record, home, environ)))
            if packed is not None and browser.external_extensions:
                installed.append(_add_external(user_data_dir(browser, home, environ), packed, record))
        except OSError as error:
            failures += 1
            print(f"could not register {browser.name}: {error}", file=out)
    for folder in user_data_dirs:
        folder = Path(folder).expanduser().absolute()
        if platform == "win32":
            print(
                f"{folder}: nothing to do on Windows (browsers find the host through the registry, "
                "whatever their --user-data-dir)",
                file=out,
            )
            continue
        sandbox = sandboxed(folder, home or Path.home())
        if sandbox:
            failures += 1
            print(f"not registered in {folder}: {sandbox}", file=out)
            continue
        try:
            manifest = manifest_in(folder)
            make_dirs(manifest.parent, record)
            write_manifest(manifest, launcher)
            remember(record, "files", manifest)
            remember(record, "user_data_dirs", folder)
            registered.append((f"--user-data-dir {folder}", str(manifest)))
            if packed is not None:
                installed.append(_add_external(folder, packed, record))
        except OSError as error:
            failures += 1
            print(f"could not register in {folder}: {error}", file=out)
    write_record(directory, record)
    _print_install_report(out, launcher, registered, detection, packed, installed)
    return 1 if failures else 0


def _pack_extension(directory: Path, record: Record, out: TextIO) -> crx.Packed | None:
    """The extension packed with this machine's key into the data folder (install/crx.py), or None, said why."""
    try:
        return pack_recorded(directory, record)
    except (crx.PackError, BrowserError, OSError) as error:
        print(f"could not pack the extension for your browsers ({error}): load it unpacked instead (below)", file=out)
        return None


def pack_recorded(directory: Path, record: Record) -> crx.Packed:
    """``crx.pack`` into ``directory`` with the Chromium tabsight finds, what it made remembered for uninstall."""
    from tabsight.browser.embedded import find_browser

    packed = crx.pack(directory, find_browser())
    for made in (directory / crx.KEY_NAME, packed.crx):
        remember(record, "files", made)
    remember(record, "trees", packed.extension)
    return packed


def _add_external(user_data: Path, packed: crx.Packed, record: Record) -> str:
    """Name the packed extension in a Chromium user data folder's ``External Extensions``: the browser installs
    it at its next start, enabled, no Developer mode."""
    entry = user_data / "External Extensions" / f"{packed.extension_id}.json"
    make_dirs(entry.parent, record)
    write_atomic(entry, json.dumps({"external_crx": str(packed.crx), "external_version": packed.version}) + "\n")
    remember(record, "files", entry)
    return str(entry)


def _register(
    browser: Browser, launcher: Path, directory: Path, record: Record, home: Path | None, environ: Mapping[str, str]
) -> str:
    """Put the manifest where this browser reads it; return that place for the report."""
    if browser.platform == "win32":
        manifest = directory / f"{NATIVE_HOST_NAME}.json"
        write_manifest(manifest, launcher)
        remember(record, "files", manifest)
        key = registry_key(browser)
        _set_registry_value(key, str(manifest))
        remember(record, "registry_keys", key)
        return rf"HKCU\{key}"
    manifests = manifest_paths(browser, home, environ)
    for manifest in manifests:
        make_dirs(manifest.parent, record)
        write_manifest(manifest, launcher)
        remember(record, "files", manifest)
    return ", ".join(map(str, manifests))


def _print_install_report(
    out: TextIO,
    launcher: Path,
    registered: list[tuple[str, str]],
    detection: Detection,
    packed: crx.Packed | None = None,
    installed: Sequence[str] = (),
) -> None:
    print(f"tabsight {__version__}: native host {NATIVE_HOST_NAME}, launcher {launcher}", file=out)
    if registered:
        print("\nRegistered for:", file=out)
        for name, where in registered:
            print(f"  {name}: {where}", file=out)
    else:
        print(
            "\nNo Chromium-family browser found (Chrome, Chromium, Brave, Edge, Vivaldi, Opera, Arc): nothing registered."
            "\n`tabsight mcp` can still start its embedded browser; after installing a browser, run `tabsight install` again.",
            file=out,
        )
    if detection.unsupported:
        print("\nNot registered:", file=out)
        for item in detection.unsupported:
            print(f"  {item.name} ({item.where}): {item.reason}", file=out)
    if packed is not None and installed:
        print(
            f"\nThe extension (id {packed.extension_id}, packed with this machine's key: {packed.crx}) is installed "
            "for:\n" + "".join(f"  {entry}\n" for entry in installed) + "Restart those browsers: they install it "
            "at their next start, enabled, with no Developer mode.",
            file=out,
        )
    print(
        f"\nExtension id: {packed.extension_id if packed else extension_id()}"
        "\n\nGoogle Chrome, Chromium and Edge on Linux, for every user of the machine: `sudo tabsight install --system`"
        "\n\nFor other browsers (Google Chrome, Brave, Edge...), load the extension in each profile agents should see:"
        "\n  1. open chrome://extensions"
        "\n  2. turn on Developer mode"
        f"\n  3. click Load unpacked and pick {packed.extension if packed else extension_dir()}"
        "\n  (if it was already loaded, click its reload button so it connects to the host)"
        "\n\nA browser started with --user-data-dir DIR reads native hosts from DIR only:"
        "\n  run `tabsight install --user-data-dir DIR` for it"
        "\n\nConnect your MCP client:",
        file=out,
    )
    for where, snippet in mcp_client_snippets(tabsight_command()):
        print(f"\n{where}:\n" + "\n".join(f"    {line}" for line in snippet.splitlines()), file=out)
    print("\nCheck every link with: tabsight doctor", file=out)


# --- uninstall -------------------------------------------------------------


def run_uninstall(out: TextIO, directory: Path | None = None) -> int:
    """Remove what the record in ``directory`` (default: the user's data folder) lists, then the record itself."""
    directory = directory or data_dir()
    record_path = directory / RECORD_NAME
    if not record_path.exists():
        print(f"Nothing to uninstall: no {record_path}", file=out)
        return 0
    try:
        record = read_record(directory)
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
    for name in record["trees"]:
        shutil.rmtree(name, ignore_errors=True)
        print(f"removed {name}", file=out)
    record_path.unlink()
    for name in sorted(record["dirs"], key=lambda d: len(Path(d).parts), reverse=True):
        try:
            Path(name).rmdir()
        except OSError:
            pass  # gone already, or something else now keeps files there
    print(
        "tabsight's native host is unregistered; a Chromium removes the extension installed for it at its next "
        "start; one you loaded unpacked, remove at chrome://extensions",
        file=out,
    )
    return 0


# --- Windows registry (winreg exists only there) ---------------------------


def _set_registry_value(key: str, value: str) -> None:
    if sys.platform != "win32":  # never: only Windows' browsers reach here (the check tells the type checker)
        raise OSError("no Windows registry on this system")
    import winreg

    with winreg.CreateKey(winreg.HKEY_CURRENT_USER, key) as handle:
        winreg.SetValueEx(handle, "", 0, winreg.REG_SZ, value)


def _read_registry_value(key: str) -> str | None:
    if sys.platform != "win32":  # never: only Windows' browsers reach here (the check tells the type checker)
        raise OSError("no Windows registry on this system")
    import winreg

    try:
        return winreg.QueryValue(winreg.HKEY_CURRENT_USER, key)
    except FileNotFoundError:
        return None


def _delete_registry_key(key: str) -> None:
    if sys.platform != "win32":  # never: only Windows' browsers reach here (the check tells the type checker)
        raise OSError("no Windows registry on this system")
    import winreg

    try:
        winreg.DeleteKey(winreg.HKEY_CURRENT_USER, key)
    except FileNotFoundError:
        pass


# --- doctor ----------------------------------------------------------------


def run_doctor(
    out: TextIO,
    home: Path | None = None,
    environ: Mapping[str, str] | None = None,
    platform: str = sys.platform,
    user_data_dirs: Sequence[Path] = (),
    processes: Callable[[], list[Process] | None] | None = None,
    hosts: Callable[[], HostScan] = scan_hosts,
) -> int:
    """Print the configuration in force, then one line per link of the chain, then the diagnosis; exit 0 only if
    nothing failed.

    ``processes`` lists the running processes (default: this machine's) and
    ``hosts`` asks the runtime folder's sockets for their hellos.
    """
    for line in configuration_lines(config.current()):
        print(line, file=out)
    checks = _doctor_checks(
        home, environ, platform, user_data_dirs, processes or (lambda: list_processes(platform)), hosts
    )
    for check in checks:
        print(check.line(), file=out)
    return 1 if any(check.status == "FAIL" for check in checks) else 0


def configuration_lines(configuration: config.Config) -> list[str]:
    """Each variable of the configuration table, its value in force and whether it is the default or set (by which
    name). A secret one's value is never shown, and what looks secret in the others is masked (``redact``)."""
    width = max(len(variable.name) for variable in config.VARIABLES)
    return [
        "configuration here (docs/configuration.md; an MCP client may start `tabsight mcp` with another environment):",
        *(f"  {name:<{width}}  {_in_force(reading)}" for name, reading in configuration.readings.items()),
    ]


def _in_force(reading: config.Reading) -> str:
    variable = reading.variable
    if reading.given is None:
        return f"{variable.default_text}  (default)"
    how = "set" if reading.source == variable.name else f"set as {reading.source}"
    if reading.value is None and reading.problem is None:  # set empty
        return f"{variable.default_text}  ({how} empty: the default)"
    if variable.secret:
        shown = f"<{len(reading.given)} characters, not shown>"
    elif reading.problem is not None:
        shown = redact.text(repr(reading.given))
    else:
        shown = redact.text(variable.kind.show(reading.value))
    if reading.problem is None:
        return f"{shown}  ({how})"
    outcome = (
        "what needs it fails" if variable.if_refused == "error" else f"the default is used, {variable.default_text}"
    )
    return f"{shown}  ({how}; allowed values: {variable.allowed}; {outcome})"


def _doctor_checks(
    home: Path | None,
    environ: Mapping[str, str] | None,
    platform: str,
    user_data_dirs: Sequence[Path],
    processes: Callable[[], list[Process] | None],
    hosts: Callable[[], HostScan],
) -> list[Check]:
    try:
        origin = extension_origin()
        origins = [extension_origin(extension) for extension in extension_ids()]
        extension = extension_dir()
    except (OSError, KeyError, ValueError) as error:
        return [fail(f"extension files unreadable: {error}", "reinstall tabsight")]
    checks = [ok(f"extension id {extension_id()} (from the key in {extension / 'manifest.json'})")]
    checks += _packed_copy_checks()
    detection = detect(home, environ, platform)
    if not detection.found:
        checks.append(
            fail("no Chromium-family browser found", "install Google Chrome or Chromium, then run `tabsight install`")
        )
    places: list[Place] = []
    for browser in detection.found:
        where, paths = _registered_manifests(browser, home, environ)
        checks += manifest_checks(browser.name, where, paths[0] if paths else None, origins)
        places.append(_place(browser.name, user_data_dir(browser, home, environ), paths, origin, extension))
        checks.append(_extension_line(places[-1]))
    checks += [
        Check("note", f"{item.name} ({item.where}) is not supported: {item.reason}") for item in detection.unsupported
    ]
    for folder in _custom_dirs(user_data_dirs) if platform != "win32" else []:
        manifests = _and_the_machine_s([manifest_in(folder)], environ)
        checks += [
            _custom(check, folder)
            for check in manifest_checks(f"--user-data-dir {folder}", str(manifests[0]), manifests[0], origins)
        ]
        places.append(_place(str(folder), folder, manifests, origin, extension, custom=True))
        checks.append(_extension_line(places[-1]))
    try:
        scan = hosts()
    except (FolderError, BrowserError) as error:  # their message says what to do
        return [*checks, Check("FAIL", f"could not look for running hosts: {error}")]
    except OSError as error:
        return [*checks, fail(f"could not look for running hosts: {error}", "fix the folder the error names")]
    if scan.forwarded:  # the browser is elsewhere: what this machine's browsers lack is nobody's concern here
        checks = [
            Check("note", f"{check.what} (not needed here: the browser is reached through a forward)")
            if check.status == "FAIL"
            else check
            for check in checks
        ]
    listed = processes()
    running = None
    if listed is not None:
        browsers = running_browsers(listed, platform, home, environ)
        running = [(browser, _running_place(browser, places, origin, extension, home, environ)) for browser in browsers]
    parents = {process.pid: process.ppid for process in listed or ()}
    failed = any(check.status == "FAIL" for check in checks)
    return checks + verdict(scan, running, places, parents, extension, origin, failed_before=failed)


def _packed_copy_checks() -> list[Check]:
    """The extension packed for the browsers (the user's install, the machine's) is this tabsight's: after an
    upgrade, the browsers keep the old one until the install is run again."""
    checks = []
    for data, again in ((data_dir(), "tabsight install"), (SYSTEM_DATA_DIR, "sudo tabsight install --system")):
        copy = installed_extension_dir(data)
        if not (copy / "manifest.json").is_file():
            continue
        try:
            same = crx.files_digest(copy) == crx.files_digest(extension_dir())
            manifest = json.loads((copy / "manifest.json").read_text())
            packed = f"extension id {extension_id_from_key(manifest['key'])}, packed in {copy} ({manifest['version']})"
        except (OSError, ValueError, KeyError, TypeError) as error:
            checks.append(fail(f"the extension packed in {copy} is unreadable ({error})", f"run `{again}` again"))
            continue
        if same:
            checks.append(ok(f"{packed}, is this tabsight's"))
        else:
            checks.append(
                fail(
                    f"{packed}, is an older tabsight's",
                    f"run `{again}` again, then restart your browsers: they update it at their start",
                )
            )
    return checks


def _custom(check: Check, folder: Path) -> Check:
    """A --user-data-dir folder's fix names it."""
    if check.fix == INSTALL_FIX:
        return Check(check.status, check.what, f"run `tabsight install --user-data-dir {shlex.quote(str(folder))}`")
    return check


def _custom_dirs(given: Sequence[Path]) -> list[Path]:
    """The folders given to doctor, then those install registered, once each."""
    try:
        recorded = read_record(data_dir())["user_data_dirs"]
    except ValueError:
        recorded = []
    folders: list[Path] = []
    named: list[Path | str] = [*given, *recorded]
    for folder in named:
        folder = Path(folder).expanduser().absolute()
        if folder not in folders:
            folders.append(folder)
    return folders


def _place(
    label: str, user_data: Path, manifests: list[Path], origin: str, extension: Path, custom: bool = False
) -> Place:
    launcher = next((launcher_of(path) for path in manifests if path.is_file()), "")
    return Place(
        label,
        user_data,
        manifest_problem(manifests, [extension_origin(extension) for extension in extension_ids()]),
        launcher,
        tuple(extension_profiles(user_data, extension_ids(), [extension, installed_extension_dir()])),
        custom,
    )


def _running_place(
    browser: Running,
    places: list[Place],
    origin: str,
    extension: Path,
    home: Path | None,
    environ: Mapping[str, str] | None,
) -> Place | None:
    """The known place of a running browser's user data folder, or a new one for a folder install never saw."""
    if browser.user_data is None:
        return None
    for place in places:
        if _same(place.user_data, browser.user_data):
            return place
    manifests = _and_the_machine_s([manifest_in(browser.user_data)], environ)
    if browser.browser is not None and not browser.explicit:
        manifests = _registered_manifests(browser.browser, home, environ)[1]  # its default folder, and the others
    return _place(str(browser.user_data), browser.user_data, manifests, origin, extension, custom=browser.explicit)


def _same(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return a == b


def _extension_line(place: Place) -> Check:
    if place.enabled:
        return ok(f"{place.label}: extension loaded in profile {', '.join(place.enabled)}")
    if place.profiles:
        return Check(
            "note", f"{place.label}: extension turned off in profile {', '.join(p.profile for p in place.profiles)}"
        )
    named = [path for path in (place.user_data / "External Extensions").glob("*.json") if path.stem in extension_ids()]
    if named:
        return Check(
            "note",
            f"{place.label}: extension named in {named[0]} but not installed in any profile yet",
            "restart that browser: it installs the extension at its start",
        )
    return Check("note", f"{place.label}: extension not loaded in any profile of {place.user_data}")


def _registered_manifests(
    browser: Browser, home: Path | None, environ: Mapping[str, str] | None
) -> tuple[str, list[Path]]:
    """Where the browser will look (for the report) and the manifest files there (first: its own)."""
    if browser.platform == "win32":
        key = registry_key(browser)
        value = _read_registry_value(key)
        return rf"HKCU\{key}", [Path(value)] if value else []
    paths = manifest_paths(browser, home, environ)
    if browser.system_folder:  # read after the user's folders: what `install --system` wrote
        paths.append(system_manifest(browser.system_folder))
    paths.sort(key=lambda path: not path.is_file())  # the one the browser reads first
    return str(paths[0]), paths


def _and_the_machine_s(paths: list[Path], environ: Mapping[str, str] | None) -> list[Path]:
    """A --user-data-dir folder's manifest, then the machine-wide ones (`install --system`'s), which a browser
    reads whatever its user data folder; the one it reads first comes first."""
    paths = [*paths, *(folders.host_manifest for folders in system_folders(environ=environ))]
    return sorted(paths, key=lambda path: not path.is_file())
