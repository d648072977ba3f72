"""Viewport changes caused by tabsight over a scripted agent session on the user's own headed browser.

    .venv/bin/python bench/debugbar_bench.py [--actions 50] [--pause 9]

A desktop of its own (tests/harness/desktop.py: Xvfb and openbox), a Chromium started as a user
starts theirs (tests/harness/usersbrowser.py: its own profile, the extension loaded unpacked,
tabsight's host registered there), tests/pages/bar.html open in a tab, and the official MCP SDK
client on `tabsight mcp` with TABSIGHT_BROWSER=never. The session cycles through what an agent does
(screenshot, annotated observe, click by label, click by selector, click at a point read off the
latest screenshot, type, scroll, execute), one action every --pause seconds (an agent's think time;
the default, 9 s, is longer than the old 3 s idle detach plus the bar's 5 s linger, so the old
behaviour brought the bar back for nearly every action). The page records every resize; the bench
reports the resizes seen, the clicks at points that were refused because the viewport had changed
since their screenshot, and errors. Issue 16's target: zero viewport changes caused by tabsight
over a 50-action session. Results go to bench/results/debugbar.json.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from harness.calls import payload, region
from harness.desktop import Desktop
from harness.servers import serve_folder
from harness.usersbrowser import UsersBrowser

PAGES = Path(__file__).resolve().parent.parent / "tests" / "pages"
RESULTS = Path(__file__).resolve().parent / "results" / "debugbar.json"
ACTIONS = ("screenshot", "annotate", "click_label", "click_selector", "click_point", "type", "scroll", "execute")


async def measure(actions: int, pause: float) -> dict:
    desktop = Desktop()
    server = serve_folder(PAGES)
    home = Path(tempfile.mkdtemp(prefix="tabsight-bench-"))
    runtime = home / "runtime"
    runtime.mkdir(mode=0o700)
    browser = UsersBrowser(desktop, home / "profile", runtime)
    counts = {"actions": 0, "errors": [], "points_refused": 0}
    try:
        browser.start()
        browser.open(f"http://127.0.0.1:{server.server_address[1]}/bar.html")
        env = dict(desktop.env, TABSIGHT_BROWSER="never", TABSIGHT_RUNTIME_DIR=str(runtime))
        params = StdioServerParameters(command=sys.executable, args=["-m", "tabsight", "mcp"], env=env)
        async with Client(params) as client:
            labels: dict[str, int] = {}
            height = None
            started = time.monotonic()
            for n in range(actions):
                kind = ACTIONS[n % len(ACTIONS)]
                result = await client.call_tool(*_call(kind, labels, height))
                counts["actions"] += 1
                if result.is_error:
                    text = result.content[0].text
                    if "in the screenshot these coordinates came from" in text:
                        counts["points_refused"] += 1
                    else:
                        counts["errors"].append(f"{kind}: {text[:200]}")
                elif kind == "screenshot":
                    height = json.loads(region(result.content[-1].text))["metadata"]["height"]
                elif kind == "annotate":
                    answer = payload(result)
                    labels = {item["name"]: item["label"] for item in answer["annotations"]}
                    height = answer["page"]["viewport"]["height"] if "page" in answer else height
                await anyio.sleep(pause)
            seconds = time.monotonic() - started
            record = json.loads(
                payload(
                    await client.call_tool("interact", {"action": "execute", "script": "JSON.stringify(window.record)"})
                )["script"]["result"]
            )
    finally:
        browser.quit()
        desktop.close()
        server.shutdown()
    return {
        "actions": counts["actions"],
        "pause_s": pause,
        "seconds": round(seconds, 1),
        "viewport_changes": len(record["resizes"]),
        "heights": record["resizes"],
        "points_refused": counts["points_refused"],
        "errors": counts["errors"],
    }


def _call(kind: str, labels: dict[str, int], height: int | None) -> tuple[str, dict]:
    if kind == "screenshot":
        return "screenshot", {}
    if kind == "annotate":
        return "observe", {"what": "page", "annotate_screenshot": True}
    if kind == "click_label" and "Top" in labels:
        return "interact", {"action": "click", "label": labels["Top"]}
    if kind == "click_point" and height:
        return "interact", {"action": "click", "x": 140, "y": height - 30}  # the Bottom button, on the screenshot
    if kind == "type":
        return "interact", {"action": "type", "selector": "#note", "text": "x", "clear": True}
    if kind == "scroll":
        return "interact", {"action": "scroll", "delta_y": 100}
    if kind == "execute":
        return "interact", {"action": "execute", "script": "document.title"}
    return "interact", {"action": "click", "selector": "#top"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=50)
    parser.add_argument("--pause", type=float, default=9.0, help="seconds between actions (an agent's think time)")
    args = parser.parse_args()
    results = anyio.run(measure, args.actions, args.pause)
    print(json.dumps(results, indent=2))
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
