"""Shared by the benchmarks: the peers (Playwright MCP, Chrome DevTools MCP) and how each is
started, the calls that screenshot a URL on each server, how a failed call is reported, and the
processes and memory of a server started fresh.

Every bench script imports this module first: it puts tests/ on sys.path, so that the scripts reach
the code they share with the test suite (tests/harness). What this module takes from there (the
page and its server, the workspace, `tabsight mcp`, Failed, text_of, percentile) the scripts import
from here too."""

from __future__ import annotations

import argparse
import base64
import os
import signal
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp_types import CallToolResult

TESTS = str(Path(__file__).resolve().parent.parent / "tests")
if TESTS not in sys.path:
    sys.path.insert(0, TESTS)

# after tests/ is on sys.path; percentile, serve and workspace are here for the scripts
from harness.calls import Failed, payload, percentile, text_of  # noqa: E402
from harness.processes import alive, descendants, host_pids, parent, pss_kb, rss_kb  # noqa: E402
from harness.servers import CHROMIUM, serve, tabsight_server, workspace  # noqa: E402, F401

T = TypeVar("T")

#: where the peers are looked for (bench/peers/install.sh puts them there, at pinned versions); a script skips
#: a peer that is missing
PEERS = Path(__file__).resolve().parent / "peers" / "node_modules"
PLAYWRIGHT_MCP = PEERS / "@playwright/mcp/cli.js"
DEVTOOLS_MCP = PEERS / "chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js"
PEERS_INSTALL = "bench/peers/install.sh"
#: the servers' names in the tables
TABSIGHT = "tabsight"
PLAYWRIGHT = "Playwright MCP"
DEVTOOLS = "Chrome DevTools MCP"


def use_in_process(runtime: Path, chromium: str) -> None:
    """For a bench that also opens links in-process: they read these from tabsight's configuration, read again
    from the environment here, and `tabsight mcp` then gets the same."""
    from tabsight import config

    os.environ["TABSIGHT_RUNTIME_DIR"] = str(runtime)
    os.environ["TABSIGHT_CHROMIUM"] = chromium
    os.environ.pop("TABSIGHT_BROWSER", None)
    config.reset()


def playwright_server(cli: str, chromium: str, output_dir: Path, viewport: str = "1280x720") -> StdioServerParameters:
    """`@playwright/mcp` on the same Chromium: headless, fresh profile, 1280x720 viewport."""
    return StdioServerParameters(
        command="node",
        args=[
            cli,
            "--headless",
            "--executable-path",
            chromium,
            "--no-sandbox",
            "--isolated",
            "--viewport-size",
            viewport,
            "--output-dir",
            str(output_dir),
        ],
    )


def devtools_server(cli: str, chromium: str, viewport: str = "1280x720") -> StdioServerParameters:
    """chrome-devtools-mcp on the same Chromium: headless, fresh profile, 1280x720, no pageId routing."""
    env = dict(os.environ, CHROME_DEVTOOLS_MCP_NO_UPDATE_CHECKS="1", CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS="1")
    return StdioServerParameters(
        command="node",
        args=[
            cli,
            "--headless",
            "--isolated",
            "--executablePath",
            chromium,
            "--viewport",
            viewport,
            "--no-page-id-routing",
            "--chromeArg=--no-sandbox",
            "--no-usage-statistics",
            "--no-performance-crux",
        ],
        env=env,
    )


def peer_arguments(parser: argparse.ArgumentParser) -> None:
    """--playwright-mcp, --devtools-mcp and --chromium, with their defaults."""
    parser.add_argument("--playwright-mcp", default=str(PLAYWRIGHT_MCP), help="path to @playwright/mcp's cli.js")
    parser.add_argument(
        "--devtools-mcp",
        default=str(DEVTOOLS_MCP),
        help="path to chrome-devtools-mcp's build/src/bin/chrome-devtools-mcp.js",
    )
    parser.add_argument("--chromium", default=CHROMIUM)


