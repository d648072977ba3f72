"""``tabsight install --wsl`` (install/wsl.py): what it writes for a Windows browser, checked by content, since
nothing here runs Windows (docs/remote.md says so); and its refusal outside WSL."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import PureWindowsPath

from tabsight import NATIVE_HOST_NAME
from tabsight.install import wsl
from tabsight.paths import extension_id, extension_origin


def test_the_windows_side_gets_a_manifest_a_batch_file_into_wsl_registry_keys_and_the_extension(tmp_path, monkeypatch):
    monkeypatch.setenv("TABSIGHT_RUNTIME_DIR", str(tmp_path / "run"))
    from tabsight import config

    config.reset()
    windows = tmp_path / "mnt" / "c" / "Users" / "ann" / "AppData" / "Local" / "tabsight"
    named = PureWindowsPath(r"C:\Users\ann\AppData\Local\tabsight")
    written = wsl.install(windows, named, "Ubuntu-24.04", "/home/ann/.venv/bin/python", data=tmp_path / "data")
    launcher, batch, manifest, reg, extension = written

    # the Linux launcher wsl.exe runs: the host, with the data and runtime folders a terminal's front uses
    assert launcher == tmp_path / "data" / "tabsight-host-wsl" and os.access(launcher, os.X_OK)
    text = launcher.read_text()
    assert text.startswith("#!/bin/sh\n") and text.endswith('exec /home/ann/.venv/bin/python -m tabsight host "$@"\n')
    assert f"TABSIGHT_DATA_DIR={tmp_path / 'data'}" in text and f"TABSIGHT_RUNTIME_DIR={tmp_path / 'run'}" in text
    result = subprocess.run(["sh", "-n", str(launcher)], capture_output=True)
    assert result.returncode == 0, result.stderr

    # the batch file: CRLF, its stdio and Chrome's arguments handed to that launcher in the distribution
    assert batch.read_bytes() == (
        f'@echo off\r\nwsl.exe --distribution Ubuntu-24.04 --exec "{launcher}" %*\r\n'.encode()
    )

    # the manifest: the batch file beside it, tabsight's extension only
    content = json.loads(manifest.read_text())
    assert content["name"] == NATIVE_HOST_NAME and content["type"] == "stdio"
    assert content["path"] == "tabsight-host.bat"
    assert extension_origin(extension_id()) in content["allowed_origins"]

    # the registry: a .reg file (UTF-16, as regedit writes them) giving each vendor key the manifest's path
    text = reg.read_bytes().decode("utf-16-le")
    assert text.startswith("\ufeffWindows Registry Editor Version 5.00\r\n\r\n")
    value = r'@="C:\\Users\\ann\\AppData\\Local\\tabsight\\dev.tabsight.host.json"'
    for vendor in (r"Google\Chrome", r"Microsoft\Edge", "Chromium"):
        assert f"[HKEY_CURRENT_USER\\Software\\{vendor}\\NativeMessagingHosts\\{NATIVE_HOST_NAME}]\r\n{value}" in text
    assert text.count(value) == len(wsl.registry_keys())

    # the extension to load unpacked, with its key: the id the manifest allows
    assert json.loads((extension / "manifest.json").read_text())["key"]


def test_a_distribution_name_that_is_no_name_is_refused(tmp_path):
    try:
        wsl.install(tmp_path / "w", PureWindowsPath("C:/x"), "Ubuntu & calc", "/usr/bin/python3", data=tmp_path)
    except wsl.WslError as error:
        assert "--distribution 'Ubuntu & calc'" in str(error)
    else:
        raise AssertionError("a distribution name with & was taken into a batch file")
    assert not (tmp_path / "w").exists()


def test_outside_wsl_install_wsl_says_it_is_for_wsl_and_writes_nothing(tmp_path):
    env = {**os.environ, "HOME": str(tmp_path), "TABSIGHT_DATA_DIR": str(tmp_path / "data")}
    env.pop("WSL_DISTRO_NAME", None)
    done = subprocess.run(
        [sys.executable, "-m", "tabsight", "install", "--wsl"], capture_output=True, text=True, env=env
    )
    assert done.returncode == 1 and "--wsl is for WSL" in done.stdout, done
    done = subprocess.run(
        [sys.executable, "-m", "tabsight", "install", "--wsl", "--distribution", "Ubuntu"],
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode == 1 and "no cmd.exe or wslpath" in done.stdout, done
    assert not (tmp_path / "data").exists()
