"""What the security boundary costs: tabsight now against an earlier release of it, interleaved in one run.

    .venv/bin/python bench/boundary_bench.py --before /path/to/earlier/checkout [--calls 60] [--block 10]

The earlier checkout needs a virtualenv of its own with tabsight installed from it (editable), e.g.::

    git worktree add /tmp/before da93f94 && python3 -m venv /tmp/before/.venv \\
        && /tmp/before/.venv/bin/pip install -e /tmp/before

Each release runs its own `tabsight mcp` and embedded headless Chromium (its own runtime folder), on the same
page. The calls alternate in blocks of --block between the two until each has made --calls, so a change of
the machine's load falls on both alike, for two kinds of call:

- the tracked tab's screenshot (`screenshot`, JPEG quality 80);
- `interact execute` with one CDP step, `Page.captureScreenshot` (JPEG), whose image comes back attached: the
  path the policy, the URL checks and the cookie masking (extension/service-worker/execute.js) lie on.

The issue's target: each p50 within 10 % of the earlier release's. Results: printed, and bench/results/boundary.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from contextlib import AsyncExitStack
from pathlib import Path

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from common import CHROMIUM, Failed, percentile, serve, tabsight_server, workspace

CALLS = {
    "screenshot": ("screenshot", {"format": "jpeg", "quality": 80}),
    "execute capture": (
        "interact",
        {
            "action": "execute",
            "cdp": [{"method": "Page.captureScreenshot", "params": {"format": "jpeg", "quality": 80}}],
        },
    ),
}
WARMUP = 5
TARGET = 1.10


async def timed(client: Client, tool: str, arguments: dict) -> float:
    started = time.perf_counter()
    result = await client.call_tool(tool, arguments)
    elapsed = time.perf_counter() - started
    if result.is_error or not any(block.type == "image" for block in result.content):
        raise Failed(f"{tool} failed: {result.content[0].text[:300]}")
    return elapsed * 1000


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=Path, required=True, help="an earlier checkout with its own .venv")
    parser.add_argument("--calls", type=int, default=60)
    parser.add_argument("--block", type=int, default=10)
    args = parser.parse_args()

    workdir, _ = workspace()
    server = serve(workdir)
    page = f"http://127.0.0.1:{server.server_address[1]}/"
    releases = {}
    for name, python in (("now", None), ("before", args.before / ".venv" / "bin" / "python")):
        runtime = workdir / f"runtime-{name}"
        runtime.mkdir(mode=0o700)
        params = tabsight_server(runtime, CHROMIUM)
        if python is not None:
            params = StdioServerParameters(command=str(python), args=params.args, env=params.env)
        releases[name] = params

    times: dict[str, dict[str, list[float]]] = {kind: {name: [] for name in releases} for kind in CALLS}
    async with AsyncExitStack() as stack:
        clients = {name: await stack.enter_async_context(Client(params)) for name, params in releases.items()}
        for client in clients.values():
            navigated = await client.call_tool("interact", {"action": "navigate", "url": page})
            if navigated.is_error:
                raise Failed(navigated.content[0].text)
            for tool, arguments in CALLS.values():
                for _ in range(WARMUP):
                    await timed(client, tool, arguments)
        for kind, (tool, arguments) in CALLS.items():
            while any(len(samples) < args.calls for samples in times[kind].values()):
                for name, client in clients.items():
                    for _ in range(min(args.block, args.calls - len(times[kind][name]))):
                        times[kind][name].append(await timed(client, tool, arguments))

    report = {}
    for kind, by_release in times.items():
        p50 = {name: statistics.median(samples) for name, samples in by_release.items()}
        ratio = p50["now"] / p50["before"]
        report[kind] = {
            "p50_ms": p50,
            "p90_ms": {name: percentile(samples, 90) for name, samples in by_release.items()},
            "ratio": round(ratio, 3),
            "within_target": ratio <= TARGET,
        }
        print(
            f"{kind:16} now p50 {p50['now']:6.1f} ms  before {p50['before']:6.1f} ms  ratio {ratio:.2f} "
            f"({'within' if ratio <= TARGET else 'OVER'} {TARGET:.2f})"
        )
    results = Path(__file__).resolve().parent / "results"
    results.mkdir(exist_ok=True)
    (results / "boundary.json").write_text(json.dumps(report, indent=2))
    server.shutdown()


if __name__ == "__main__":
    anyio.run(main)
