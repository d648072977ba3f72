"""What each of issue 20's actions takes, end to end through the MCP client: p50/p90 over N rounds.

    .venv/bin/python bench/actions_bench.py [--rounds 15] [--chromium PATH]

One `tabsight mcp` (embedded headless Chromium, a fresh 0700 runtime folder) and the official SDK
client, on tests/pages served from 127.0.0.1. Each action has a set-up (not timed: usually a
navigation to its page, so every round starts from the same state), the timed call, and a check of
what a user would look at (the page's state, the answer's fields); a round whose call is an error or
whose check fails is counted, not timed. The first round of each action is a warm-up, not counted.

Actions: click, double click, right click; fill of a nine-field form; drag with HTML5 drag and drop
and drag of a pointer-driven slider; back, forward, reload; open_tab (with a URL) and close_tab;
observe network with requests=all; emulate a device, and reset; upload of a file onto a file input,
and through the file chooser a button opens.

Results are printed as a markdown table and written to bench/results/actions.json.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
from mcp import Client

from common import CHROMIUM, Failed, percentile, tabsight_server, workspace
from harness.calls import payload, script
from harness.servers import serve_folder
from test_fill import SIGNUP as FORM

PAGES = Path(__file__).resolve().parent.parent / "tests" / "pages"


@dataclass
class Action:
    """One row: ``setup`` brings the tab to where the action starts, ``run`` is the timed call and returns
    its answer, ``check`` raises Failed when the answer or the page is not what a user would expect."""

    name: str
    setup: Callable[[Client], Awaitable[Any]]
    run: Callable[[Client], Awaitable[dict]]
    check: Callable[[Client, dict], Awaitable[None]]


class Bench:
    def __init__(self, base: str, upload_file: Path) -> None:
        self.base = base
        self.upload_file = upload_file
        self.opened: int | None = None

    def url(self, path: str) -> str:
        return f"{self.base}{path}"

    async def interact(self, client: Client, **arguments: Any) -> dict:
        return await call(client, "interact", arguments)

    async def go(self, client: Client, path: str) -> None:
        await self.interact(client, action="navigate", url=self.url(path))

    def actions(self) -> list[Action]:
        go = self.go
        act = self.interact

        async def seen(client: Client, expected: list) -> None:
            events = [(e["type"], e["button"]) for e in await script(client, "return window.seen")]
            if [event for event in events if event[0] in {"click", "dblclick", "contextmenu", "auxclick"}] != expected:
                raise Failed(f"the page saw {events}")

        async def menu_open(client: Client) -> None:
            if not await script(client, "return document.getElementById('menu').classList.contains('open')"):
                raise Failed("the page's menu did not open")

        async def level(client: Client, answer: dict) -> None:
            if not 60 <= int(await script(client, "return document.getElementById('level').textContent")) <= 90:
                raise Failed("the slider did not move to three quarters")

        async def slider_drag(client: Client) -> dict:
            box = await script(
                client,
                "const t = document.getElementById('thumb').getBoundingClientRect();"
                "const k = document.getElementById('track').getBoundingClientRect();"
                "return {x: t.x + t.width / 2, y: t.y + t.height / 2, end: k.x + k.width * 0.75}",
            )
            started = time.perf_counter()
            answer = await act(client, action="drag", x=box["x"], y=box["y"], to_x=box["end"], to_y=box["y"])
            answer["_seconds"] = time.perf_counter() - started  # the script that aims it is not the drag's time
            return answer

        async def at(client: Client, answer: dict, path: str) -> None:
            if not answer.get("url", "").endswith(path):
                raise Failed(f"the tab is at {answer.get('url')}, not {path}")

        async def open_tab(client: Client) -> dict:
            answer = await act(client, action="open_tab", url=self.url("/other.html"))
            self.opened = answer["tracked"]["tab_id"]
            return answer

        async def close_opened(client: Client) -> None:
            if self.opened is not None:
                await act(client, action="close_tab", tab_id=self.opened)
                self.opened = None

        async def open_then_ready(client: Client) -> None:
            await close_opened(client)
            await act(client, action="open_tab", url=self.url("/other.html"))

        async def emulated(client: Client, answer: dict) -> None:
            size = await script(client, "return [screen.width, devicePixelRatio]")
            if size != [393, 3]:
                raise Failed(f"the page sees {size}, not an iPhone 15")

        async def reset_seen(client: Client, answer: dict) -> None:
            if await script(client, "return devicePixelRatio") == 3:
                raise Failed("the device is still emulated after reset")

        def files_seen(input_id: str) -> Callable[[Client, dict], Awaitable[None]]:
            async def check(client: Client, answer: dict) -> None:
                names = await script(
                    client, f"return [...document.getElementById('{input_id}').files].map(f => f.name)"
                )
                if names != [self.upload_file.name]:
                    raise Failed(f"#{input_id} holds {names}")

            return check

        return [
            Action(
                "click",
                lambda c: go(c, "/clicks.html"),
                lambda c: act(c, action="click", selector="#target"),
                lambda c, a: seen(c, [("click", 0)]),
            ),
            Action(
                "double click",
                lambda c: go(c, "/clicks.html"),
                lambda c: act(c, action="click", selector="#target", click_count=2),
                lambda c, a: seen(c, [("click", 0), ("click", 0), ("dblclick", 0)]),
            ),
            Action(
                "right click",
                lambda c: go(c, "/clicks.html"),
                lambda c: act(c, action="click", selector="#target", button="right"),
                lambda c, a: menu_open(c),
            ),
            Action(
                "fill, 9 fields",
                lambda c: go(c, "/fill.html"),
                lambda c: act(c, action="fill", fields=FORM),
                lambda c, a: check_that(len(a["fields"]) == len(FORM), f"fields: {a.get('fields')}"),
            ),
            Action(
                "drag, HTML5 (card onto a drop zone)",
                lambda c: go(c, "/drag.html"),
                lambda c: act(c, action="drag", selector="#apple", to_selector="#zone"),
                lambda c, a: check_that(a.get("html5_drag") is True, "no HTML5 drag"),
            ),
            Action("drag, pointer (slider)", lambda c: go(c, "/drag.html"), slider_drag, level),
            Action(
                "back",
                lambda c: go_then(go, c, "/index.html", "/other.html"),
                lambda c: act(c, action="back"),
                lambda c, a: at(c, a, "/index.html"),
            ),
            Action(
                "forward",
                lambda c: back_from(go, act, c),
                lambda c: act(c, action="forward"),
                lambda c, a: at(c, a, "/other.html"),
            ),
            Action(
                "reload",
                lambda c: go(c, "/index.html"),
                lambda c: act(c, action="reload"),
                lambda c, a: at(c, a, "/index.html"),
            ),
            Action("open_tab with a URL", close_opened, open_tab, lambda c, a: at(c, a["tracked"], "/other.html")),
            Action(
                "close_tab",
                open_then_ready,
                lambda c: act(c, action="close_tab"),
                lambda c, a: check_that("tracked" in a, f"no tracked tab in {a}"),
            ),
            Action(
                "observe network, requests=all",
                lambda c: go(c, "/index.html"),
                lambda c: call(c, "observe", {"what": "network", "requests": "all"}),
                lambda c, a: check_that(
                    any(r["url"].endswith("/index.html") for r in a["items"]), "the page's own request is not listed"
                ),
            ),
            Action("emulate a device", lambda c: reset(c), lambda c: emulate(c, device="iphone-15"), emulated),
            Action(
                "emulation reset",
                lambda c: emulate(c, device="iphone-15"),
                lambda c: emulate(c, reset=True),
                reset_seen,
            ),
            Action(
                "upload onto a file input",
                lambda c: go(c, "/upload.html"),
                lambda c: act(c, action="upload", selector="#files", files=[str(self.upload_file)]),
                files_seen("files"),
            ),
            Action(
                "upload through the file chooser",
                lambda c: go(c, "/upload.html"),
                lambda c: act(c, action="upload", selector="#choose-avatar", files=[str(self.upload_file)]),
                files_seen("avatar"),
            ),
        ]


async def call(client: Client, tool: str, arguments: dict) -> dict:
    result = await client.call_tool(tool, arguments)
    if result.is_error:
        raise Failed(result.content[0].text[:300])
    return payload(result)


async def go_then(go, client: Client, *paths: str) -> None:
    for path in paths:
        await go(client, path)


async def back_from(go, act, client: Client) -> None:
    await go_then(go, client, "/index.html", "/other.html")
    await act(client, action="back")


async def emulate(client: Client, **emulation: Any) -> dict:
    return await call(client, "configure", {"action": "emulate", "emulation": emulation})


async def reset(client: Client) -> None:
    await emulate(client, reset=True)


def check_that(condition: bool, why: str) -> Awaitable[None]:
    async def checked() -> None:
        if not condition:
            raise Failed(why)

    return checked()


async def one_round(client: Client, action: Action) -> float:
    """One round of an action: its set-up, the timed call, the check; the call's time in ms. Raises when the call
    errs or the check fails."""
    await action.setup(client)
    started = time.perf_counter()
    answer = await action.run(client)
    seconds = answer.pop("_seconds", time.perf_counter() - started)
    await action.check(client, answer)
    return seconds * 1000


async def measure(client: Client, action: Action, rounds: int) -> dict:
    times: list[float] = []
    failures: list[str] = []
    for number in range(rounds + 1):
        try:
            ms = await one_round(client, action)
        except Exception as error:  # noqa: BLE001 -- counted and reported, the bench goes on
            failures.append(str(error)[:300])
            continue
        if number:  # the first is the warm-up
            times.append(ms)
    row: dict[str, Any] = {"rounds": len(times), "failed": len(failures)}
    if times:
        row |= {"p50_ms": round(percentile(times, 0.5)), "p90_ms": round(percentile(times, 0.9))}
    if failures:
        row["first_error"] = failures[0]
    return row


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--chromium", default=CHROMIUM)
    args = parser.parse_args()

    workdir, runtime = workspace()
    server = serve_folder(PAGES)
    upload_file = workdir / "report.txt"
    upload_file.write_text("a file to upload\n")
    bench = Bench(f"http://127.0.0.1:{server.server_address[1]}", upload_file)
    results: dict[str, dict] = {}
    async with Client(tabsight_server(runtime, args.chromium)) as client:
        for action in bench.actions():
            results[action.name] = await measure(client, action, args.rounds)
            print(f"{action.name}: {results[action.name]}", flush=True)
    server.shutdown()

    lines = ["| action | p50 ms | p90 ms | rounds | failed |", "|---|---|---|---|---|"]
    for name, row in results.items():
        lines.append(
            f"| {name} | {row.get('p50_ms', '-')} | {row.get('p90_ms', '-')} | {row['rounds']} | {row['failed']} |"
        )
    for name, row in results.items():
        if row.get("first_error"):
            lines.append(f"\n{name}, first failure: {row['first_error']}")
    print("\n".join(lines))
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    (out / "actions.json").write_text(json.dumps({"rounds": args.rounds, "results": results}, indent=2) + "\n")


if __name__ == "__main__":
    anyio.run(main)
