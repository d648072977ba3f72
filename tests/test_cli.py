"""The main job and the package: `tabsight shot`, and what `pip install .` ships."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import pytest
from PIL import Image

import tabsight
from conftest import front_env
from harness.processes import descendants, environ
from tabsight.paths import extension_dir, extension_manifest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def short_temp():
    """A temp folder of its own with a short path (the browser's socket goes under it), to see what is left there."""
    folder = Path(tempfile.mkdtemp(prefix="tsc-", dir="/tmp"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.browser
def test_shot_writes_the_image_and_leaves_nothing_when_it_returns(tmp_path, site, short_temp):
    """No linger: the browser it started ends with it. When the command returns, nothing of that browser runs
    (the processes it started carry its runtime folder in their environment: that is how the host finds it),
    and its socket and profile are gone."""
    runtime = tmp_path / "rt"
    runtime.mkdir(mode=0o700)
    output = tmp_path / "page.png"
    run = subprocess.run(
        [sys.executable, "-m", "tabsight", "shot", site.url("/index.html"), "-o", str(output)],
        env=front_env(TABSIGHT_RUNTIME_DIR=str(runtime), TMPDIR=str(short_temp)),
        capture_output=True,
        text=True,
        timeout=90,
    )
    assert run.returncode == 0, run.stderr
    marker = f"TABSIGHT_RUNTIME_DIR={runtime}\0".encode()
    assert [pid for pid in descendants(1) if marker in environ(pid)] == []
    assert list(runtime.glob("host-*.sock")) == []
    assert list(short_temp.iterdir()) == []
    with Image.open(output) as img:
        assert img.format == "PNG" and img.size == (1280, 720)
    metadata = json.loads(run.stdout.split(": ", 1)[1])["metadata"]
    assert metadata["url"] == site.url("/index.html")


@pytest.mark.browser
def test_shot_loads_no_part_of_the_mcp_sdk(tmp_path, site):
    """`tabsight shot` runs the screenshot tool without the MCP SDK: not one of its modules is imported
    (``-X importtime`` lists every module the process imports)."""
    runtime = tmp_path / "rt"
    runtime.mkdir(mode=0o700)
    output = tmp_path / "page.jpg"
    run = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "tabsight", "shot", site.url("/index.html"), "-o", str(output)],
        env=front_env(TABSIGHT_RUNTIME_DIR=str(runtime)),
        capture_output=True,
        text=True,
        timeout=90,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    imported = [line.rsplit("|", 1)[1].strip() for line in run.stderr.splitlines() if line.startswith("import time:")]
    assert "tabsight.tools.screenshot" in imported and "PIL.Image" in imported
    assert [name for name in imported if name.split(".")[0] in ("mcp", "mcp_types")] == []
    with Image.open(output) as img:
        assert img.format == "JPEG"


def test_shot_reports_a_bad_url(tmp_path, short_temp):
    """The browser is started before the arguments are checked (they need the tools, which load meanwhile):
    arguments refused end it again, and nothing of it is left."""
    runtime = tmp_path / "rt"
    runtime.mkdir(mode=0o700)
    run = subprocess.run(
        [sys.executable, "-m", "tabsight", "shot", "not-a-url", "-o", str(tmp_path / "x.png")],
        env=front_env(TABSIGHT_RUNTIME_DIR=str(runtime), TMPDIR=str(short_temp)),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 1 and "Invalid URL format" in run.stderr and "'not-a-url'" in run.stderr
    assert not (tmp_path / "x.png").exists()
    marker = f"TABSIGHT_RUNTIME_DIR={runtime}\0".encode()
    assert [pid for pid in descendants(1) if marker in environ(pid)] == []
    assert list(runtime.iterdir()) == [] and list(short_temp.iterdir()) == []


@pytest.mark.parametrize("where", ["missing-folder", "a-file-as-folder", "a-folder"])
def test_shot_to_a_path_it_cannot_write_is_one_line_naming_the_argument_and_starts_no_browser(tmp_path, where):
    (tmp_path / "file").write_text("")
    output = {
        "missing-folder": tmp_path / "missing" / "dir" / "x.png",
        "a-file-as-folder": tmp_path / "file" / "x.png",
        "a-folder": tmp_path,
    }[where]
    runtime = tmp_path / "rt"
    runtime.mkdir(mode=0o700)
    run = subprocess.run(
        [sys.executable, "-m", "tabsight", "shot", "https://example.com", "-o", str(output)],
        env=front_env(TABSIGHT_RUNTIME_DIR=str(runtime)),
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert run.returncode == 2, run.stderr
    (line,) = run.stderr.splitlines()
    assert line.startswith("tabsight shot: error: argument -o/--output: ") and "Traceback" not in run.stderr, line
    assert str(output.parent if where != "a-folder" else output) in line, line
    assert list(runtime.iterdir()) == []  # checked before any browser starts


def test_extension_version_is_the_package_version():
    assert extension_manifest()["version"] == tabsight.__version__


def test_the_wheel_carries_the_extension(tmp_path):
    """`pip install .` (not only editable) must give a tabsight that can load its extension."""
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (wheel,) = tmp_path.glob("tabsight-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    shipped = {p.relative_to(extension_dir()).as_posix() for p in extension_dir().rglob("*") if p.is_file()}
    assert shipped and {f"tabsight/extension/{name}" for name in shipped} <= names
    assert "tabsight/cli.py" in names
