"""install / uninstall / doctor against a temporary HOME: no registry, a made-up process list.

The doctor's diagnosis is fed a temporary HOME (browsers' folders, their
profiles' preferences, manifests), a temporary runtime folder (real sockets,
live or dead) and a list of processes; the last test runs it against the real
headless Chromium of the session.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest

import tabsight
from conftest import front_env
from tabsight import cli, config
from tabsight.install import commands, detect
from tabsight.install.diagnose import HostScan, Process, list_processes, parse_ps, running_browsers
from tabsight.nativehost import manifest
from tabsight.paths import extension_dir, extension_id, extension_origin
from tabsight.protocol import frames

EXTENSION_ID = "hbooaagihpfknnhjielgeceggkhmpkaf"
ORIGIN = f"chrome-extension://{EXTENSION_ID}/"
CHROME = "/opt/google/chrome/chrome"  # Google Chrome's main executable on Linux
RELOAD = "click the reload button of tabsight's card at chrome://extensions"


class Machine:
    """A temporary HOME with Chrome and Brave used once, `chromium` on PATH, an empty runtime folder."""

    def __init__(self, root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.root = root
        self.home = root / "home"
        self.data = root / "data"
        self.bin = root / "bin"
        self.runtime = root / "rt"
        self.python = root / "py env" / "bin" / "python"  # a space, to check the launcher's quoting
        for folder in (self.chrome, self.home / ".config/BraveSoftware/Brave-Browser"):
            folder.mkdir(parents=True)
            (folder / "Local State").write_text("{}")  # what a browser that ran leaves
        self.bin.mkdir()
        self.runtime.mkdir(mode=0o700)
        self.python.parent.mkdir(parents=True)
        _executable(self.python, '#!/bin/sh\nprintf "%s\\n" "$0" "$@"\n')  # echoes how the launcher called it
        _executable(self.bin / "chromium", "#!/bin/sh\n")
        monkeypatch.setenv("HOME", str(self.home))  # what the command line's install and doctor use
        monkeypatch.setenv("TABSIGHT_DATA_DIR", str(self.data))
        monkeypatch.setenv("TABSIGHT_RUNTIME_DIR", str(self.runtime))
        monkeypatch.setenv("PATH", str(self.bin))
        monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
        config.reset()
        monkeypatch.setattr(sys, "executable", str(self.python))
        monkeypatch.setattr(detect, "SNAP_BIN", root / "snap-bin")

    @property
    def chrome(self) -> Path:
        return self.home / ".config/google-chrome"

    def manifests(self) -> dict[str, Path]:
        folder = self.home / ".config"
        return {
            "Google Chrome": folder / "google-chrome/NativeMessagingHosts/dev.tabsight.host.json",
            "Chromium": folder / "chromium/NativeMessagingHosts/dev.tabsight.host.json",
            "Brave": folder / "BraveSoftware/Brave-Browser/NativeMessagingHosts/dev.tabsight.host.json",
        }

    def install(self, *user_data_dirs: Path) -> str:
        out = io.StringIO()
        assert commands.run_install(out, home=self.home, user_data_dirs=user_data_dirs) == 0, out.getvalue()
        return out.getvalue()

    def doctor(self, processes: list[Process] = (), hosts: HostScan | None = None, **options) -> tuple[int, list[str]]:
        """Run doctor with these processes running; the hosts are the runtime folder's unless given. Its lines after
        the configuration in force, which comes first."""
        out = io.StringIO()
        scan = (lambda: hosts) if hosts is not None else commands.scan_hosts
        code = commands.run_doctor(out, home=self.home, processes=lambda: list(processes), hosts=scan, **options)
        lines = out.getvalue().splitlines()
        configuration = commands.configuration_lines(config.current())
        assert lines[: len(configuration)] == configuration
        return code, lines[len(configuration) :]

    def snapshot(self) -> set[Path]:
        return {path for top in (self.home, self.data) if top.exists() for path in [top, *top.rglob("*")]}


def _executable(path: Path, text: str) -> None:
    path.write_text(text)
    path.chmod(0o755)


def load_extension(user_data: Path, profile: str = "Default", file: str = "Preferences", **entry) -> None:
    """What Chrome writes in a profile's preferences once the extension is loaded unpacked."""
    folder = user_data / profile
    folder.mkdir(parents=True, exist_ok=True)
    settings = {
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa": {"path": "/elsewhere", "location": 1},
        EXTENSION_ID: {"path": str(extension_dir()), "location": 4, **entry},
    }
    (folder / file).write_text(json.dumps({"extensions": {"settings": settings}}))