def describe(error: BaseException) -> str:
    """An error as the table reports it (the first of an ExceptionGroup from the client's task group)."""
    while getattr(error, "exceptions", None):
        error = error.exceptions[0]
    return str(error) if isinstance(error, Failed) else f"{type(error).__name__}: {error}"


def failure_notes(results: dict[str, dict]) -> list[str]:
    """The lines under a table: each skipped row with its error, and each row's first failure."""
    notes = []
    for name, r in results.items():
        if "error" in r:
            notes.append(f"\nskipped {name}: {r['error'][:300]}")
        elif r.get("first_error"):
            notes.append(f"\n{name}, first failure: {r['first_error'][:500]}")
    return notes


# -- a screenshot of a URL: everything an agent does to see a page it has not loaded yet ------------

Sample = Callable[[Client, str], Awaitable[list[CallToolResult]]]


def tabsight_url_sample(wait_for_network_idle: bool = False, width: int = 1280, height: int = 720) -> Sample:
    """tabsight: one `screenshot` call with `url`, JPEG quality 80."""

    async def sample(client: Client, url: str) -> list[CallToolResult]:
        return [
            await client.call_tool(
                "screenshot",
                {
                    "url": url,
                    "format": "jpeg",
                    "quality": 80,
                    "width": width,
                    "height": height,
                    "waitForNetworkIdle": wait_for_network_idle,
                },
            )
        ]

    return sample


async def playwright_url_sample(client: Client, url: str) -> list[CallToolResult]:
    """Playwright MCP: `browser_navigate` then `browser_take_screenshot` (JPEG; it fixes the quality at 90)."""
    return [
        await client.call_tool("browser_navigate", {"url": url}),
        await client.call_tool("browser_take_screenshot", {"type": "jpeg"}),
    ]


async def devtools_url_sample(client: Client, url: str) -> list[CallToolResult]:
    """Chrome DevTools MCP: `navigate_page` then `take_screenshot` (JPEG quality 80)."""
    return [
        await client.call_tool("navigate_page", {"type": "url", "url": url}),
        await client.call_tool("take_screenshot", {"format": "jpeg", "quality": 80}),
    ]


def image_of(results: list[CallToolResult]) -> bytes:
    """The image the sample's last call returned; Failed if any call errored or there is none."""
    for result in results:
        if result.is_error:
            raise Failed(text_of(result) or "(no text)")
    image = next((block for block in results[-1].content if block.type == "image"), None)
    if image is None:
        raise Failed(f"no image block in the result: {text_of(results[-1])}")
    return base64.b64decode(image.data)


@dataclass
class UrlServer:
    """One MCP server as coldstart_bench.py and memory_bench.py run it: started afresh for every run."""

    name: str
    #: its parameters, given a fresh private runtime folder (only tabsight uses it)
    start: Callable[[Path], StdioServerParameters]
    sample: Sample
    #: why it is skipped (a peer not installed), else None
    missing: str | None = None


def url_servers(
    chromium: str, playwright_cli: str, devtools_cli: str, output_dir: Path, width: int = 1280, height: int = 720
) -> list[UrlServer]:
    """tabsight, Playwright MCP and Chrome DevTools MCP on the same Chromium and viewport."""
    viewport = f"{width}x{height}"

    def missing(cli: str) -> str | None:
        return None if Path(cli).is_file() else f"{cli} not found; install the peers: {PEERS_INSTALL}"

    return [
        # the browser ends half a second after the run, not 2 s: the next run starts sooner
        UrlServer(
            TABSIGHT,
            lambda runtime: tabsight_server(runtime, chromium, linger=0.5),
            tabsight_url_sample(False, width, height),
        ),
        UrlServer(
            PLAYWRIGHT,
            lambda _: playwright_server(playwright_cli, chromium, output_dir, viewport),
            playwright_url_sample,
            missing(playwright_cli),
        ),
        UrlServer(
            DEVTOOLS,
            lambda _: devtools_server(devtools_cli, chromium, viewport),
            devtools_url_sample,
            missing(devtools_cli),
        ),
    ]


