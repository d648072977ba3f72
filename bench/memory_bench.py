"""Memory of each MCP server after N 1080p screenshots: its whole process tree, and its own processes.

    .venv/bin/python bench/memory_bench.py [--shots 20] [--playwright-mcp PATH/TO/cli.js]
        [--devtools-mcp PATH/TO/chrome-devtools-mcp.js]

Each server is started fresh (a new process and a new browser, as
bench/coldstart_bench.py starts them, through the official MCP SDK client) and
takes --shots screenshots of the local bench page, each of a URL not loaded
before, 1920x1080 JPEG: tabsight one `screenshot` call with `url`, width 1920
and height 1080; Playwright MCP `browser_navigate` + `browser_take_screenshot`
and Chrome DevTools MCP `navigate_page` + `take_screenshot`, each started with
a 1920x1080 viewport. All on the same Chromium binary, headless. Then, read
from /proc:

- the whole tree: the server process and every process below it (its
  browser's processes; for tabsight also its host, which the browser starts).
  The sum of their RSS counts pages shared between processes once per
  process, so it overstates what the tree costs; the sum of their PSS
  (shared pages divided among their users) is shown beside it.
- the server's own processes, without the browser: tabsight's front (`tabsight
  mcp`) and its host (pid from the runtime folder's host-PID.sock); the peer's
  node process. RSS after the first image, the peak of samples taken every
  20 ms while the screenshots ran (a 1080p screenshot in flight), and after.

Peers default to their install in bench/peers (pinned versions) and are skipped when missing:

    bench/peers/install.sh

docs/design.md targets (§7): host RSS below 60 MB and front below 80 MB with a 1080p
screenshot in flight (judged on the peaks). Results are printed as a markdown
table and written to bench/results/memory.json.
"""

from __future__ import annotations

import argparse
import io
import json
import shutil
from collections.abc import Callable
from pathlib import Path

import anyio
from PIL import Image

from common import (
    TABSIGHT,
    UrlServer,
    describe,
    failure_notes,
    fresh_server,
    host_pid,
    image_of,
    mb,
    peer_arguments,
    rss_kb,
    serve,
    tree_memory,
    url_servers,
    workspace,
)

WIDTH, HEIGHT = 1920, 1080
SAMPLE_S = 0.02
#: docs/design.md §7, MB, on the peak with a 1080p screenshot in flight
TARGETS = {"host": 60, "front": 80}


class Peaks:
    """The largest RSS each named process reached, sampled every SAMPLE_S."""

    def __init__(self, processes: Callable[[], dict[str, int | None]]) -> None:
        self.processes = processes
        self.kb: dict[str, int] = {}

    def sample(self) -> dict[str, int | None]:
        now = {name: rss_kb(pid) if pid else None for name, pid in self.processes().items()}
        for name, kb in now.items():
            if kb is not None:
                self.kb[name] = max(self.kb.get(name, 0), kb)
        return now

    async def run(self) -> None:
        while True:
            self.sample()
            await anyio.sleep(SAMPLE_S)


async def measure(server: UrlServer, url: str, shots: int) -> dict:
    workdir, runtime = workspace()
    try:
        async with fresh_server(server.start(runtime)) as fresh:

            def processes() -> dict[str, int | None]:
                if server.name == TABSIGHT:
                    return {"front": fresh.pid, "host": host_pid(runtime)}
                return {"node": fresh.pid}

            peaks = Peaks(processes)
            image_of(await server.sample(fresh.client, f"{url}?shot=0"))  # the browser is up
            start = peaks.sample()
            async with anyio.create_task_group() as group:
                group.start_soon(peaks.run)
                for shot in range(1, shots + 1):
                    image = image_of(await server.sample(fresh.client, f"{url}?shot={shot}"))
                group.cancel_scope.cancel()
            after = peaks.sample()
            tree = tree_memory(fresh.pid)
        with Image.open(io.BytesIO(image)) as last:
            size = f"{last.width}x{last.height}"
        own = {
            name: {"start_mb": mb(start[name]), "peak_mb": mb(peaks.kb.get(name)), "after_mb": mb(after[name])}
            for name in after
        }
        return {
            "shots": shots,
            "image": size,
            "image_bytes": len(image),
            "tree": tree,
            "own": own,
            "killed_after_close": len(fresh.killed),
        }
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def verdict(name: str, peak: float | None) -> str:
    target = TARGETS.get(name)
    if target is None or peak is None:
        return ""
    return f"< {target} MB: {'met' if peak < target else 'MISSED'}"


def table(results: dict[str, dict]) -> str:
    lines = [
        "| server | process | RSS after first image MB | peak MB | after MB | DESIGN target (peak) |",
        "|---|---|---:|---:|---:|---|",
    ]
    for server, r in results.items():
        if "tree" not in r:
            continue
        tree = r["tree"]
        pss = f"PSS sum {tree['pss_sum_mb']} MB" if tree["pss_sum_mb"] is not None else "PSS unreadable"
        for name, own in r["own"].items():
            lines.append(
                f"| {server} | {name} | {own['start_mb']} | {own['peak_mb']} | {own['after_mb']} | "
                f"{verdict(name, own['peak_mb'])} |"
            )
        lines.append(
            f"| {server} | whole tree, {tree['processes']} processes | | | RSS sum {tree['rss_sum_mb']} ({pss}) | |"
        )
    lines += failure_notes(results)
    return "\n".join(lines)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shots", type=int, default=20)
    peer_arguments(parser)
    args = parser.parse_args()

    workdir, _ = workspace()
    server = serve(workdir)
    url = f"http://127.0.0.1:{server.server_address[1]}/index.html"
    results: dict[str, dict] = {}
    for s in url_servers(args.chromium, args.playwright_mcp, args.devtools_mcp, workdir / "pw", WIDTH, HEIGHT):
        if s.missing:
            results[s.name] = {"error": s.missing}
            continue
        try:
            results[s.name] = await measure(s, url, args.shots)
        except Exception as error:  # noqa: BLE001 -- a server that fails is reported, the others still run
            results[s.name] = {"error": describe(error)}

    server.shutdown()
    shutil.rmtree(workdir, ignore_errors=True)
    print(table(results))
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    (out / "memory.json").write_text(
        json.dumps(
            {"page": f"bench page, {WIDTH}x{HEIGHT} JPEG", "targets_peak_mb": TARGETS, "results": results},
            indent=2,
        )
    )


if __name__ == "__main__":
    anyio.run(main)
