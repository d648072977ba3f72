"""Upload roots (issue 29, case 7): the MCP client's working directory, tabsight's own upload folder and
TABSIGHT_UPLOAD_ROOTS, not the whole temp folder, where other programs keep their credentials; and no hard link,
whose other names may lie anywhere. Through the SDK's client on the real headless Chromium, on
tests/pages/upload.html (its file input #files keeps what it is given in window.changes)."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
from mcp.client.stdio import StdioServerParameters

from conftest import client_on, front_env, mcp_client
from harness.calls import payload, refusal, script
from tabsight.uploads import upload_folder

pytestmark = [pytest.mark.anyio, pytest.mark.browser]


async def upload(client, path: Path):
    return await client.call_tool("interact", {"action": "upload", "files": [str(path)], "selector": "#files"})


async def set_on_the_page(client) -> list:
    return await script(client, "return (window.changes || []).map((change) => change.files.map((f) => f.name))")


@pytest.fixture
def ticket_cache():
    """A credential cache as Kerberos keeps one, in the temp folder: /tmp/krb5cc_<uid>, mode 0600, the user's own."""
    descriptor, name = tempfile.mkstemp(prefix="krb5cc_tabsight_")
    os.write(descriptor, b"\x05\x04 a ticket-granting ticket")
    os.close(descriptor)
    yield Path(name)
    os.unlink(name)


async def test_a_file_in_the_temp_folder_is_refused_and_tabsights_upload_folder_is_named(browser, site, ticket_cache):
    """Before: the temp folder and /tmp were roots, so the ticket cache went to the page. Now it is refused, and the
    answer names tabsight's own upload folder, where a file made for an upload goes; a file there uploads."""
    assert ticket_cache.parent == Path(tempfile.gettempdir())
    async with client_on(site.url("/upload.html")) as client:
        message = refusal(await upload(client, ticket_cache))
        assert f"{str(ticket_cache)!r} is outside the folders files may be uploaded from" in message, message
        assert f"{upload_folder()} (tabsight's upload folder: put files made for an upload there)" in message
        assert f"{tempfile.gettempdir()} (" not in message
        assert await set_on_the_page(client) == []

        made = Path(tempfile.mkdtemp(dir=upload_folder())) / "report.txt"
        try:
            made.write_text("made for the upload")
            assert payload(await upload(client, made))["input_files"] == [{"name": "report.txt", "size": 19}]
        finally:
            shutil.rmtree(made.parent)
        assert await set_on_the_page(client) == [["report.txt"]]


async def test_a_hard_link_in_the_working_folder_to_a_file_outside_is_refused(browser, site, tmp_path):
    """Before: a hard link in the project to a file outside it passed (a regular file, inside the working
    directory). Now a file with more than one name is refused, and the answer says to upload a copy; a copy
    uploads."""
    project, outside = tmp_path / "project", tmp_path / "outside"
    project.mkdir()
    outside.mkdir()
    (outside / "id_ed25519").write_text("-----BEGIN OPENSSH PRIVATE KEY-----\n")
    os.link(outside / "id_ed25519", project / "notes.txt")
    front = StdioServerParameters(
        command=sys.executable, args=["-m", "tabsight", "mcp"], env=front_env(), cwd=str(project)
    )
    async with mcp_client(server=front) as client:
        payload(await client.call_tool("interact", {"action": "navigate", "url": site.url("/upload.html")}))
        message = refusal(await upload(client, Path("notes.txt")))
        assert message.startswith(
            f"Did not upload: 'notes.txt' ({project / 'notes.txt'}) is a hard link (the file "
            "has 2 names), and another of its names may be outside the folders files may be "
            "uploaded from: upload a copy of it instead"
        ), message
        assert "BEGIN" not in message
        assert await set_on_the_page(client) == []

        (project / "notes.txt").unlink()
        shutil.copy(outside / "id_ed25519", project / "notes.txt")
        assert payload(await upload(client, Path("notes.txt")))["input_files"] == [{"name": "notes.txt", "size": 36}]
