"""An agent somewhere else, the user's browser here (issue 36, docs/remote.md), on loopback: a front of another
uid (a second local account, as a container's agent is under a rootful engine), refused until the user lists it
and then served; a front on "another machine" (the account again, behind Debian's sshd) reaching the user's host
through ``ssh -R``; no TCP or UDP socket of tabsight's anywhere. Real processes throughout: the user's headless
Chromium with the extension, its host, ``tabsight mcp`` as the account (tests/harness/remote.py) through the
SDK's client."""

from __future__ import annotations

import base64
import io
import json
import os
import signal
import stat
import subprocess
import time
from pathlib import Path

import anyio
import pytest
from PIL import Image

from conftest import mcp_client, users_browser
from harness.calls import payload, refusal
from harness.remote import Sshd, as_peer, in_container, owned_by, peer_account, peer_command, peer_env, settings_file
from tabsight import acl
from tabsight.settings import settings_path

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.browser,
    pytest.mark.skipif(os.geteuid() != 0, reason="makes a second local account: needs root"),
]


#: a file in the front's working folder (an allowed root): the checkout's README
README = Path("README.md").resolve()


def picture(result) -> Image.Image:
    (image,) = [block for block in result.content if block.type == "image"]
    return Image.open(io.BytesIO(base64.b64decode(image.data)))


async def screenshot_and_click(client, site) -> None:
    """What the agent does on the user's browser: opens a page, sees it (a PNG of the viewport), clicks its
    button, and the page got the click."""
    payload(await client.call_tool("interact", {"action": "navigate", "url": site.url("/clicks.html")}))
    image = picture(await client.call_tool("screenshot", {"format": "png"}))
    assert image.format == "PNG" and image.width > 600 and image.height > 300, image.size
    clicked = payload(await client.call_tool("interact", {"action": "click", "selector": "#target"}))
    assert clicked["action"] == "click", clicked
    seen = payload(await client.call_tool("interact", {"action": "execute", "script": "JSON.stringify(seen)"}))
    assert [event["type"] for event in json.loads(seen["script"]["result"])][-1] == "click", seen


async def upload_across(client, site) -> None:
    """An upload from the agent's side of a forward: the file's bytes are sent, the page's input holds the file,
    and what the page reads of it is the agent's file (not whatever the browser's machine has at that path)."""
    payload(await client.call_tool("interact", {"action": "navigate", "url": site.url("/upload.html")}))
    answer = payload(
        await client.call_tool("interact", {"action": "upload", "selector": "#files", "files": [str(README)]})
    )
    assert answer["input_files"] == [{"name": "README.md", "size": README.stat().st_size}], answer
    read = "document.querySelector('#files').files[0].text().then((text) => text.split('\\n')[0])"
    first = payload(await client.call_tool("interact", {"action": "execute", "script": read}))
    assert first["script"]["result"] == README.read_text().split("\n")[0], first


def tcp_and_udp_listeners(pids: set[int]) -> list[str]:
    """The TCP/UDP sockets in LISTEN (or bound, for UDP) that any of ``pids`` holds."""
    inodes: set[str] = set()
    for pid in pids:
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
                if target.startswith("socket:["):
                    inodes.add(target[8:-1])
        except OSError:
            continue
    found = []
    for table in ("tcp", "tcp6", "udp", "udp6"):
        for line in Path(f"/proc/net/{table}").read_text().splitlines()[1:]:
            fields = line.split()
            listening = fields[3] == "0A" if table.startswith("tcp") else True
            if listening and fields[9] in inodes:
                found.append(f"{table} {fields[1]}")
    return found


def tabsight_pids() -> set[int]:
    """Every process running tabsight (fronts, hosts) and every Chromium."""
    pids = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                command = Path(f"/proc/{entry}/cmdline").read_bytes()
            except OSError:
                continue
            if b"tabsight" in command or b"chromium" in command:
                pids.add(int(entry))
    return pids