# -- processes and memory (Linux /proc) -----------------------------------------------------


async def tool_answer(client: Client, tool: str, arguments: dict) -> dict:
    """The JSON answer of a tool call that must succeed."""
    return payload(await client.call_tool(tool, arguments))


async def p50_p90(
    call: Callable[[], Awaitable[T]], calls: int, warmup: int, check: Callable[[T], None] | None = None
) -> dict[str, float]:
    """The p50 and p90 (ms, one decimal) of ``calls`` awaits of ``call``, after ``warmup`` uncounted ones;
    ``check`` looks at each answer, outside the time taken."""
    times = []
    for n in range(warmup + calls):
        started = time.perf_counter()
        answer = await call()
        took = (time.perf_counter() - started) * 1000
        if n >= warmup:
            times.append(took)
        if check is not None:
            check(answer)
    return {"p50": round(percentile(times, 0.5), 1), "p90": round(percentile(times, 0.9), 1)}


def child_pids() -> set[int]:
    """This process's children now (the SDK client starts a server as one)."""
    me = os.getpid()
    return {pid for pid in descendants(me) if parent(pid) == me}


def mb(kb: int | None) -> float | None:
    return None if kb is None else round(kb / 1024, 1)


def tree_memory(pid: int) -> dict:
    """The memory of pid and its descendants: the sum of their RSS (shared pages counted once per
    process, so an overcount for Chromium's many processes) and the sum of their PSS."""
    rss, pss = {}, {}
    for member in sorted(descendants(pid)):
        rss[member], pss[member] = rss_kb(member), pss_kb(member)
    alive = [member for member, kb in rss.items() if kb is not None]
    unreadable = [member for member in alive if pss[member] is None]
    return {
        "processes": len(alive),
        "rss_sum_mb": mb(sum(rss[member] for member in alive)),
        "pss_sum_mb": None if unreadable else mb(sum(pss[member] for member in alive)),
    }


def host_pid(runtime: Path) -> int | None:
    """The pid of the tabsight host serving a private runtime folder (its socket is host-PID.sock)."""
    return next(iter(host_pids(runtime)), None)


async def wait_gone(pids: list[int], timeout: float) -> list[int]:
    """Wait until these processes have ended; SIGKILL (by pid) those still there after timeout.
    Returns the pids that had to be killed."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not any(alive(pid) for pid in pids):
            return []
        await anyio.sleep(0.05)
    survivors = [pid for pid in pids if alive(pid)]
    for pid in survivors:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    return survivors


@dataclass
class Fresh:
    """A server fresh_server started: its client, its pid, when it was spawned (perf_counter),
    and, once closed, its process tree and the members that had to be killed."""

    client: Client
    pid: int
    spawned: float
    initialized: float
    tree: list[int] = field(default_factory=list)
    killed: list[int] = field(default_factory=list)


@asynccontextmanager
async def fresh_server(params: StdioServerParameters, gone_within: float = 20.0) -> AsyncIterator[Fresh]:
    """Spawn an MCP server through the SDK client and initialize it; on the way out, wait until
    its whole process tree (its browser too, which may outlive it a moment) has ended, so the
    next run starts from nothing. What is left after gone_within seconds is killed by pid."""
    before = child_pids()
    spawned = time.perf_counter()
    fresh = None
    try:
        async with Client(params, read_timeout_seconds=60) as client:
            initialized = time.perf_counter()
            pids = child_pids() - before
            if len(pids) != 1:
                raise Failed(f"expected one new child process for the server, found {sorted(pids)}")
            fresh = Fresh(client, pids.pop(), spawned, initialized)
            try:
                yield fresh
            finally:
                fresh.tree = sorted(descendants(fresh.pid))
    finally:
        if fresh is not None:
            fresh.killed = await wait_gone(fresh.tree, gone_within)
