"""Files land where the user lives only when the user says so (issue 29, case 6): tabsight's embedded browser
downloads into its own profile, removed with it, and what tabsight writes for the user (the screenshots that
TABSIGHT_SCREENSHOT_DIR keeps) is 0600, in folders it makes 0700. Through the SDK's client on the real headless
Chromium."""

from __future__ import annotations

import asyncio
import os
import shutil
import stat
import tempfile
import time
from pathlib import Path

import pytest

from conftest import front_env, mcp_client
from harness.calls import payload

pytestmark = [pytest.mark.anyio, pytest.mark.browser]


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


async def files_in(folder: Path, count: int, seconds: float = 15.0) -> list[str]:
    """The names of the finished files in ``folder`` once there are ``count`` (or whatever is there after
    ``seconds``): Chromium writes a download as a hidden temporary file (``.org.chromium.Chromium.XXXXXX``),
    then as ``.crdownload``, before its name."""
    deadline = time.monotonic() + seconds
    while True:
        names = (
            sorted(
                path.name
                for path in folder.glob("*")
                if not path.name.endswith(".crdownload") and not path.name.startswith(".")
            )
            if folder.is_dir()
            else []
        )
        if len(names) >= count or time.monotonic() > deadline:
            return names
        await asyncio.sleep(0.1)


@pytest.fixture
def short_temp():
    """A temp folder of the test's own with a short path: the browser's singleton socket goes under it."""
    folder = Path(tempfile.mkdtemp(prefix="tsf-", dir="/tmp"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


async def test_the_embedded_browsers_downloads_land_in_its_profile_and_go_with_it(site, tmp_path, short_temp):
    """Before: a page's <a download>, clicked by the agent or by a script, wrote into the user's ~/Downloads from
    the 'fresh' profile, and stayed. Now both land in the profile's Downloads/, and nothing in the home folder."""
    home, temp, runtime = tmp_path / "home", short_temp, tmp_path / "rt"
    for folder in (home, runtime):
        folder.mkdir(mode=0o700)
    env = front_env(HOME=str(home), TMPDIR=str(temp), TABSIGHT_RUNTIME_DIR=str(runtime), TABSIGHT_EMBEDDED_LINGER="0")
    async with mcp_client(env) as client:
        payload(await client.call_tool("interact", {"action": "navigate", "url": site.url("/download.html")}))
        (profile,) = temp.glob("tabsight-profile-*")
        downloads = profile / "Downloads"

        # the script first: a second download a page starts without the user's gesture waits for a permission
        # (several automatic downloads) that no one can give in a headless browser; the agent's click is a gesture
        payload(
            await client.call_tool("interact", {"action": "execute", "script": "document.querySelector('a').click()"})
        )
        assert await files_in(downloads, 1) == ["tabsight-report.html"], sorted(map(str, home.rglob("*")))
        payload(await client.call_tool("interact", {"action": "click", "selector": "#report"}))
        assert await files_in(downloads, 2) == ["tabsight-report (1).html", "tabsight-report.html"]
        assert mode(downloads) == 0o700
        assert not [path for path in home.rglob("*") if "tabsight-report" in path.name]
        assert not (home / "Downloads").exists()
    deadline = time.monotonic() + 30
    while profile.exists() and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    assert not profile.exists()  # the downloads went with the browser's profile


@pytest.mark.parametrize("given", ["a folder tabsight makes", "a folder open to others"])
async def test_screenshots_kept_for_tabsight_screenshot_dir_are_0600_in_0700_folders(browser, site, tmp_path, given):
    """Before: kept with the umask (0644, in 0755 folders): pictures of logged-in pages, which redaction cannot
    mask, readable by every local user. Now each file is 0600; the folders tabsight makes are 0700, and one that
    was there is left as it is."""
    if given == "a folder tabsight makes":
        dump = tmp_path / "kept" / "shots"
    else:
        dump = tmp_path / "shared"
        dump.mkdir()
        os.chmod(dump, 0o755)
    async with mcp_client(front_env(TABSIGHT_SCREENSHOT_DIR=str(dump))) as client:
        payload(await client.call_tool("interact", {"action": "navigate", "url": site.url("/index.html")}))
        answer = payload(
            await client.call_tool(
                "interact",
                {"action": "execute", "cdp": [{"method": "Page.captureScreenshot", "params": {"format": "png"}}]},
            )
        )
        assert answer["cdp"][0]["result"]["data"] == "<image 1, attached below>"
    (shot,) = dump.iterdir()
    assert shot.suffix == ".png" and shot.read_bytes().startswith(b"\x89PNG")
    assert mode(shot) == 0o600
    if given == "a folder tabsight makes":
        assert (mode(dump.parent), mode(dump)) == (0o700, 0o700)
    else:
        assert mode(dump) == 0o755  # the user's folder, as the user left it