async def test_a_front_of_another_uid_is_refused_until_the_user_lists_it_then_served(tmp_path, site):
    """Before: a front of another uid got the generic "No browser is connected". Now: the socket it may not open
    says who can let it in and how; a socket opened to it by hand (setfacl) still meets the host's uid check;
    listed under peer_uids in the user's settings file, it is let in (ACL) and served: a screenshot and a click
    through the SDK's client."""
    account = peer_account()
    peer_settings = Path(account.pw_dir) / ".config" / "tabsight" / "settings.json"
    with settings_file(peer_settings, {"peer_uids": [0]}, account):  # the agent's side trusts the user's host
        with settings_file(settings_path(), {}):  # the user has listed no one
            async with users_browser(None, tmp_path / "first", site.url("/clicks.html")) as (_client, browser):
                front = as_peer(account, TABSIGHT_RUNTIME_DIR=str(browser.runtime), TABSIGHT_BROWSER="never")
                async with mcp_client(server=front) as client:
                    message = refusal(await client.call_tool("observe", {"what": "tabs"}))
                assert f"may not be opened by your uid ({account.pw_uid})" in message, message
                assert "peer_uids" in message and "No browser is connected" not in message, message

                (socket_path,) = browser.runtime.glob("host-*.sock")
                acl.grant(browser.runtime, {account.pw_uid}, acl.READ | acl.EXECUTE)  # setfacl -m u:peer:rx
                acl.grant(socket_path, {account.pw_uid}, acl.READ | acl.WRITE)
                async with mcp_client(server=front) as client:
                    message = refusal(await client.call_tool("observe", {"what": "tabs"}))
                assert f"uid {account.pw_uid} is not listed" in message, message
                assert "No browser is connected" not in message, message

        with settings_file(settings_path(), {"peer_uids": [account.pw_uid]}):
            async with users_browser(None, tmp_path / "second", site.url("/clicks.html")) as (_client, browser):
                (socket_path,) = browser.runtime.glob("host-*.sock")
                assert acl.named_users(socket_path) == {account.pw_uid: acl.READ | acl.WRITE}
                assert acl.named_users(browser.runtime) == {account.pw_uid: acl.READ | acl.EXECUTE}
                front = as_peer(account, TABSIGHT_RUNTIME_DIR=str(browser.runtime), TABSIGHT_BROWSER="never")
                async with mcp_client(server=front) as client:
                    await screenshot_and_click(client, site)
                    assert tcp_and_udp_listeners(tabsight_pids()) == []
                # the same account in a container of sorts (the runtime folder bind-mounted elsewhere, the host's
                # process out of sight): served as well; its paths are not the browser's, so an upload sends bytes
                container = in_container(account, browser.runtime, tmp_path.parent / f"mnt-{os.getpid()}")
                async with mcp_client(server=container) as client:
                    await screenshot_and_click(client, site)
                    await upload_across(client, site)


async def test_a_front_on_another_machine_reaches_the_users_host_through_ssh_and_survives_a_dropped_link(
    tmp_path, site
):
    """The account, behind sshd, is the remote machine: its front finds the user's host at the socket ``ssh -R``
    made in its own runtime folder (0600), forwarded to the profile's stable name; it takes a screenshot and
    clicks; an upload sends the file's bytes (its path would be read on the browser's machine); a call cut by killing ssh
    ends in a clear error, and once ssh is back the next call works; so does one after the user restarts the browser,
    through the same forward."""
    account = peer_account()
    remote_runtime = owned_by(Path(account.pw_dir) / f"run-{os.getpid()}", account)
    with Sshd(tmp_path / "sshd", account) as sshd:
        async with users_browser(None, tmp_path / "user", site.url("/clicks.html")) as (_client, browser):
            remote_env = peer_env(account, TABSIGHT_RUNTIME_DIR=str(remote_runtime), TABSIGHT_BROWSER="never")
            where = subprocess.run(
                peer_command(account, "remote", "where", "--name", "laptop"), env=remote_env, capture_output=True
            )
            remote = Path(where.stdout.decode().strip())
            assert remote == remote_runtime / "host-laptop.sock", where
            ssh = sshd.forward(remote, browser.runtime)
            try:
                info = os.stat(remote)
                assert stat.S_IMODE(info.st_mode) == 0o600 and info.st_uid == account.pw_uid
                front = as_peer(account, TABSIGHT_RUNTIME_DIR=str(remote_runtime), TABSIGHT_BROWSER="never")
                os.chmod(remote, 0o666)  # a forward made with a loose StreamLocalBindMask: refused, said why
                async with mcp_client(server=front) as client:
                    message = refusal(await client.call_tool("observe", {"what": "tabs"}))
                assert f"{remote} is open to other users (mode 0666)" in message, message
                assert "StreamLocalBindMask 0177" in message, message
                os.chmod(remote, 0o600)
                async with mcp_client(server=front) as client:
                    await screenshot_and_click(client, site)
                    assert tcp_and_udp_listeners(tabsight_pids()) == []
                    # a path here is another file (or none) on the browser's machine: its bytes are sent
                    await upload_across(client, site)

                    async def kill_ssh_soon() -> None:
                        await anyio.sleep(1.5)
                        os.killpg(ssh.pid, signal.SIGKILL)  # the connection dropped: ssh and all

                    async with anyio.create_task_group() as group:
                        group.start_soon(kill_ssh_soon)
                        started = time.monotonic()
                        cut = await client.call_tool(
                            "interact", {"action": "wait_for", "text": "never on this page", "timeout": 20000}
                        )
                    assert time.monotonic() - started < 10
                    message = refusal(cut)
                    assert "connection to the browser" in message.lower(), message

                    ssh.wait(10)
                    ssh = sshd.forward(remote, browser.runtime)
                    await screenshot_and_click(client, site)

                    # the user restarts the browser: a new host, the same profile's socket name, the same forward
                    browser.quit()
                    browser.start(site.url("/clicks.html"))
                    assert ssh.poll() is None
                    await screenshot_and_click(client, site)
                # the agent's side has no browser and no host manifest: doctor takes the forwarded host as its own
                doctor = subprocess.run(peer_command(account, "doctor"), env=remote_env, capture_output=True, text=True)
                assert doctor.returncode == 0, doctor.stdout + doctor.stderr
                assert "(forwarded: on another machine or outside this container)" in doctor.stdout, doctor.stdout
                assert "all good: tabsight reaches 1 browser" in doctor.stdout, doctor.stdout
            finally:
                if ssh.poll() is None:
                    os.killpg(ssh.pid, signal.SIGTERM)
                ssh.wait(10)
