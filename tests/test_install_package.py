"""tabsight as a package, the way MCP users install servers (issue "Install like any MCP server"): the wheel built
from this repository, installed with ``uv tool install`` (and ``pipx install``) into a fresh tool folder and HOME, runs ``tabsight shot``
of a local page and ``tabsight mcp`` through the SDK's client, from a folder that is not the repository and with
no path into it. And run as ``uvx --from <wheel> tabsight install``, whose environment lives in uv's cache, the
launcher it writes runs a host environment of its own in the data folder, which ``uv cache clean`` leaves alone.
"""

from __future__ import annotations

import base64
import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters
from PIL import Image

from tabsight.install.hostenv import ENV_NAME

pytestmark = [pytest.mark.anyio, pytest.mark.browser, pytest.mark.package]

REPOSITORY = Path(__file__).resolve().parent.parent
UV = shutil.which("uv") or str(Path(sys.executable).with_name("uv"))
PIPX = str(Path(sys.executable).with_name("pipx"))  # a test extra, as uv is


def clean_env(home: Path, **extra: str) -> dict[str, str]:
    """The environment of a user who has only the package: a HOME of their own, no path into the repository."""
    kept = {key: value for key, value in os.environ.items() if not key.startswith(("PYTHON", "VIRTUAL_ENV"))}
    kept["PATH"] = os.pathsep.join(part for part in kept["PATH"].split(os.pathsep) if str(REPOSITORY) not in part)
    cache = os.environ.get("UV_CACHE_DIR") or str(Path.home() / ".cache" / "uv")  # the machine's: no downloads again
    return kept | {"HOME": str(home), "UV_CACHE_DIR": cache, **extra}


def run(command: list[str], environ: dict[str, str], cwd: Path) -> subprocess.CompletedProcess:
    """A command as the user types it, from ``cwd``; it must succeed."""
    done = subprocess.run(command, env=environ, cwd=cwd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{command}: {done.stdout}{done.stderr}"
    return done


def link_or_copy(source: str, target: str) -> None:
    try:
        os.link(source, target)  # the same files, at once
    except OSError:
        shutil.copy2(source, target)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    if not Path(UV).exists():
        pytest.fail("uv is missing: it is a test extra (pip install -e '.[test]')")
    out = tmp_path_factory.mktemp("dist")
    subprocess.run([UV, "build", "--wheel", "--out-dir", str(out), str(REPOSITORY)], check=True, capture_output=True)
    (built,) = out.glob("tabsight-*.whl")
    return built


async def test_the_wheel_installed_as_a_uv_tool_shoots_and_serves_mcp(wheel, tmp_path, site):
    home, tools, bin_dir = tmp_path / "home", tmp_path / "tools", tmp_path / "bin"
    home.mkdir()
    environ = clean_env(home, UV_TOOL_DIR=str(tools), UV_TOOL_BIN_DIR=str(bin_dir))
    run([UV, "tool", "install", str(wheel)], environ, home)
    tabsight = bin_dir / "tabsight"
    assert tabsight.is_file()
    shot = tmp_path / "page.png"
    run([str(tabsight), "shot", site.url("/form.html"), "-o", str(shot)], environ, home)
    assert Image.open(shot).size[0] > 100
    server = StdioServerParameters(command=str(tabsight), args=["mcp"], env=environ, cwd=str(home))
    async with Client(server) as client:
        result = await client.call_tool("screenshot", {"url": site.url("/form.html"), "format": "png"})
        assert not result.is_error, result.content[0].text
        (block,) = [block for block in result.content if block.type == "image"]
        assert Image.open(io.BytesIO(base64.b64decode(block.data))).size[0] > 100


def test_the_wheel_installed_with_pipx_registers_a_host_that_lives_in_pipx_s_folder(wheel, tmp_path, site):
    home, pipx_home, bin_dir, data = tmp_path / "home", tmp_path / "pipx", tmp_path / "bin", tmp_path / "data"
    home.mkdir()
    pip_cache = os.environ.get("PIP_CACHE_DIR") or str(Path.home() / ".cache" / "pip")  # no downloads again
    environ = clean_env(
        home, PIPX_HOME=str(pipx_home), PIPX_BIN_DIR=str(bin_dir), PIP_CACHE_DIR=pip_cache, TABSIGHT_DATA_DIR=str(data)
    )
    run([PIPX, "install", str(wheel)], environ, home)
    tabsight = bin_dir / "tabsight"
    run([str(tabsight), "install", "--user-data-dir", str(tmp_path / "profile")], environ, home)
    launcher = (data / "tabsight-host").read_text()
    assert str(pipx_home / "venvs" / "tabsight") in launcher, launcher  # pipx's venv: stable, not a cache
    assert (data / "tabsight.crx").is_file()
    shot = tmp_path / "page.png"
    run([str(tabsight), "shot", site.url("/form.html"), "-o", str(shot)], environ, home)
    assert Image.open(shot).size[0] > 100


def test_uvx_install_writes_a_launcher_that_outlives_uv_s_cache(wheel, tmp_path):
    home, data, cache = tmp_path / "home", tmp_path / "data", tmp_path / "uv-cache"
    home.mkdir()
    # a cache of its own (uvx's environment lives there), seeded from the machine's so nothing is downloaded
    environ = clean_env(home, TABSIGHT_DATA_DIR=str(data))
    shutil.copytree(environ["UV_CACHE_DIR"], cache, symlinks=True, copy_function=link_or_copy, dirs_exist_ok=True)
    environ |= {"UV_CACHE_DIR": str(cache), "XDG_CACHE_HOME": str(tmp_path / "xdg-cache")}
    run([UV, "tool", "run", "--from", str(wheel), "tabsight", "install"], environ, home)
    launcher = (data / "tabsight-host").read_text()
    python = data / ENV_NAME / "bin" / "python"
    assert str(python) in launcher and str(cache) not in launcher
    run([UV, "cache", "clean"], environ, home)
    assert not list(cache.rglob("tabsight/__init__.py"))  # the uvx environment is gone
    # the host's environment still imports the host, from the data folder
    checked = run(
        [str(python), "-c", "import tabsight, tabsight.nativehost.router; print(tabsight.__file__)"], environ, home
    )
    assert checked.stdout.strip().startswith(str(data)), checked.stdout
