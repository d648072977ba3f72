"""The main job and the package: `tabsight shot`, and what `pip install .` ships."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from PIL import Image

from conftest import front_env
from harness.processes import descendants, environ, wait_until

import tabsight
from tabsight.paths import extension_dir, extension_manifest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.browser
def test_shot_writes_the_image_and_leaves_no_process(tmp_path, site):
    runtime = tmp_path / "rt"
    runtime.mkdir(mode=0o700)
    output = tmp_path / "page.png"
    run = subprocess.run(
        [sys.executable, "-m", "tabsight", "shot", site.url("/index.html"), "-o", str(output)],
        env=front_env(TABSIGHT_RUNTIME_DIR=str(runtime)),
        capture_output=True,
        text=True,
        timeout=90,
    )
    assert run.returncode == 0, run.stderr
    with Image.open(output) as img:
        assert img.format == "PNG" and img.size == (1280, 720)
    metadata = json.loads(run.stdout.split(": ", 1)[1])["metadata"]
    assert metadata["url"] == site.url("/index.html")
    # The browser it started and that browser's host carry its runtime folder
    # in their environment (that is how the host finds the folder): none is left.
    # The host outlives its browser by the moment it takes to delete the profile.
    marker = f"TABSIGHT_RUNTIME_DIR={runtime}\0".encode()
    assert wait_until(lambda: not [pid for pid in descendants(1) if marker in environ(pid)], 5)
    assert list(runtime.glob("host-*.sock")) == []


def test_shot_reports_a_bad_url(tmp_path):
    runtime = tmp_path / "rt"
    runtime.mkdir(mode=0o700)
    run = subprocess.run(
        [sys.executable, "-m", "tabsight", "shot", "not-a-url", "-o", str(tmp_path / "x.png")],
        env=front_env(TABSIGHT_RUNTIME_DIR=str(runtime)),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 1 and "Invalid URL format" in run.stderr and "'not-a-url'" in run.stderr
    assert not (tmp_path / "x.png").exists()


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
