"""Screenshot and click on the user's browser from an agent elsewhere, against the same from a local agent.

    sudo .venv/bin/python bench/remote_bench.py [--calls 20]

Root plays the user: a headless Chromium with tabsight's extension as a user runs theirs (tests/harness/
usersbrowser.py), tests/pages/clicks.html served on 127.0.0.1, the user's settings file listing the second local
account (tests/harness/remote.py makes it) under peer_uids. Four paths to that browser's host, each an MCP session
of the official SDK's client on its own ``tabsight mcp``: local (the user's own front); another uid (the account's
front, let in by ACL); a container of sorts (the account's front in its own mount and pid namespaces, the runtime
folder bind-mounted); ssh (the account behind Debian's sshd on loopback, reached through ``tabsight remote
forward``'s ``ssh -R``). For each it times N calls of ``screenshot`` (JPEG, the viewport) and of
``interact({action:"click", selector:"#target"})`` after 3 uncounted warm-up calls, and reports p50/p90 and the
ratio to local. Results go to bench/results/remote.json.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from functools import partial
from pathlib import Path

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from common import p50_p90, tool_answer  # first: puts tests/ on sys.path
from harness.calls import payload
from harness.remote import Sshd, as_peer, in_container, owned_by, peer_account, settings_file
from harness.servers import serve_folder
from harness.usersbrowser import UsersBrowser
from tabsight.settings import settings_path

PAGES = Path(__file__).resolve().parent.parent / "tests" / "pages"
RESULTS = Path(__file__).resolve().parent / "results" / "remote.json"
WARMUP = 3
CALLS = (
    ("screenshot", "screenshot", {"format": "jpeg"}),
    ("click", "interact", {"action": "click", "selector": "#target"}),
)


async def timed(params: StdioServerParameters, url: str, calls: int) -> dict:
    async with Client(params) as client:
        payload(await client.call_tool("interact", {"action": "navigate", "url": url}))
        figures = {}
        for name, tool, arguments in CALLS:
            figures[name] = await p50_p90(partial(tool_answer, client, tool, arguments), calls, WARMUP)
        return figures


async def measure(calls: int) -> dict:
    account = peer_account()
    server = serve_folder(PAGES)
    url = f"http://127.0.0.1:{server.server_address[1]}/clicks.html"
    work = Path(tempfile.mkdtemp(prefix="tabsight-remote-bench-"))
    work.chmod(0o755)
    runtime = work / "runtime"
    runtime.mkdir(mode=0o700)
    remote_runtime = owned_by(Path(account.pw_dir) / f"bench-run-{os.getpid()}", account)
    peer_settings = Path(account.pw_dir) / ".config" / "tabsight" / "settings.json"
    results: dict = {}
    try:
        with (
            settings_file(settings_path(), {"peer_uids": [account.pw_uid]}),
            settings_file(peer_settings, {"peer_uids": [0]}, account),
        ):
            browser = UsersBrowser(None, work / "profile", runtime)
            browser.start()
            try:
                local = StdioServerParameters(
                    command=sys.executable,
                    args=["-m", "tabsight", "mcp"],
                    env={**os.environ, "TABSIGHT_BROWSER": "never", "TABSIGHT_RUNTIME_DIR": str(runtime)},
                )
                results["local"] = await timed(local, url, calls)
                never = {"TABSIGHT_BROWSER": "never"}
                results["another uid"] = await timed(
                    as_peer(account, TABSIGHT_RUNTIME_DIR=str(runtime), **never), url, calls
                )
                results["container"] = await timed(in_container(account, runtime, work / "mnt", **never), url, calls)
                with Sshd(work / "sshd", account) as sshd:
                    ssh = sshd.forward(remote_runtime / "host-bench.sock", runtime)
                    try:
                        results["ssh -R"] = await timed(
                            as_peer(account, TABSIGHT_RUNTIME_DIR=str(remote_runtime), **never), url, calls
                        )
                    finally:
                        os.killpg(ssh.pid, 15)
                        ssh.wait(10)
            finally:
                browser.quit()
    finally:
        server.shutdown()
    for figures in results.values():
        for name, figure in figures.items():
            figure["x local"] = round(figure["p50"] / results["local"][name]["p50"], 2)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20)
    args = parser.parse_args()
    results = anyio.run(measure, args.calls)
    print("| path | screenshot p50 (p90) | x local | click p50 (p90) | x local |")
    print("|---|---|---|---|---|")
    for path, row in results.items():
        cells = [
            cell
            for name in ("screenshot", "click")
            for cell in (f"{row[name]['p50']} ms ({row[name]['p90']})", str(row[name]["x local"]))
        ]
        print(f"| {path} | " + " | ".join(cells) + " |")
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
