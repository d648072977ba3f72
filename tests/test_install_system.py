"""``sudo tabsight install --system``: the extension and the host for every user's browsers, Google Chrome's
included, through managed policy and the machine-wide native-messaging folder (install/system.py).

Run in a private mount namespace (``unshare -m``): a tmpfs over /opt and a copy of /etc/chromium bound over
it, so the test machine's folders stay untouched. Everything machine-wide (the install, the browser, its host,
doctor, the uninstall) runs in that namespace through ``nsenter``; the MCP client runs outside it and reaches the
host's socket in the test's runtime folder, as a user's client does. Needs root (the install's, and the
namespace's); skipped otherwise.
"""

from __future__ import annotations

import io
import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from harness.processes import host_pids
from harness.usersbrowser import UsersBrowser
from tabsight import NATIVE_HOST_NAME
from tabsight.install.crx import crx_id
from test_install_packed import extension_settings, screenshot_of_the_users_tab, settled

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

#: Chrome's extension location for one the force-install policy downloaded (extensions::mojom::ManifestLocation)
EXTERNAL_POLICY_DOWNLOAD = 7


@dataclass
class Machine:
    """A mount namespace with the machine-wide folders of its own, kept alive by ``process``."""

    process: subprocess.Popen
    tmp: Path

    @property
    def root(self) -> Path:
        """The namespace's / seen from outside it."""
        return Path(f"/proc/{self.process.pid}/root")

    def tabsight(self, *arguments: str, code: str | None = None) -> subprocess.CompletedProcess:
        """The CLI run by root in the namespace, with a HOME, a data folder and a runtime folder of the test's
        (``code``: Python run instead, tabsight's CLI in reach)."""
        environ = {key: value for key, value in os.environ.items() if key != "XDG_CONFIG_HOME"}
        environ |= {
            "HOME": str(self.tmp / "home"),
            "TABSIGHT_DATA_DIR": str(self.tmp / "data"),
            "TABSIGHT_RUNTIME_DIR": str(self.tmp / "runtime"),
        }
        run = [sys.executable, "-c", code, *arguments] if code else [sys.executable, "-m", "tabsight", *arguments]
        return subprocess.run(
            ["nsenter", "-t", str(self.process.pid), "-m", "--", *run],
            env=environ,
            capture_output=True,
            text=True,
            timeout=180,
        )


@pytest.fixture
def machine(tmp_path) -> Iterator[Machine]:
    if os.geteuid() != 0 or not (shutil.which("unshare") and shutil.which("nsenter")):
        pytest.skip("needs root and util-linux's unshare and nsenter")
    (tmp_path / "home").mkdir()
    (tmp_path / "runtime").mkdir(mode=0o700)
    etc = tmp_path / "etc-chromium"
    shutil.copytree("/etc/chromium", etc, symlinks=True)
    process = subprocess.Popen(
        [
            "unshare",
            "-m",
            "--propagation",
            "private",
            "sh",
            "-c",
            f"mount -t tmpfs tmpfs /opt && mount --bind {etc} /etc/chromium && echo ready && exec sleep infinity",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    if process.stdout.readline().strip() != "ready":
        process.wait(10)
        pytest.skip(f"no private mount namespace here: {process.stderr.read().strip()}")
    try:
        yield Machine(process, tmp_path)
    finally:
        process.kill()
        process.wait()


async def test_install_system_puts_the_extension_in_every_user_s_chromium(machine):
    installed = machine.tabsight("install", "--system")
    assert installed.returncode == 0, installed.stdout + installed.stderr
    assert "Managed by your organization" in installed.stdout
    opt = machine.root / "opt" / "tabsight"
    extension = crx_id((opt / "tabsight.crx").read_bytes())
    policy = machine.root / "etc" / "chromium" / "policies" / "managed" / "tabsight.json"
    assert f"{extension};file:///opt/tabsight/update.xml" in policy.read_text()
    host_manifest = machine.root / "etc" / "chromium" / "native-messaging-hosts" / f"{NATIVE_HOST_NAME}.json"
    assert f"chrome-extension://{extension}/" in host_manifest.read_text()
    # every user's browser reads and runs these; the key stays root's
    assert stat.S_IMODE((opt / "extension.pem").stat().st_mode) == 0o600
    for shared in ("tabsight.crx", "update.xml", "tabsight-host", "extension/manifest.json"):
        assert (opt / shared).stat().st_mode & stat.S_IROTH, shared
    launcher = (opt / "tabsight-host").read_text()
    assert "/opt/tabsight/host-env/bin/python" in launcher  # not an interpreter in root's home
    assert not (machine.tmp / "data").exists()  # the user's own data folder is not the machine's

    profile, runtime = machine.tmp / "profile", machine.tmp / "runtime"
    browser = UsersBrowser(None, profile, runtime, unpacked=False, namespace=machine.process.pid)
    browser.start()  # no manifest in the profile, no --load-extension: policy installed it, and it started its host
    try:
        assert settled(lambda: (extension_settings(profile, extension) or {}).get("location") is not None)
        settings = extension_settings(profile, extension)
        assert settings["location"] == EXTERNAL_POLICY_DOWNLOAD and not settings.get("disable_reasons"), settings
        doctor = machine.tabsight("doctor", "--user-data-dir", str(profile)).stdout
        assert f"extension id {extension}, packed in /opt/tabsight/extension (0.1.0.0), is this tabsight's" in doctor
        assert f"manifest at /etc/chromium/native-messaging-hosts/{NATIVE_HOST_NAME}.json" in doctor, doctor
        assert f"ok    {profile}: extension loaded in profile Default" in doctor, doctor
        assert doctor.rstrip().endswith("all good: tabsight reaches 1 browser"), doctor
        assert (await screenshot_of_the_users_tab(runtime, machine.tmp / "data")).width > 100
    finally:
        browser.quit()

    removed = machine.tabsight("uninstall", "--system")
    assert removed.returncode == 0, removed.stdout + removed.stderr
    assert not opt.exists() and not policy.exists() and not host_manifest.exists()
    # its next start removes it: no host comes up, and the profile no longer lists it
    browser.started = browser._run("about:blank")
    try:
        assert settled(lambda: not extension_settings(profile, extension))
        assert not host_pids(runtime)
    finally:
        browser.started.process.terminate()
        browser.started.process.wait(60)


def test_install_system_needs_root_and_linux_and_says_so():
    from tabsight.install.system import run_install_system

    out = io.StringIO()
    assert run_install_system(out, euid=1000) == 1
    assert "run it as root, `sudo tabsight install --system`" in out.getvalue()
    out = io.StringIO()
    assert run_install_system(out, platform="darwin", euid=0) == 1
    assert "--system is for Linux only" in out.getvalue() and "load the extension unpacked" in out.getvalue()
