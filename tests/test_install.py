"""install / uninstall / doctor against a temporary HOME: no browser, no registry."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import stat
import subprocess
import sys
import types
from pathlib import Path

import pytest

import tabsight
from tabsight.install import commands, detect
from tabsight.nativehost import manifest
from tabsight.paths import extension_dir, extension_id, extension_origin
from tabsight.protocol import frames

EXTENSION_ID = "hbooaagihpfknnhjielgeceggkhmpkaf"
ORIGIN = f"chrome-extension://{EXTENSION_ID}/"


class Machine:
    """A temporary HOME with Chrome and Brave used once, and `chromium` on PATH."""

    def __init__(self, root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.home = root / "home"
        self.data = root / "data"
        self.bin = root / "bin"
        self.python = root / "py env" / "bin" / "python"  # a space, to check the launcher's quoting
        for folder in (self.home / ".config/google-chrome", self.home / ".config/BraveSoftware/Brave-Browser", self.bin):
            folder.mkdir(parents=True)
        self.python.parent.mkdir(parents=True)
        _executable(self.python, '#!/bin/sh\nprintf "%s\\n" "$0" "$@"\n')  # echoes how the launcher called it
        _executable(self.bin / "chromium", "#!/bin/sh\n")
        monkeypatch.setenv("TABSIGHT_DATA_DIR", str(self.data))
        monkeypatch.setenv("PATH", str(self.bin))
        monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
        monkeypatch.setattr(sys, "executable", str(self.python))
        monkeypatch.setattr(detect, "SNAP_BIN", root / "snap-bin")

    def manifests(self) -> dict[str, Path]:
        config = self.home / ".config"
        return {
            "Google Chrome": config / "google-chrome/NativeMessagingHosts/dev.tabsight.host.json",
            "Chromium": config / "chromium/NativeMessagingHosts/dev.tabsight.host.json",
            "Brave": config / "BraveSoftware/Brave-Browser/NativeMessagingHosts/dev.tabsight.host.json",
        }

    def install(self) -> str:
        out = io.StringIO()
        assert commands.run_install(out, home=self.home) == 0
        return out.getvalue()

    def doctor(self) -> tuple[int, list[str]]:
        out = io.StringIO()
        code = commands.run_doctor(out, home=self.home)
        return code, out.getvalue().splitlines()

    def snapshot(self) -> set[Path]:
        return {path for top in (self.home, self.data) if top.exists() for path in [top, *top.rglob("*")]}


def _executable(path: Path, text: str) -> None:
    path.write_text(text)
    path.chmod(0o755)


@pytest.fixture
def machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Machine:
    return Machine(tmp_path, monkeypatch)


def fake_host(version: str = tabsight.__version__, extension_version: str | None = tabsight.__version__) -> frames.Hello:
    """A running host's hello, as probe_hosts returns it."""
    extension = None
    if extension_version is not None:
        extension = frames.ExtensionInfo(
            version=extension_version, browser=frames.BrowserInfo(name="Chromium", version="156.0"), profile_id="p1"
        )
    return frames.Hello(role="host", version=version, pid=4242, extension=extension)


@pytest.fixture
def probe(mocker):
    """Stands in for tabsight.browser.hosts, whose probe_hosts doctor awaits."""
    probe_hosts = mocker.AsyncMock(return_value=[fake_host()])
    mocker.patch.dict(sys.modules, {"tabsight.browser.hosts": types.SimpleNamespace(probe_hosts=probe_hosts)})
    return probe_hosts


def test_extension_id_is_chromes_hash_of_the_manifest_key() -> None:
    key = json.loads((extension_dir() / "manifest.json").read_text())["key"]
    digest = hashlib.sha256(base64.b64decode(key)).hexdigest()[:32]
    assert digest.translate(str.maketrans("0123456789abcdef", "abcdefghijklmnop")) == EXTENSION_ID
    assert extension_id() == EXTENSION_ID
    assert extension_origin() == ORIGIN


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
    assert record["registry_keys"] == []

    for name, path in machine.manifests().items():
        assert f"{name}: {path}" in report
    assert f"Extension id: {EXTENSION_ID}" in report
    assert f"Load unpacked and pick {extension_dir()}" in report
    assert "claude mcp add tabsight -- tabsight mcp" in report


def test_install_points_mcp_clients_at_the_tabsight_beside_python(machine: Machine) -> None:
    _executable(machine.python.parent / "tabsight", "#!/bin/sh\n")
    command = str(machine.python.parent / "tabsight")
    snippets = dict(commands.mcp_client_snippets(commands.tabsight_command()))

    assert snippets["Claude Code, in a shell"] == f"claude mcp add tabsight -- '{command}' mcp"
    assert json.loads(snippets["Cursor, ~/.cursor/mcp.json"]) == {"mcpServers": {"tabsight": {"command": command, "args": ["mcp"]}}}
    assert json.loads(snippets["VS Code, .vscode/mcp.json in the workspace"]) == {
        "servers": {"tabsight": {"type": "stdio", "command": command, "args": ["mcp"]}}
    }
    assert snippets["Codex, ~/.codex/config.toml"] == f'[mcp_servers.tabsight]\ncommand = "{command}"\nargs = ["mcp"]'
    assert snippets["Claude Code, in a shell"] in machine.install()


