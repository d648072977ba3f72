"""Which files interact upload may send (tabsight.uploads): regular files under the working directory, tabsight's
upload folder or a folder of TABSIGHT_UPLOAD_ROOTS, judged by where their path resolves; refusals name each path,
why, and how to allow it. No browser: the policy runs in the front, before any request."""

from __future__ import annotations

import builtins
import os
import socket
import tempfile

import pytest

from tabsight import config, uploads
from tabsight.errors import ToolError
from tabsight.uploads import UPLOAD_FOLDER, allowed_roots, checked

ENV = "TABSIGHT_UPLOAD_ROOTS"


@pytest.fixture
def roots(tmp_path, monkeypatch):
    """A working directory (project/), tabsight's upload folder ("temp", in tempdir/, the temp folder) and a folder
    outside both (outside/), in tmp_path; TABSIGHT_UPLOAD_ROOTS unset."""
    monkeypatch.delenv(ENV, raising=False)
    config.reset()
    folders = {name: tmp_path / name for name in ("project", "tempdir", "outside")}
    for folder in folders.values():
        folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folders["tempdir"]))
    folders["temp"] = uploads.upload_folder()
    monkeypatch.chdir(folders["project"])
    return folders


def refusal(paths, cwd=None) -> str:
    with pytest.raises(ToolError) as info:
        checked(paths, cwd)
    return str(info.value)


def test_files_in_the_working_directory_and_the_upload_folder_are_allowed(roots):
    (roots["project"] / "report.pdf").write_bytes(b"%PDF-1.7 tiny")
    (roots["temp"] / "shot.png").write_bytes(b"\x89PNG")
    uploads = checked(["report.pdf", str(roots["temp"] / "shot.png")])
    assert [(u.name, u.size) for u in uploads] == [("report.pdf", 13), ("shot.png", 4)]
    assert uploads[0].path == os.path.realpath(roots["project"] / "report.pdf")  # made absolute from the cwd


def test_relative_paths_with_dotdot_are_judged_where_they_lead(roots):
    (roots["project"] / "sub").mkdir()
    (roots["project"] / "kept.txt").write_text("x")
    (roots["outside"] / "secret.txt").write_text("s")
    assert checked(["sub/../kept.txt"])[0].path == os.path.realpath(roots["project"] / "kept.txt")
    escape = os.path.relpath(roots["outside"] / "secret.txt", roots["project"])
    message = refusal([escape])
    assert f"{escape!r} ({os.path.realpath(roots['outside'] / 'secret.txt')}) is outside the folders" in message


def test_a_symlink_is_judged_by_where_it_points(roots):
    (roots["outside"] / "id_rsa").write_text("key")
    (roots["project"] / "innocent.txt").symlink_to(roots["outside"] / "id_rsa")
    message = refusal(["innocent.txt"])
    assert "is outside the folders files may be uploaded from" in message and "id_rsa" in message
    # and a symlink into an allowed folder is fine: the browser gets the file's own path
    (roots["project"] / "real.txt").write_text("ok")
    (roots["temp"] / "alias.txt").symlink_to(roots["project"] / "real.txt")
    assert checked([str(roots["temp"] / "alias.txt")])[0].path == os.path.realpath(roots["project"] / "real.txt")


def test_a_folder_of_the_roots_that_is_a_symlink_counts_where_it_points(roots, tmp_path):
    (roots["project"] / "a.txt").write_text("a")
    linked = tmp_path / "linked-project"
    linked.symlink_to(roots["project"])
    assert checked(["a.txt"], cwd=str(linked))[0].name == "a.txt"


def test_only_regular_files(roots):
    (roots["project"] / "folder").mkdir()
    os.mkfifo(roots["project"] / "pipe")
    listening = socket.socket(socket.AF_UNIX)
    try:
        listening.bind(str(roots["temp"] / "s.sock"))
        message = refusal(["folder", "pipe", str(roots["temp"] / "s.sock")])
    finally:
        listening.close()
    assert "is a directory, not a regular file" in message
    assert "is a FIFO (named pipe)" in message and "is a socket" in message
    assert "TABSIGHT_UPLOAD_ROOTS" not in message  # nothing was outside: no folders to allow


