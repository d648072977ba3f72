"""The pieces of docs/remote.md without a browser: the settings file's peer_uids, the ACL a host grants, the
runtime folder a front takes from a listed uid, the profile's stable socket name, ``tabsight remote``'s
arguments."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tabsight import acl, settings
from tabsight.nativehost import sharing
from tabsight.paths import FolderError, owned_folder


@pytest.fixture
def settings_at(tmp_path, monkeypatch):
    """Write the settings file (0600) where ``settings`` reads it; returns the writer."""
    path = tmp_path / "settings.json"
    monkeypatch.setattr(settings, "settings_path", lambda: path)

    def write(content) -> None:
        path.write_text(json.dumps(content))
        path.chmod(0o600)

    return write


def test_peer_uids_are_none_by_default_and_only_uids_count(settings_at, caplog):
    assert settings.peer_uids() == frozenset()
    settings_at({"peer_uids": [1001, "1002", -1, True, 2**32, 4242]})
    assert settings.peer_uids() == {1001, 4242}
    assert "peer_uids takes uids" in caplog.text
    settings_at({"peer_uids": 1001})
    assert settings.peer_uids() == frozenset()


def test_a_settings_file_others_may_read_lists_no_one(settings_at, tmp_path):
    settings_at({"peer_uids": [1001]})
    (tmp_path / "settings.json").chmod(0o644)
    assert settings.peer_uids() == frozenset()


def test_a_grant_names_the_uids_with_their_bits_and_opens_nothing_else(tmp_path):
    folder = tmp_path / "run"
    folder.mkdir(mode=0o700)
    assert acl.named_users(folder) == {}
    acl.grant(folder, {1001, 1002}, acl.READ | acl.EXECUTE)
    assert acl.named_users(folder) == {1001: 5, 1002: 5}
    assert oct(folder.stat().st_mode & 0o777) == "0o750"  # the group bits show the mask; others get nothing
    os.chmod(folder, 0o755)  # opened to others by hand: not a host's grant
    assert acl.named_users(folder) is None


@pytest.mark.skipif(os.geteuid() != 0, reason="chowns a folder to another uid")
def test_the_runtime_folder_may_belong_to_a_listed_uid_and_be_opened_to_listed_uids(settings_at, tmp_path):
    folder = tmp_path / "theirs"
    folder.mkdir(mode=0o700)
    os.chown(folder, 4242, 4242)
    with pytest.raises(FolderError, match="list uid 4242 under peer_uids"):
        owned_folder(folder, "The runtime folder", elsewhere="x", peers=True)
    settings_at({"peer_uids": [4242]})
    assert owned_folder(folder, "The runtime folder", elsewhere="x", peers=True) == folder
    with pytest.raises(FolderError):  # only the runtime folder takes the list
        owned_folder(folder, "The upload folder", elsewhere="x")

    mine = tmp_path / "mine"
    mine.mkdir(mode=0o700)
    acl.grant(mine, {4242}, acl.READ | acl.EXECUTE)
    assert owned_folder(mine, "The runtime folder", elsewhere="x", peers=True, own=True) == mine
    assert acl.named_users(mine) == {4242: 5}  # the grant kept: no chmod
    settings_at({})  # taken off the list: the folder is closed again (tabsight's own folder is chmod-ed)
    owned_folder(mine, "The runtime folder", elsewhere="x", peers=True, own=True)
    assert oct(mine.stat().st_mode & 0o777) == "0o700"


def test_a_profile_s_stable_name_comes_from_its_id(tmp_path):
    assert sharing.profile_socket(tmp_path, "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0") == tmp_path / (
        "profile-0f1e2d3c4b5a.sock"
    )
    assert sharing.profile_socket(tmp_path, "../../etc") is None  # no path from an id, whatever it says


def test_publish_names_a_socket_and_withdraw_leaves_a_newer_host_s_name(tmp_path):
    first, second = tmp_path / "host-1.sock", tmp_path / "host-2.sock"
    first.write_text("")
    second.write_text("")
    profile = "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"
    stable = sharing.publish(first, profile)
    assert stable is not None and os.path.samefile(stable, first)
    assert sharing.publish(second, profile) == stable and os.path.samefile(stable, second)  # the next host's
    sharing.withdraw(stable, first)  # the first host ends: the name is the second's now, kept
    assert os.path.samefile(stable, second)
    sharing.withdraw(stable, second)
    assert not stable.exists()


def tabsight(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tabsight", *args], capture_output=True, text=True, env={**os.environ, **env}
    )


def test_remote_where_names_a_socket_in_this_machine_s_runtime_folder(tmp_path):
    runtime = tmp_path / "rt"
    done = tabsight("remote", "where", "--name", "laptop", TABSIGHT_RUNTIME_DIR=str(runtime))
    assert done.returncode == 0 and done.stdout == f"{runtime / 'host-laptop.sock'}\n", done
    done = tabsight("remote", "where", "--name", "../x", TABSIGHT_RUNTIME_DIR=str(runtime))
    assert done.returncode == 2 and "--name '../x': letters, digits, _ or -" in done.stderr


def test_remote_forward_runs_ssh_with_the_profile_s_socket_and_passes_what_follows_the_dashes(tmp_path):
    runtime = tmp_path / "rt"
    runtime.mkdir(mode=0o700)
    done = tabsight(
        "remote", "forward", "me@box", "--remote-socket", "/r/host-x.sock", TABSIGHT_RUNTIME_DIR=str(runtime)
    )
    assert done.returncode == 1 and "no browser profile of yours with tabsight is running here" in done.stderr
    for digits in ("0f1e2d3c4b5a", "abcdefabcdef"):
        (runtime / f"profile-{digits}.sock").write_text("")
    done = tabsight("remote", "forward", "me@box", "--print", TABSIGHT_RUNTIME_DIR=str(runtime))
    assert done.returncode == 1 and "several profiles run here" in done.stderr and "--profile" in done.stderr
    done = tabsight(
        "remote", "forward", "me@box", "--profile", "0f1e", "--remote-socket", "/r/host-x.sock", "--print",
        "--", "-p", "2222", "--weird",
        TABSIGHT_RUNTIME_DIR=str(runtime),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [
        "ssh", "-N", "-o", "ExitOnForwardFailure=yes", "-o", "ServerAliveInterval=15", "-o", "ServerAliveCountMax=3",
        "-p", "2222", "--weird", "-R", f"/r/host-x.sock:{runtime / 'profile-0f1e2d3c4b5a.sock'}", "me@box",
    ]  # fmt: skip


def test_a_sent_file_is_kept_under_its_name_in_a_folder_of_the_host_s_own_and_removed_with_it(tmp_path, monkeypatch):
    from tabsight.nativehost import received

    monkeypatch.setattr(received.tempfile, "gettempdir", lambda: str(tmp_path))
    stale = tmp_path / f"{received.PREFIX}4194304"  # a dead host's
    stale.mkdir()
    kept = received.Received()
    first = kept.put({"name": "notes.txt", "data": "aGVsbG8="})
    second = kept.put({"name": "notes.txt", "data": ""})
    assert Path(first["path"]).read_bytes() == b"hello" and first["size"] == 5
    assert Path(second["path"]).name == "notes.txt" and Path(second["path"]) != Path(first["path"])
    folder = tmp_path / f"{received.PREFIX}{os.getpid()}"
    assert Path(first["path"]).is_relative_to(folder) and oct(folder.stat().st_mode & 0o777) == "0o700"
    assert oct(Path(first["path"]).stat().st_mode & 0o777) == "0o600"
    assert not stale.exists()
    kept.remove()
    assert not folder.exists()


@pytest.mark.parametrize(
    "params, problem",
    [
        ({"name": "../etc/x", "data": ""}, "must be a file name"),
        ({"name": "..", "data": ""}, "must be a file name"),
        ({"name": "a\\b", "data": ""}, "must be a file name"),
        ({"name": "x" * 256, "data": ""}, "must be a file name"),
        ({"name": "ok", "data": "not base64!"}, "data is not base64"),
        ({"name": "ok", "data": 5}, "data must be the file's bytes in base64"),
        ({"name": "big", "data": "A" * (44 * 2**20)}, "over 32 MiB"),
    ],
)
def test_a_sent_file_that_is_not_a_plain_name_or_not_base64_or_too_big_is_refused(
    tmp_path, monkeypatch, params, problem
):
    from tabsight.nativehost import received

    monkeypatch.setattr(received.tempfile, "gettempdir", lambda: str(tmp_path))
    with pytest.raises(ValueError, match=problem):
        received.Received().put(params)
    assert not list(tmp_path.iterdir())  # nothing written, not even the folder


def test_a_host_keeps_at_most_its_cap_of_sent_files(tmp_path, monkeypatch):
    from tabsight.nativehost import received

    monkeypatch.setattr(received.tempfile, "gettempdir", lambda: str(tmp_path))
    monkeypatch.setattr(received, "MAX_KEPT", 10)
    kept = received.Received()
    kept.put({"name": "a", "data": "aGVsbG8="})  # 5 bytes
    with pytest.raises(ValueError, match="keeps at most"):
        kept.put({"name": "b", "data": "aGVsbG8gd29ybGQ="})  # 11 more
