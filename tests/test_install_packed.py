"""The user's Chromium gets tabsight's extension without Developer mode (issue "Install like any MCP server"):
``tabsight install --user-data-dir DIR`` packs the extension with a key made for this machine (0600 in the data
folder), names it in ``DIR/External Extensions``, and registers the host for both ids; the browser, started on
that profile with no --load-extension, installs it enabled at its start, its extension starts the host, and an MCP
client with ``TABSIGHT_BROWSER=never`` takes a screenshot of its tab. ``tabsight uninstall`` and a restart: gone.
A real headless Chromium (Debian's), the real CLI in subprocesses, the SDK's client.
"""

from __future__ import annotations

import base64
import io
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PIL import Image

from conftest import front_env, mcp_client
from harness.processes import host_pids
from harness.usersbrowser import UsersBrowser
from tabsight import NATIVE_HOST_NAME
from tabsight.install.crx import crx_id
from tabsight.paths import extension_dir

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

#: Chrome's extension location for one an External Extensions file names (extensions::mojom::ManifestLocation)
EXTERNAL_PREF = 2


#: ``tabsight`` as a newer release runs it: its extension is the folder given first
NEWER_TABSIGHT = (
    "import sys; from pathlib import Path; from tabsight.install import crx; newer = Path(sys.argv.pop(1)); "
    "crx.extension_dir = lambda: newer; from tabsight.cli import main; sys.exit(main(sys.argv[1:]))"
)


def tabsight(data: Path, *arguments: str, code: str | None = None) -> subprocess.CompletedProcess:
    """The CLI as the user runs it, with a HOME of its own (beside ``data``: the machine's browsers are never
    registered) and the test's runtime folder (beside ``data`` too); ``code``: Python run instead."""
    home = data.parent / "home"
    home.mkdir(exist_ok=True)
    environ = {key: value for key, value in os.environ.items() if key != "XDG_CONFIG_HOME"}
    environ |= {"TABSIGHT_DATA_DIR": str(data), "HOME": str(home), "TABSIGHT_RUNTIME_DIR": str(data.parent / "runtime")}
    run = [sys.executable, "-c", code] if code else [sys.executable, "-m", "tabsight"]
    return subprocess.run([*run, *arguments], env=environ, capture_output=True, text=True, timeout=120)


def extension_settings(profile: Path, extension: str) -> dict | None:
    try:
        preferences = json.loads((profile / "Default" / "Preferences").read_text())
    except (OSError, ValueError):  # not written yet, or being written
        return None
    return preferences.get("extensions", {}).get("settings", {}).get(extension)


async def screenshot_of_the_users_tab(runtime: Path, data: Path) -> Image.Image:
    """A screenshot of the tab of the browser whose host serves ``runtime``, through an MCP client that must not
    start a browser of its own (TABSIGHT_BROWSER=never)."""
    environ = front_env(TABSIGHT_BROWSER="never", TABSIGHT_RUNTIME_DIR=str(runtime), TABSIGHT_DATA_DIR=str(data))
    async with mcp_client(environ) as client:
        shot = await client.call_tool("screenshot", {"format": "png"})
    assert not shot.is_error, shot.content[0].text
    (block,) = [block for block in shot.content if block.type == "image"]
    return Image.open(io.BytesIO(base64.b64decode(block.data)))