def test_devices_are_outside_and_not_files(roots, monkeypatch):
    message = refusal(["/dev/null"])
    assert "'/dev/null' is outside the folders" in message
    monkeypatch.setenv(ENV, "/dev")
    config.reset()
    assert "'/dev/null' is a character device" in refusal(["/dev/null"])


def test_a_path_no_file_can_have(roots):
    assert "'a\\x00b' has a NUL character" in refusal(["a\x00b"])


def test_a_missing_file(roots):
    message = refusal(["nothing-here.txt"])
    assert f"'nothing-here.txt' ({os.path.realpath('nothing-here.txt')}) does not exist" in message


def test_the_refusal_lists_the_folders_and_how_to_allow_one(roots):
    (roots["outside"] / "a.txt").write_text("a")
    message = refusal([str(roots["outside"] / "a.txt"), str(roots["outside"] / "b.txt")])
    assert message.startswith("Did not upload: ")
    assert message.count("is outside the folders") == 2  # a missing file outside is not even looked at
    assert f"{os.path.realpath(roots['project'])} (the working directory)" in message
    assert f"{os.path.realpath(roots['temp'])} ({UPLOAD_FOLDER})" in message
    assert UPLOAD_FOLDER == "tabsight's upload folder: put files made for an upload there"
    assert f"add it to {ENV} (folders separated by {os.pathsep!r})" in message
    assert "start the MCP client in a folder that holds the file" in message


def test_more_roots_come_from_the_environment(roots, monkeypatch):
    (roots["outside"] / "a.txt").write_text("a")
    monkeypatch.setenv(ENV, f"{os.pathsep}~/nowhere-in-particular{os.pathsep}{roots['outside']}{os.pathsep} ")
    config.reset()
    assert checked([str(roots["outside"] / "a.txt")])[0].name == "a.txt"
    listed = [(root.path, root.why) for root in allowed_roots()]
    assert (os.path.realpath(roots["outside"]), ENV) in listed
    assert (os.path.realpath(os.path.expanduser("~/nowhere-in-particular")), ENV) in listed
    assert len(listed) == len({path for path, _ in listed})  # each once


def test_a_root_is_a_folder_not_a_prefix(roots):
    sibling = roots["project"].parent / (roots["project"].name + "-secrets")
    sibling.mkdir()
    (sibling / "k.txt").write_text("k")
    assert "is outside the folders" in refusal([str(sibling / "k.txt")])


def test_files_are_only_looked_at_never_opened(roots, monkeypatch):
    (roots["project"] / "a.txt").write_text("contents tabsight never reads")

    def refuse(*args, **kwargs):
        raise AssertionError(f"opened {args[0]!r}")

    monkeypatch.setattr(builtins, "open", refuse)
    monkeypatch.setattr(os, "open", refuse)
    assert checked(["a.txt"])[0].size == 29


def test_by_default_the_working_directory_and_the_upload_folder_are_the_roots(monkeypatch, tmp_path):
    monkeypatch.delenv(ENV, raising=False)
    config.reset()
    monkeypatch.chdir(tmp_path)
    listed = [(root.path, root.why) for root in allowed_roots()]
    assert listed == [
        (os.path.realpath(tmp_path), "the working directory"),
        (os.path.realpath(tempfile.gettempdir()) + f"/tabsight-uploads-{os.getuid()}", UPLOAD_FOLDER),
    ]


@pytest.mark.parametrize("folder", ["/", "~"])
def test_a_working_directory_of_the_root_or_the_home_folder_is_no_root(roots, monkeypatch, folder):
    home = roots["outside"]  # a stand-in home folder, holding what a home folder holds
    monkeypatch.setenv("HOME", str(home))
    key = home / ".ssh" / "id_rsa"
    key.parent.mkdir()
    key.write_text("-----BEGIN OPENSSH PRIVATE KEY-----\n")
    cwd = os.path.expanduser(folder)
    assert [root.why for root in allowed_roots(cwd)] == [UPLOAD_FOLDER]
    message = refusal([str(key)], cwd)
    assert "is outside the folders files may be uploaded from" in message and "BEGIN" not in message
    # a project folder inside the home folder is a root as before
    project = home / "project"
    project.mkdir()
    (project / "a.txt").write_text("x")
    assert checked(["a.txt"], str(project))[0].path == os.path.realpath(project / "a.txt")