def fake_host(
    version: str = tabsight.__version__, extension_version: str | None = tabsight.__version__, pid: int = 4242
) -> frames.Hello:
    """A running host's hello, as the runtime folder's socket answers it."""
    extension = None
    if extension_version is not None:
        extension = frames.ExtensionInfo(
            version=extension_version, browser=frames.BrowserInfo(name="Chromium", version="156.0"), profile_id="p1"
        )
    return frames.Hello(role="host", version=version, pid=pid, extension=extension)


def running(pid: int, executable: str = CHROME, *flags: str, ppid: int = 1) -> Process:
    return Process(pid, ppid, (executable, *flags))


def host_process(pid: int = 4242, browser: int = 100) -> Process:
    """The host a browser started: the launcher execs Python, so the browser is its parent."""
    return Process(pid, browser, ("/usr/bin/python3", "-m", "tabsight", "host", ORIGIN))


def failures(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("FAIL")]


@pytest.fixture
def machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Machine:
    return Machine(tmp_path, monkeypatch)


def test_extension_id_is_chromes_hash_of_the_manifest_key() -> None:
    key = json.loads((extension_dir() / "manifest.json").read_text())["key"]
    digest = hashlib.sha256(base64.b64decode(key)).hexdigest()[:32]
    assert digest.translate(str.maketrans("0123456789abcdef", "abcdefghijklmnop")) == EXTENSION_ID
    assert extension_id() == EXTENSION_ID
    assert extension_origin() == ORIGIN


# --- install / uninstall ------------------------------------------------------