def test_doctor_is_happy_when_every_link_holds(machine: Machine, probe) -> None:
    machine.install()
    code, lines = machine.doctor()

    assert code == 0, lines
    assert all(line.startswith("ok") for line in lines), lines
    assert any(f"extension id {EXTENSION_ID}" in line for line in lines)
    for name in machine.manifests():
        assert any(line.startswith("ok") and f"{name}: allowed_origins is ['{ORIGIN}']" in line for line in lines)
    assert "extension 0.1.0 connected from Chromium 156.0, profile p1" in lines[-1]
    probe.assert_awaited_once_with(timeout=1.0)


def test_doctor_fails_without_a_running_host(machine: Machine, probe) -> None:
    probe.return_value = []
    machine.install()
    code, lines = machine.doctor()

    assert code == 1
    assert [line for line in lines if line.startswith("FAIL")] == [f"FAIL  no tabsight host running  -> fix: {commands.NO_HOST_FIX}"]


@pytest.mark.parametrize(
    ("host", "fix"),
    [
        (fake_host(extension_version="0.0.9"), "reload the extension at chrome://extensions"),
        (fake_host(version="0.0.9"), "restart the browser"),
        (fake_host(extension_version=None), "reload the extension at chrome://extensions, or restart the browser"),
    ],
)
def test_doctor_names_the_fix_for_a_stale_host_or_extension(machine: Machine, probe, host, fix: str) -> None:
    probe.return_value = [host]
    machine.install()
    code, lines = machine.doctor()

    assert code == 1
    failures = [line for line in lines if line.startswith("FAIL")]
    assert len(failures) == 1 and failures[0].endswith(f"-> fix: {fix}"), lines


def test_doctor_catches_a_broken_manifest(machine: Machine, probe) -> None:
    machine.install()
    chrome, chromium, brave = machine.manifests().values()
    content = json.loads(chrome.read_text())
    chrome.write_text(json.dumps(content | {"allowed_origins": ["chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/"]}))
    chromium.write_text("{not json")
    brave.unlink()

    code, lines = machine.doctor()

    assert code == 1
    failures = [line for line in lines if line.startswith("FAIL")]
    assert len(failures) == 3, lines
    assert failures[0].startswith("FAIL  Google Chrome: allowed_origins is ['chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/']")
    assert f"Chromium: {chromium} is not valid JSON" in failures[1]
    assert f"Brave: no host manifest at {brave}" in failures[2]
    assert all(line.endswith("-> fix: run `tabsight install`") for line in failures)


def test_doctor_catches_a_missing_launcher(machine: Machine, probe) -> None:
    machine.install()
    (machine.data / "tabsight-host").unlink()
    code, lines = machine.doctor()

    assert code == 1
    assert sum("launcher" in line and line.startswith("FAIL") for line in lines) == len(machine.manifests())


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
    (config / "vivaldi").mkdir(parents=True)
    found = detect.detect(machine.home, {"XDG_CONFIG_HOME": str(config), "PATH": ""}).found
    assert [b.name for b in found] == ["Vivaldi"]
    assert detect.manifest_path(found[0], machine.home, {"XDG_CONFIG_HOME": str(config)}) == (
        config / "vivaldi/NativeMessagingHosts/dev.tabsight.host.json"
    )


def test_macos_folders_include_arc(tmp_path: Path) -> None:
    (tmp_path / "Library/Application Support/Arc/User Data").mkdir(parents=True)
    (arc,) = detect.detect(tmp_path, {"PATH": ""}, "darwin").found
    assert detect.manifest_path(arc, tmp_path) == (
        tmp_path / "Library/Application Support/Arc/User Data/NativeMessagingHosts/dev.tabsight.host.json"
    )


def test_windows_registry_keys() -> None:
    assert {b.name: detect.registry_key(b) for b in detect.browsers_for("win32")} == {
        "Google Chrome": r"Software\Google\Chrome\NativeMessagingHosts\dev.tabsight.host",
        "Chromium": r"Software\Chromium\NativeMessagingHosts\dev.tabsight.host",
        "Brave": r"Software\BraveSoftware\Brave-Browser\NativeMessagingHosts\dev.tabsight.host",
        "Microsoft Edge": r"Software\Microsoft\Edge\NativeMessagingHosts\dev.tabsight.host",
        "Vivaldi": r"Software\Vivaldi\NativeMessagingHosts\dev.tabsight.host",
    }


def test_windows_launcher_is_a_batch_file() -> None:
    text = manifest.launcher_text(r"C:\Program Files\Python\python.exe", "win32")
    assert text == '@echo off\r\n"C:\\Program Files\\Python\\python.exe" -m tabsight host %*\r\n'
