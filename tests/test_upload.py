"""File upload (issue 20): interact's upload sets files on a file input, or on the file chooser a click on its target
opens, through a real MCP client on the real extension; the files are checked first (tabsight.uploads: regular
files under the allowed folders; tests/test_upload_policy.py has the rules), and only their paths travel
(across a forward their bytes do: tests/test_remote.py).

tests/pages/upload.html has a visible multiple file input, a button that opens a hidden single-file input, and a
button that opens nothing; its change handler keeps what each input then holds. tests/realapps/pages/dropzone.html
is Dropzone.js from npm, whose zones open a hidden input of Dropzone's own on a click. The files live in a folder
of their own in tabsight's upload folder, one of the folders uploads may come from.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest

from conftest import client_on, mcp_client, users_browser
from harness.calls import payload, refusal, script
from tabsight.paths import extension_id
from tabsight.uploads import upload_folder

pytestmark = [pytest.mark.anyio, pytest.mark.browser]


async def upload(client, *files, **target) -> dict:
    return payload(await client.call_tool("interact", {"action": "upload", "files": [str(f) for f in files], **target}))


async def refused(client, *files, **target) -> str:
    return refusal(await client.call_tool("interact", {"action": "upload", "files": [str(f) for f in files], **target}))


@pytest.fixture
def scratch():
    """A folder of the test's own in tabsight's upload folder (the front's is the same: same temp folder, same
    user)."""
    folder = Path(tempfile.mkdtemp(dir=upload_folder()))
    yield folder
    shutil.rmtree(folder)


@pytest.fixture
def notes(scratch):
    """Two small files: notes.txt (11 bytes) and data.csv (17 bytes)."""
    text = scratch / "notes.txt"
    text.write_text("hello world")
    table = scratch / "data.csv"
    table.write_text("a,b\n1,2\n3,4\n5,67\n")
    return text, table


@pytest.fixture
async def upload_page(browser, site):
    async with client_on(site.url("/upload.html")) as client:
        yield client


async def page_saw(client) -> dict:
    return await script(client, "return {changes: window.changes, inputs: window.inputs, cancels: window.cancels}")


async def test_files_set_on_a_file_input(upload_page, notes):
    text, table = notes
    answer = await upload(upload_page, text, table, selector="#files")
    assert answer["via"] == "input" and answer["did"] == "set 2 files on the file input"
    assert answer["files"] == [
        {"name": "notes.txt", "size": 11, "path": str(text)},
        {"name": "data.csv", "size": 17, "path": str(table)},
    ]
    assert answer["input_files"] == [{"name": "notes.txt", "size": 11}, {"name": "data.csv", "size": 17}]
    assert answer["target"]["tag"] == "input"
    assert answer["dom"]["added"] == 2 and answer["dom"]["attributes"] == 0  # the page's list, not tabsight's mark
    saw = await page_saw(upload_page)
    assert saw["changes"] == [
        {
            "id": "files",
            "trusted": True,
            "files": [
                {"name": "notes.txt", "size": 11, "type": "text/plain"},
                {"name": "data.csv", "size": 17, "type": "text/csv"},
            ],
        }
    ]
    assert saw["inputs"] == [{"id": "files", "trusted": True}]
    assert not await script(upload_page, "return document.querySelector('[data-tabsight-upload]') !== null")


async def test_a_label_of_a_file_input_takes_the_files_too(upload_page, notes):
    answer = await upload(upload_page, notes[0], selector="label")
    assert answer["via"] == "input" and answer["input_files"] == [{"name": "notes.txt", "size": 11}]
    assert [change["id"] for change in (await page_saw(upload_page))["changes"]] == ["files"]


async def test_a_button_that_opens_a_hidden_input_gets_its_chooser_answered(upload_page, notes):
    seen = payload(
        await upload_page.call_tool(
            "observe", {"what": "page", "annotate_screenshot": True, "annotation_format": "json"}
        )
    )
    button = next(a["label"] for a in seen["annotations"] if a.get("name") == "Choose avatar")
    answer = await upload(upload_page, notes[1], label=button)
    assert answer["via"] == "chooser" and answer["label"] == button
    assert answer["did"].startswith("click at (")
    assert answer["did"].endswith(", and set 1 file on the file chooser it opened")
    assert answer["target"]["name"] == "Choose avatar"
    assert answer["input_files"] == [{"name": "data.csv", "size": 17}]
    saw = await page_saw(upload_page)
    assert saw["changes"] == [
        {"id": "avatar", "trusted": True, "files": [{"name": "data.csv", "size": 17, "type": "text/csv"}]}
    ]
    assert saw["cancels"] == []


async def test_a_plain_click_that_opens_a_chooser_keeps_it_closed_and_says_upload_answers_it(upload_page, notes):
    clicked = payload(await upload_page.call_tool("interact", {"action": "click", "selector": "#choose-avatar"}))
    assert clicked["did"].startswith("click at (")
    assert "the click opened a file chooser, kept closed" in clicked["file_chooser"]
    assert "use action upload" in clicked["file_chooser"]
    # the chooser left unanswered does not stand in the way of the next one
    answer = await upload(upload_page, notes[0], selector="#choose-avatar")
    assert answer["via"] == "chooser" and answer["input_files"] == [{"name": "notes.txt", "size": 11}]
    # and a click that opens none says nothing of choosers
    plain = payload(await upload_page.call_tool("interact", {"action": "click", "selector": "#nothing"}))
    assert "file_chooser" not in plain


async def test_a_point_on_a_file_input_opens_its_chooser(upload_page, notes):
    box = await script(
        upload_page,
        "const r = document.getElementById('files').getBoundingClientRect();"
        "return {x: r.x + r.width / 2, y: r.y + r.height / 2}",
    )
    answer = await upload(upload_page, *notes, x=box["x"], y=box["y"])
    assert answer["via"] == "chooser" and answer["received"]["tag"] == "input"
    assert [f["name"] for f in answer["input_files"]] == ["notes.txt", "data.csv"]


async def test_refusals_name_the_path_and_how_to_allow_it_and_leave_the_tab_as_it_was(upload_page, notes, scratch):
    text, table = notes
    folder = scratch / "folder"
    folder.mkdir()
    link = scratch / "hostname-link"
    link.symlink_to("/etc/hostname")
    fifo = scratch / "pipe"
    os.mkfifo(fifo)

    message = await refused(upload_page, "/etc/hostname", selector="#files")
    assert "'/etc/hostname' is outside the folders files may be uploaded from" in message
    assert "TABSIGHT_UPLOAD_ROOTS" in message and f"{os.getcwd()} (the working directory)" in message
    message = await refused(upload_page, link, selector="#files")
    assert f"'{link}' ({os.path.realpath('/etc/hostname')}) is outside the folders" in message
    assert "is a directory, not a regular file" in await refused(upload_page, folder, selector="#files")
    assert "is a FIFO (named pipe)" in await refused(upload_page, fifo, selector="#files")
    gone = scratch / "gone.txt"
    assert f"'{gone}' does not exist" in await refused(upload_page, gone, selector="#files")
    # every path refused is named, in one answer
    message = await refused(upload_page, text, "/etc/hostname", folder, selector="#files")
    assert "'/etc/hostname' is outside" in message and "is a directory" in message and "notes.txt" not in message

    assert "#avatar (an <input type=file> without multiple) takes one file, not 2" in await refused(
        upload_page, text, table, selector="#avatar"
    )
    assert "The file chooser the click on #choose-avatar opened takes one file, not 2" in await refused(
        upload_page, text, table, selector="#choose-avatar"
    )
    # Chooser interception is off again: the chooser that Enter on the button opens (on the attachment that refusal
    # used: a page script would start a new one; a click would intercept it, as every click does) is the
    # browser's, which headless closes at once (a cancel event), not one held for tabsight
    payload(await upload_page.call_tool("interact", {"action": "press", "selector": "#choose-avatar", "key": "Enter"}))
    await script(upload_page, "await new Promise((done) => setTimeout(done, 300)); return true")
    assert (await page_saw(upload_page))["cancels"] == ["avatar"]
    message = await refused(upload_page, text, selector="#nothing")
    assert message.startswith("The click on #nothing opened no file chooser within 1500 ms (click at (")
    assert "target the <input type=file> itself, or the button or drop zone that opens it" in message
    assert await script(upload_page, "return window.clicks") == ["nothing"]  # it was clicked, and said so
    assert "#missing" in await refused(upload_page, text, selector="#missing")

    saw = await page_saw(upload_page)
    assert saw["changes"] == [] and saw["inputs"] == []  # nothing was set
    assert not await script(upload_page, "return document.querySelector('[data-tabsight-upload]') !== null")
    # the tab takes the next upload as the first
    assert (await upload(upload_page, text, selector="#choose-avatar"))["input_files"] == [
        {"name": "notes.txt", "size": 11}
    ]


async def test_without_file_access_nothing_is_done_and_the_answer_says_how_to_allow_it(site, tmp_path, notes):
    # the user turned the extension's "Allow access to file URLs" off (on by default for an unpacked extension)
    (tmp_path / "profile" / "Default").mkdir(parents=True)
    (tmp_path / "profile" / "Default" / "Preferences").write_text(
        json.dumps({"extensions": {"settings": {extension_id(): {"newAllowFileAccess": False}}}})
    )
    async with users_browser(None, tmp_path) as (client, _browser):
        payload(await client.call_tool("interact", {"action": "navigate", "url": site.url("/upload.html")}))
        message = await refused(client, notes[0], selector="#nothing")
        assert 'its "Allow access to file URLs" is off' in message
        assert "turn on 'Allow access to file URLs' in tabsight's Details at chrome://extensions" in message
        assert await script(client, "return window.clicks") == []  # refused before the click


async def test_dropzone_takes_the_files_its_zone_opened_a_chooser_for(browser, realapps, notes):
    text, table = notes
    async with mcp_client() as client:
        payload(await client.call_tool("interact", {"action": "navigate", "url": f"{realapps}/pages/dropzone.html"}))
        answer = await upload(client, text, table, selector="#uploads")
        assert answer["via"] == "chooser"
        assert answer["input_files"] == [{"name": "notes.txt", "size": 11}, {"name": "data.csv", "size": 17}]
        assert await script(client, "return window.added") == [
            {"zone": "uploads", "name": "notes.txt", "size": 11},
            {"zone": "uploads", "name": "data.csv", "size": 17},
        ]
        previews = await script(
            client,
            "return [...document.querySelectorAll('#uploads .dz-preview')].map((p) => "
            "[p.querySelector('[data-dz-name]').textContent, "
            "p.querySelector('[data-dz-size]').textContent])",
        )
        assert previews == [["notes.txt", "11 b"], ["data.csv", "17 b"]]

        message = await refused(client, text, table, selector="#avatar")
        assert "The file chooser the click on #avatar opened takes one file, not 2" in message
        answer = await upload(client, table, selector="#avatar .dz-message")
        assert answer["input_files"] == [{"name": "data.csv", "size": 17}]
        assert (await script(client, "return window.added"))[-1] == {"zone": "avatar", "name": "data.csv", "size": 17}