def test_install_into_a_data_folder_it_cannot_write_says_so_and_writes_nothing(
    machine: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = machine.root / "a file"
    blocker.write_text("")
    monkeypatch.setenv("TABSIGHT_DATA_DIR", str(blocker / "tabsight"))
    config.reset()
    out = io.StringIO()
    assert commands.run_install(out, home=machine.home) == 1
    assert f"cannot write tabsight's data folder {blocker / 'tabsight'}" in out.getvalue()
    assert "set TABSIGHT_DATA_DIR" in out.getvalue() and "nothing registered" in out.getvalue()
    assert not any(path.exists() for path in machine.manifests().values())


@pytest.mark.parametrize("inside", ["snap/chromium/common/chromium", ".var/app/org.chromium.Chromium/config/chromium"])
def test_install_refuses_a_snap_or_flatpak_profile_folder_and_says_why(machine: Machine, inside: str) -> None:
    folder = machine.home / inside
    folder.mkdir(parents=True)
    out = io.StringIO()
    assert commands.run_install(out, home=machine.home, user_data_dirs=[folder]) == 1
    kind = "Snap" if inside.startswith("snap") else "Flatpak"
    assert f"not registered in {folder}: it is a {kind} browser's folder" in out.getvalue()
    assert not (folder / "NativeMessagingHosts").exists() and not (folder / "External Extensions").exists()


def test_relative_folders_are_written_as_absolute_paths(machine: Machine, monkeypatch: pytest.MonkeyPatch) -> None:
    """A browser starts the host from any folder: what it is given names no folder relative to the install's."""
    monkeypatch.chdir(machine.root)
    monkeypatch.setenv("TABSIGHT_DATA_DIR", "relative data")
    config.reset()
    machine.install(Path("profiles/relative"))
    data, profile = machine.root / "relative data", machine.root / "profiles" / "relative"
    manifest = json.loads((profile / "NativeMessagingHosts" / "dev.tabsight.host.json").read_text())
    assert manifest["path"] == str(data / "tabsight-host")
    assert f"TABSIGHT_DATA_DIR='{data}'" in (data / "tabsight-host").read_text()
    assert json.loads((data / "installed.json").read_text())["user_data_dirs"] == [str(profile)]


def test_install_writes_the_manifests_and_the_launcher(machine: Machine) -> None:
    report = machine.install()

    launcher = machine.data / "tabsight-host"
    for path in machine.manifests().values():
        assert json.loads(path.read_text()) == {
            "name": "dev.tabsight.host",
            "description": manifest.DESCRIPTION,
            "path": str(launcher),
            "type": "stdio",
            "allowed_origins": [ORIGIN],
        }
    assert stat.S_IMODE(launcher.stat().st_mode) == 0o755
    ran = subprocess.run([launcher, ORIGIN], capture_output=True, text=True, check=True, env={"PATH": os.defpath})
    assert ran.stdout.splitlines() == [str(machine.python), "-m", "tabsight", "host", ORIGIN]

    record = json.loads((machine.data / "installed.json").read_text())
    assert set(record["files"]) == {str(launcher), *map(str, machine.manifests().values())}
    assert record["registry_keys"] == [] and record["user_data_dirs"] == []

    for name, path in machine.manifests().items():
        assert f"{name}: {path}" in report
    assert f"Extension id: {EXTENSION_ID}" in report
    assert f"Load unpacked and pick {extension_dir()}" in report
    assert "claude mcp add tabsight -- tabsight mcp" in report
    assert "`tabsight install --user-data-dir DIR`" in report


def test_install_points_mcp_clients_at_the_tabsight_beside_python(machine: Machine) -> None:
    _executable(machine.python.parent / "tabsight", "#!/bin/sh\n")
    command = str(machine.python.parent / "tabsight")
    snippets = dict(commands.mcp_client_snippets(commands.tabsight_command()))

    assert snippets["Claude Code, in a shell"] == f"claude mcp add tabsight -- '{command}' mcp"
    assert json.loads(snippets["Cursor, ~/.cursor/mcp.json"]) == {
        "mcpServers": {"tabsight": {"command": command, "args": ["mcp"]}}
    }
    assert json.loads(snippets["VS Code, .vscode/mcp.json in the workspace"]) == {
        "servers": {"tabsight": {"type": "stdio", "command": command, "args": ["mcp"]}}
    }
    assert snippets["Codex, ~/.codex/config.toml"] == f'[mcp_servers.tabsight]\ncommand = "{command}"\nargs = ["mcp"]'
    assert snippets["Gemini CLI, in a trusted folder"] == f"gemini mcp add tabsight '{command}' mcp"
    assert json.loads(snippets["Claude Desktop, claude_desktop_config.json"]) == {
        "mcpServers": {"tabsight": {"command": command, "args": ["mcp"]}}
    }
    assert snippets["Claude Code, in a shell"] in machine.install()


def test_install_registers_custom_user_data_dirs_and_uninstall_removes_exactly_that(machine: Machine) -> None:
    used = machine.root / "profiles" / "work"  # a profile folder the user already runs Chrome with
    load_extension(used)
    fresh = machine.root / "profiles" / "new one" / "p"  # not created yet, and a space in its path
    before = machine.snapshot() | {used, *used.rglob("*")}

    report = machine.install(used, fresh)

    for folder in (used, fresh):
        written = folder / "NativeMessagingHosts" / "dev.tabsight.host.json"
        assert json.loads(written.read_text())["path"] == str(machine.data / "tabsight-host")
        assert f"--user-data-dir {folder}: {written}" in report
    assert json.loads((machine.data / "installed.json").read_text())["user_data_dirs"] == [str(used), str(fresh)]

    code, lines = machine.doctor()  # doctor checks the recorded folders
    assert any(line.startswith("ok") and f"--user-data-dir {fresh}: allowed_origins is" in line for line in lines)
    assert f"ok    {used}: extension loaded in profile Default" in lines

    assert commands.run_uninstall(io.StringIO()) == 0
    assert {p for p in machine.snapshot() | {used, *used.rglob("*")} if p.exists()} == before
    assert not (machine.root / "profiles" / "new one").exists()


def test_the_command_line_takes_repeated_user_data_dirs(machine: Machine, capsys: pytest.CaptureFixture[str]) -> None:
    first, second = machine.root / "a", machine.root / "b"
    assert cli.main(["install", "--user-data-dir", str(first), "--user-data-dir", str(second)]) == 0
    assert (first / "NativeMessagingHosts/dev.tabsight.host.json").is_file()
    assert (second / "NativeMessagingHosts/dev.tabsight.host.json").is_file()
    capsys.readouterr()

    third = machine.root / "c"
    cli.main(["doctor", "--user-data-dir", str(third)])  # checks the recorded ones and the one given
    out = capsys.readouterr().out
    for folder in (first, second):
        assert f"ok    --user-data-dir {folder}: manifest at" in out
    assert (
        f"FAIL  --user-data-dir {third}: no host manifest at {third}/NativeMessagingHosts/dev.tabsight.host.json"
        f"  -> fix: run `tabsight install --user-data-dir {third}`" in out
    )


def test_uninstall_leaves_nothing_behind(machine: Machine) -> None:
    before = machine.snapshot()
    machine.install()
    machine.install()  # a second run must not lose track of anything
    machine.manifests()["Brave"].unlink()  # removed by hand: tolerated

    out = io.StringIO()
    assert commands.run_uninstall(out) == 0

    assert machine.snapshot() == before
    assert f"already gone: {machine.manifests()['Brave']}" in out.getvalue()
    again = io.StringIO()
    assert commands.run_uninstall(again) == 0
    assert "Nothing to uninstall" in again.getvalue()


# --- doctor: the links ----------------------------------------------------------


def test_doctor_catches_a_broken_manifest(machine: Machine) -> None:
    machine.install()
    chrome, chromium, brave = machine.manifests().values()
    content = json.loads(chrome.read_text())
    chrome.write_text(
        json.dumps(content | {"allowed_origins": ["chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/"]})
    )
    chromium.write_text("{not json")
    brave.unlink()

    code, lines = machine.doctor()

    assert code == 1
    links = failures(lines)[:3]
    assert links[0].startswith(
        "FAIL  Google Chrome: allowed_origins is ['chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/']"
    )
    assert f"Chromium: {chromium} is not valid JSON" in links[1]
    assert f"Brave: no host manifest at {brave}" in links[2]
    assert all(line.endswith("-> fix: run `tabsight install`") for line in links)


def test_doctor_catches_a_missing_launcher(machine: Machine) -> None:
    machine.install()
    (machine.data / "tabsight-host").unlink()
    code, lines = machine.doctor()

    assert code == 1
    assert sum("launcher" in line and line.startswith("FAIL") for line in lines) == len(machine.manifests())


# --- doctor: the diagnosis, one case each -----------------------------------------


def test_doctor_all_good_names_the_browser_its_folder_and_profile(machine: Machine) -> None:
    machine.install()
    load_extension(machine.chrome, "Profile 1")
    processes = [running(100), running(101, CHROME, "--type=renderer", ppid=100), host_process(4242, browser=100)]

    code, lines = machine.doctor(processes, HostScan((fake_host(),)))

    assert code == 0, lines
    assert [line for line in lines if not line.startswith("ok")] == [
        f"note  Chromium: extension not loaded in any profile of {machine.home / '.config/chromium'}",
        f"note  Brave: extension not loaded in any profile of {machine.home / '.config/BraveSoftware/Brave-Browser'}",
    ]
    assert (
        f"ok    connected: Chromium 156.0, browser pid 100, user data dir {machine.chrome}, profile Profile 1 "
        "(profile id p1); host pid 4242 runs tabsight 0.1.0" in lines
    )
    assert lines[-1] == "ok    all good: tabsight reaches 1 browser"


def test_doctor_says_no_browser_is_running(machine: Machine) -> None:
    machine.install()
    load_extension(machine.chrome)
    code, lines = machine.doctor([running(7, "/usr/bin/bash")])  # nothing of a browser's

    assert code == 1
    assert failures(lines) == [
        "FAIL  no browser of yours is running, so no tabsight host either  -> fix: start Google Chrome (the extension "
        "starts the host), or let `tabsight mcp` start its embedded browser"
    ]


def test_doctor_says_a_browser_runs_without_the_extension(machine: Machine) -> None:
    machine.install()
    code, lines = machine.doctor([running(100), running(101, CHROME, "--type=gpu-process", ppid=100)])

    assert code == 1
    assert failures(lines) == [
        f"FAIL  Google Chrome is running (pid 100, user data dir {machine.chrome}) without the tabsight extension"
        f"  -> fix: in Google Chrome open chrome://extensions, turn on Developer mode, click Load unpacked and pick "
        f"{extension_dir()}"
    ]


def test_doctor_says_the_extension_is_turned_off(machine: Machine) -> None:
    machine.install()
    load_extension(machine.chrome, file="Secure Preferences", disable_reasons=[1])
    code, lines = machine.doctor([running(100)])

    assert failures(lines) == [
        f"FAIL  Google Chrome is running (pid 100, user data dir {machine.chrome}); the tabsight extension is turned "
        "off in profile Default  -> fix: turn it on at chrome://extensions in Google Chrome"
    ]


def test_doctor_says_the_host_is_not_registered_for_a_custom_user_data_dir(machine: Machine) -> None:
    """The issue's case: Chrome started with --user-data-dir reads manifests in that folder only."""
    machine.install()
    custom = machine.root / "my profile"
    load_extension(custom, file="Secure Preferences")
    chrome = running(100, CHROME, f"--user-data-dir={custom}")

    code, lines = machine.doctor([chrome])

    assert code == 1
    assert failures(lines) == [
        f"FAIL  Google Chrome has the tabsight extension (profile Default, pid 100, user data dir {custom}) but "
        f"tabsight's host is not registered for it: no host manifest at {custom}/NativeMessagingHosts/dev.tabsight.host.json"
        f"  -> fix: run `tabsight install --user-data-dir '{custom}'`, then {RELOAD}"
    ]

    machine.install(custom)  # the fix: now the host is registered, and doctor moves on to the next link
    code, lines = machine.doctor([chrome])
    assert failures(lines) == [
        f"FAIL  Google Chrome has the tabsight extension (profile Default, pid 100, user data dir {custom}) and the "
        f"host is registered, but no host answers  -> fix: {RELOAD} (it starts the host); if none appears, run "
        f"`{machine.data / 'tabsight-host'} {ORIGIN} </dev/null` to see why the host cannot start"
    ]


def test_doctor_says_the_host_is_registered_but_its_socket_is_dead(machine: Machine) -> None:
    machine.install()
    load_extension(machine.chrome)
    dead = machine.runtime / "host-999.sock"
    with socket.socket(socket.AF_UNIX) as listener:  # a host killed with -9 leaves its socket file behind
        listener.bind(str(dead))

    code, lines = machine.doctor([running(100)])

    assert code == 1
    assert failures(lines) == [
        f"FAIL  Google Chrome has the tabsight extension (profile Default, pid 100, user data dir {machine.chrome}) "
        "and the host is registered, but no host answers (host-999.sock refused connections: its host is gone, "
        f"doctor removed the socket)  -> fix: {RELOAD} (it starts the host); if none appears, run "
        f"`{machine.data / 'tabsight-host'} {ORIGIN} </dev/null` to see why the host cannot start"
    ]
    assert not dead.exists()


def test_doctor_says_a_snap_browser_cannot_start_the_host(machine: Machine) -> None:
    machine.install()
    code, lines = machine.doctor([running(100, "/snap/chromium/3000/usr/lib/chromium-browser/chrome")])
    assert failures(lines) == [
        "FAIL  Chromium (Snap) is running (pid 100) but is confined by Snap and cannot start tabsight's host"
        "  -> fix: use a non-Snap, non-Flatpak build of the browser, or let `tabsight mcp` start its embedded browser"
    ]


def test_doctor_without_a_process_list_still_says_no_host_runs(machine: Machine) -> None:
    machine.install()
    out = io.StringIO()
    code = commands.run_doctor(out, home=machine.home, processes=lambda: None)
    assert code == 1
    assert failures(out.getvalue().splitlines()) == [
        "FAIL  no tabsight host is running; doctor cannot list processes here to tell whether a browser is open"
        f"  -> fix: start your browser and load the extension (in it open chrome://extensions, turn on Developer "
        f"mode, click Load unpacked and pick {extension_dir()}), or let `tabsight mcp` start its embedded browser"
    ]


def test_doctor_notes_other_browsers_when_one_is_connected(machine: Machine) -> None:
    machine.install()
    load_extension(machine.chrome)
    brave = "/opt/brave.com/brave/brave"
    scan = HostScan((fake_host(),), ("host-77.sock refused connections: its host is gone, doctor removed the socket",))
    code, lines = machine.doctor([running(100), host_process(4242, browser=100), running(200, brave)], scan)

    assert code == 0, lines
    assert (
        f"note  Brave is running (pid 200, user data dir {machine.home / '.config/BraveSoftware/Brave-Browser'}) "
        "without the tabsight extension  -> fix: in Brave open chrome://extensions, turn on Developer mode, click "
        f"Load unpacked and pick {extension_dir()}" in lines
    )
    assert "note  socket host-77.sock refused connections: its host is gone, doctor removed the socket" in lines
    assert lines[-1] == "ok    all good: tabsight reaches 1 browser"


@pytest.mark.parametrize(
    ("host", "fix"),
    [
        (fake_host(extension_version="0.0.9"), RELOAD),
        (fake_host(version="0.0.9"), "restart the browser"),
        (fake_host(extension_version=None), f"{RELOAD}, or restart the browser"),
    ],
)
def test_doctor_names_the_fix_for_a_stale_host_or_extension(machine: Machine, host: frames.Hello, fix: str) -> None:
    machine.install()
    load_extension(machine.chrome)
    code, lines = machine.doctor([running(100), host_process(4242, browser=100)], HostScan((host,)))

    assert code == 1
    assert len(failures(lines)) == 1 and failures(lines)[0].endswith(f"-> fix: {fix}"), lines


# --- processes ---------------------------------------------------------------------


def test_processes_come_from_proc(tmp_path: Path) -> None:
    """A /proc-shaped folder (ours, so the uid matches), then the real one."""
    entry = tmp_path / "321"
    entry.mkdir()
    (entry / "cmdline").write_bytes(b"/opt/google/chrome/chrome\0--user-data-dir=/a b\0")
    (entry / "stat").write_text("321 (chrome (x)) S 77 321 321 0 -1")
    (tmp_path / "self").mkdir()
    assert list_processes("linux", tmp_path) == [Process(321, 77, (CHROME, "--user-data-dir=/a b"))]

    me = next(p for p in list_processes("linux") if p.pid == os.getpid())
    assert (me.ppid, me.argv) == (os.getppid(), tuple(sys.orig_argv))


def test_macos_browsers_come_from_ps(tmp_path: Path) -> None:
    app = "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"
    helper = (
        "/Applications/Google Chrome.app/Contents/Frameworks/Google Chrome Framework.framework/Helpers/"
        "Google Chrome Helper (Renderer).app/Contents/MacOS/Google Chrome Helper (Renderer)"
    )
    listing = (
        f"  501     1 {app}\n  502   501 {helper} --type=renderer --lang=en\n"
        f"  600     1 /Applications/Brave Browser.app/Contents/MacOS/Brave Browser --user-data-dir=/Users/me/my brave --no-first-run\n"
    )
    processes = parse_ps(listing)
    assert processes[2] == Process(
        600,
        1,
        (
            "/Applications/Brave Browser.app/Contents/MacOS/Brave Browser",
            "--user-data-dir=/Users/me/my brave",
            "--no-first-run",
        ),
    )
    found = running_browsers(processes, "darwin", tmp_path)
    assert [(b.pid, b.name, b.user_data, b.explicit) for b in found] == [
        (501, "Google Chrome", tmp_path / "Library/Application Support/Google/Chrome", False),
        (600, "Brave", Path("/Users/me/my brave"), True),
    ]


# --- detection ---------------------------------------------------------------------


def test_snap_and_flatpak_browsers_are_reported_not_registered(machine: Machine) -> None:
    (machine.home / "snap/chromium").mkdir(parents=True)  # Ubuntu's chromium wrapper is on PATH too
    (machine.home / ".var/app/com.brave.Browser").mkdir(parents=True)

    detection = detect.detect(machine.home)
    assert [b.name for b in detection.found] == ["Google Chrome", "Brave"]
    assert [(u.name, u.reason) for u in detection.unsupported] == [
        ("Chromium (Snap)", detect.SNAP_REASON),
        ("Brave (Flatpak)", detect.FLATPAK_REASON),
    ]

    report = machine.install()
    assert not machine.manifests()["Chromium"].exists()
    assert f"Chromium (Snap) ({machine.home / 'snap/chromium'}): {detect.SNAP_REASON}" in report
    assert "Brave (Flatpak)" in report


def test_snap_bin_chromium_is_detected(machine: Machine) -> None:
    detect.SNAP_BIN.mkdir()
    _executable(detect.SNAP_BIN / "chromium", "#!/bin/sh\n")
    assert [u.name for u in detect.detect(machine.home).unsupported] == ["Chromium (Snap)"]


def test_found_browsers_follow_xdg_config_home(machine: Machine, tmp_path: Path) -> None:
    config = tmp_path / "xdg"
    (config / "vivaldi/Default").mkdir(parents=True)
    found = detect.detect(machine.home, {"XDG_CONFIG_HOME": str(config), "PATH": ""}).found
    assert [b.name for b in found] == ["Vivaldi"]
    assert detect.manifest_path(found[0], machine.home, {"XDG_CONFIG_HOME": str(config)}) == (
        config / "vivaldi/NativeMessagingHosts/dev.tabsight.host.json"
    )


def test_every_channel_is_found_and_a_folder_of_manifests_alone_is_not_a_browser(tmp_path: Path) -> None:
    config = tmp_path / ".config"
    channels = [
        "google-chrome-beta",
        "google-chrome-unstable",
        "google-chrome-canary",
        "google-chrome-for-testing",
        "microsoft-edge-beta",
        "microsoft-edge-dev",
        "BraveSoftware/Brave-Browser-Nightly",
        "opera",
    ]
    for folder in channels:
        (config / folder / "Default").mkdir(parents=True)
    (config / "chromium/NativeMessagingHosts").mkdir(parents=True)  # written for another browser: not a use
    (config / "vivaldi").mkdir()  # empty: not a use either
    found = detect.detect(tmp_path, {"PATH": ""}, "linux").found
    assert [b.name for b in found] == [
        "Google Chrome Beta",
        "Google Chrome Dev",
        "Google Chrome Canary",
        "Google Chrome for Testing",
        "Brave Nightly",
        "Microsoft Edge Beta",
        "Microsoft Edge Dev",
        "Opera",
    ]


def test_macos_folders_include_arc_and_brave_also_gets_chromes_folder(tmp_path: Path) -> None:
    support = tmp_path / "Library/Application Support"
    for folder in ("Arc/User Data", "BraveSoftware/Brave-Browser", "Microsoft Edge Canary", "com.operasoftware.Opera"):
        (support / folder / "Default").mkdir(parents=True)
    found = {b.name: b for b in detect.detect(tmp_path, {"PATH": ""}, "darwin").found}
    assert list(found) == ["Brave", "Microsoft Edge Canary", "Opera", "Arc"]
    assert (
        detect.manifest_path(found["Arc"], tmp_path)
        == support / "Arc/User Data/NativeMessagingHosts/dev.tabsight.host.json"
    )
    assert detect.manifest_paths(found["Brave"], tmp_path) == [
        support / "BraveSoftware/Brave-Browser/NativeMessagingHosts/dev.tabsight.host.json",
        support / "Google/Chrome/NativeMessagingHosts/dev.tabsight.host.json",
    ]


def test_windows_registry_keys() -> None:
    keys = {b.name: detect.registry_key(b) for b in detect.browsers_for("win32")}
    chrome = r"Software\Google\Chrome\NativeMessagingHosts\dev.tabsight.host"
    edge = r"Software\Microsoft\Edge\NativeMessagingHosts\dev.tabsight.host"
    assert keys == {
        "Google Chrome": chrome,
        "Google Chrome Beta": chrome,
        "Google Chrome Dev": chrome,
        "Google Chrome Canary": chrome,
        "Chromium": r"Software\Chromium\NativeMessagingHosts\dev.tabsight.host",
        "Brave": chrome,  # Chromium's Windows launcher reads Chrome's key whatever the browser
        "Microsoft Edge": edge,
        "Microsoft Edge Beta": edge,
        "Microsoft Edge Dev": edge,
        "Microsoft Edge Canary": edge,
        "Vivaldi": chrome,
    }


def test_windows_launcher_is_a_batch_file() -> None:
    text = manifest.launcher_text(r"C:\Program Files\Python\python.exe", "win32", Path(r"C:\Users\ada\tabsight"))
    assert text == (
        "@echo off\r\nset TABSIGHT_DATA_DIR=C:\\Users\\ada\\tabsight\r\n"
        '"C:\\Program Files\\Python\\python.exe" -m tabsight host %*\r\n'
    )


# --- the real thing ----------------------------------------------------------------


@pytest.mark.browser
def test_doctor_is_all_good_with_the_real_browser(browser, tmp_path: Path) -> None:
    """`tabsight install` then `tabsight doctor`, as a user runs them, while the session's headless Chromium runs."""
    env = front_env(HOME=str(tmp_path / "home"), TABSIGHT_DATA_DIR=str(tmp_path / "data"))
    env.pop("XDG_CONFIG_HOME", None)
    install = subprocess.run(
        [sys.executable, "-m", "tabsight", "install"], env=env, capture_output=True, text=True, timeout=60
    )
    assert install.returncode == 0, install.stdout + install.stderr

    doctor = subprocess.run(
        [sys.executable, "-m", "tabsight", "doctor"], env=env, capture_output=True, text=True, timeout=60
    )

    lines = doctor.stdout.splitlines()
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    connected = [line for line in lines if line.startswith("ok    connected: ")]
    assert len(connected) == 1, lines
    assert f"browser pid {browser.browser_pid}, user data dir " in connected[0]
    assert "(tabsight's embedded browser) runs tabsight 0.1.0" in connected[0]
    assert lines[-1] == "ok    all good: tabsight reaches 1 browser"