def settled(check, seconds: float = 30.0) -> bool:
    """Chrome writes its Preferences a few seconds after a change: ``check`` until it holds."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.5)
    return True


async def test_install_puts_the_extension_in_a_chromium_without_developer_mode(tmp_path):
    data, profile, runtime = tmp_path / "data", tmp_path / "profile", tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    installed = tabsight(data, "install", "--user-data-dir", str(profile))
    assert installed.returncode == 0, installed.stdout + installed.stderr
    crx = data / "tabsight.crx"
    extension = crx_id(crx.read_bytes())
    assert "Restart those browsers" in installed.stdout and extension in installed.stdout
    assert (data / "extension.pem").stat().st_mode & 0o777 == 0o600
    named = json.loads((profile / "External Extensions" / f"{extension}.json").read_text())
    assert named["external_crx"] == str(crx) and Path(named["external_crx"]).is_absolute()
    host_manifest = json.loads((profile / "NativeMessagingHosts" / f"{NATIVE_HOST_NAME}.json").read_text())
    assert f"chrome-extension://{extension}/" in host_manifest["allowed_origins"]

    before = tabsight(data, "doctor")
    assert f"extension named in {profile / 'External Extensions' / f'{extension}.json'}" in before.stdout
    assert "restart that browser" in before.stdout

    browser = UsersBrowser(None, profile, runtime, unpacked=False)
    browser.start()  # returns once the extension started its host: installed, enabled, connected
    try:
        assert settled(lambda: extension_settings(profile, extension) is not None)
        settings = extension_settings(profile, extension)
        assert settings["location"] == EXTERNAL_PREF, settings
        assert not settings.get("disable_reasons"), settings
        doctor = tabsight(data, "doctor").stdout
        assert f"ok    {profile}: extension loaded in profile Default" in doctor, doctor
        assert "ok    connected: Chromium" in doctor and doctor.rstrip().endswith(
            "all good: tabsight reaches 1 browser"
        )
        assert (await screenshot_of_the_users_tab(runtime, data)).width > 100
    finally:
        browser.quit()

    removed = tabsight(data, "uninstall")
    assert removed.returncode == 0, removed.stdout + removed.stderr
    assert (
        not (profile / "External Extensions" / f"{extension}.json").exists() and not data.joinpath("extension").exists()
    )
    # its next start removes it: no host comes up, and the profile no longer lists it
    browser.started = browser._run("about:blank")
    try:
        # (Chrome leaves an empty entry for an extension it uninstalled, and removes its files)
        assert settled(lambda: not extension_settings(profile, extension))
        assert not (profile / "Default" / "Extensions" / extension).exists()
        assert not host_pids(runtime)
    finally:
        browser.started.process.terminate()
        browser.started.process.wait(60)


async def test_a_session_in_tabsight_s_own_browser_says_so_when_yours_is_installed(browser, tmp_path):
    """Never silently the wrong browser: with the host installed for a browser of the user's that is not
    connected, the first answer says the session works in tabsight's own Chromium, and how to get to the
    user's; once a session. Without an install, nothing is said (the embedded browser is all there is)."""
    from harness.calls import notes
    from tabsight.browser.connection import NOT_YOUR_BROWSER

    data = tmp_path / "data"
    data.mkdir()
    manifest = tmp_path / "config" / "chromium" / "NativeMessagingHosts" / f"{NATIVE_HOST_NAME}.json"
    (data / "installed.json").write_text(json.dumps({"files": [str(manifest)]}))
    async with mcp_client(front_env(TABSIGHT_DATA_DIR=str(data))) as client:
        first = await client.call_tool("observe", {"what": "tabs"})
        assert NOT_YOUR_BROWSER in notes(first)
        assert "TABSIGHT_BROWSER=never" in NOT_YOUR_BROWSER
        assert NOT_YOUR_BROWSER not in notes(await client.call_tool("observe", {"what": "tabs"}))
    (data / "installed.json").unlink()
    async with mcp_client(front_env(TABSIGHT_DATA_DIR=str(data))) as client:
        assert NOT_YOUR_BROWSER not in notes(await client.call_tool("observe", {"what": "tabs"}))


async def test_a_new_install_updates_the_extension_at_the_browser_s_next_start(tmp_path):
    """The browser updates an external extension only to a higher version: each install whose extension files
    differ from the copy packed before adds one to the version's fourth number, and the browser takes it at its
    next start; an install with the same files keeps the version (no needless update)."""
    data, profile, runtime = tmp_path / "data", tmp_path / "profile", tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    assert tabsight(data, "install", "--user-data-dir", str(profile)).returncode == 0
    extension = crx_id((data / "tabsight.crx").read_bytes())

    def installed_version() -> str | None:
        return ((extension_settings(profile, extension) or {}).get("manifest") or {}).get("version")

    browser = UsersBrowser(None, profile, runtime, unpacked=False)
    browser.start()
    try:
        assert settled(lambda: installed_version() == "0.1.0.0"), installed_version()
    finally:
        browser.quit()
    assert tabsight(data, "install", "--user-data-dir", str(profile)).returncode == 0
    assert json.loads((data / "extension" / "manifest.json").read_text())["version"] == "0.1.0.0"

    newer = tmp_path / "newer-extension"
    shutil.copytree(extension_dir(), newer)
    with (newer / "service-worker" / "native.js").open("a") as script:
        script.write("// a newer tabsight's extension\n")
    upgraded = tabsight(data, str(newer), "install", "--user-data-dir", str(profile), code=NEWER_TABSIGHT)
    assert upgraded.returncode == 0, upgraded.stdout + upgraded.stderr
    assert crx_id((data / "tabsight.crx").read_bytes()) == extension  # the same key: the same extension
    doctor = tabsight(data, "doctor").stdout
    assert "(0.1.0.1), is an older tabsight's" in doctor and "run `tabsight install` again" in doctor, doctor
    browser.start()  # the updated extension started the host
    try:
        assert settled(lambda: installed_version() == "0.1.0.1"), installed_version()
        assert (await screenshot_of_the_users_tab(runtime, data)).width > 100  # and it works
    finally:
        browser.quit()


@pytest.mark.headed
async def test_a_headed_chromium_on_a_desktop_installs_it_too(desktop, tmp_path):
    """The same install, the browser as a user runs it: headed, on a desktop (Xvfb and a window manager)."""
    data, profile, runtime = tmp_path / "data", tmp_path / "profile", tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    installed = tabsight(data, "install", "--user-data-dir", str(profile))
    assert installed.returncode == 0, installed.stdout + installed.stderr
    extension = crx_id((data / "tabsight.crx").read_bytes())
    browser = UsersBrowser(desktop, profile, runtime, unpacked=False)
    browser.start()  # the packed extension started the host
    try:
        assert settled(lambda: (extension_settings(profile, extension) or {}).get("location") == EXTERNAL_PREF)
        assert (await screenshot_of_the_users_tab(runtime, data)).width > 100
    finally:
        browser.quit()
