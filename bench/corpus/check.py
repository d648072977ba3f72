"""Checks the corpus pages: each loads without errors, reaches its state, and has interactive nodes.

    .venv/bin/python bench/corpus/check.py [--page NAME.html ...] [--shots DIR]

Serves bench/corpus on 127.0.0.1 (tests/harness/servers.py), opens each page of
bench/corpus/pages in a headless Chromium at 1280x720 as tests/harness/axtree.py does (load event,
the page's data-ready-when global, DOM quiet), then prints one line per page: the number of
interactive nodes of Chromium's accessibility tree in view (AXBrowser's count, disabled ones in
brackets), the console errors and uncaught exceptions, the requests that failed or got a 4xx/5xx,
and any request to a host other than 127.0.0.1 (the corpus must need no network). With --shots,
a screenshot of each page is written there. Run bench/corpus/install.sh first.
"""

from __future__ import annotations

import argparse
import base64
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.harness.axtree import QUIET_SCRIPT, Box, Pipe, _visible_interactive  # noqa: E402
from tests.harness.servers import serve_folder  # noqa: E402

CORPUS = Path(__file__).resolve().parent


def check(pipe: Pipe, url: str, shot: Path | None) -> dict:
    target = pipe.call("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = pipe.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    try:
        pipe.call(
            "Emulation.setDeviceMetricsOverride",
            {"width": 1280, "height": 720, "deviceScaleFactor": 1, "mobile": False},
            session,
        )
        for domain in ("Page", "Runtime", "Log", "Network"):
            pipe.call(f"{domain}.enable", session=session)
        pipe.call("Page.navigate", {"url": url}, session)
        pipe.wait_event("Page.loadEventFired", session)
        pipe.call("Runtime.evaluate", {"expression": QUIET_SCRIPT, "awaitPromise": True}, session, timeout=60)
        ready = pipe.call(
            "Runtime.evaluate",
            {
                "expression": "!document.documentElement.dataset.readyWhen || !!window[document.documentElement.dataset.readyWhen]",
                "returnByValue": True,
            },
            session,
        )["result"]["value"]
        if shot:
            data = pipe.call("Page.captureScreenshot", {"format": "png"}, session)["data"]
            shot.write_bytes(base64.b64decode(data))
        nodes = _visible_interactive(pipe, session, Box(0, 0, 1280, 720))
    finally:
        pipe.call("Target.closeTarget", {"targetId": target})
    problems, requests = [], {}
    for event in [e for e in pipe.events if e.get("sessionId") == session]:
        method, params = event["method"], event["params"]
        if method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            problems.append(
                "exception: " + details.get("exception", {}).get("description", details.get("text", ""))[:200]
            )
        elif method == "Runtime.consoleAPICalled" and params["type"] == "error":
            problems.append(
                "console.error: "
                + " ".join(str(a.get("value", a.get("description", ""))) for a in params["args"])[:200]
            )
        elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
            problems.append("log: " + params["entry"]["text"][:200] + " " + params["entry"].get("url", ""))
        elif method == "Network.requestWillBeSent":
            requests[params["requestId"]] = params["request"]["url"]
            if not params["request"]["url"].startswith(("http://127.0.0.1", "data:", "blob:")):
                problems.append("off-host request: " + params["request"]["url"][:200])
        elif method == "Network.responseReceived" and params["response"]["status"] >= 400:
            problems.append(f"HTTP {params['response']['status']}: {params['response']['url']}")
        elif method == "Network.loadingFailed" and not params.get("canceled"):
            problems.append(f"failed ({params['errorText']}): {requests.get(params['requestId'], '?')}")
    pipe.events = [e for e in pipe.events if e.get("sessionId") != session]
    return {
        "nodes": len(nodes),
        "disabled": sum(1 for n in nodes if n.disabled),
        "ready": ready,
        "roles": sorted({n.role for n in nodes}),
        "problems": list(dict.fromkeys(problems)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--page", action="append", help="a page of bench/corpus/pages (default: all)")
    parser.add_argument("--shots", type=Path, help="write a screenshot of each page into this folder")
    args = parser.parse_args()
    pages = args.page or sorted(p.name for p in (CORPUS / "pages").glob("*.html"))
    if args.shots:
        args.shots.mkdir(parents=True, exist_ok=True)
    server = serve_folder(CORPUS)
    pipe = Pipe()
    try:
        for page in pages:
            url = f"http://127.0.0.1:{server.server_address[1]}/pages/{page}"
            try:
                result = check(pipe, url, args.shots / page.replace(".html", ".png") if args.shots else None)
            except Exception as error:  # noqa: BLE001 - one broken page does not stop the others
                print(f"{page}: FAILED {error}")
                continue
            print(
                f"{page}: {result['nodes']} interactive ({result['disabled']} disabled)"
                f"{'' if result['ready'] else ' NOT READY'}; roles {', '.join(result['roles'])}"
            )
            for problem in result["problems"]:
                print(f"    {problem}")
            sys.stdout.flush()
    finally:
        pipe.close()
        server.shutdown()


if __name__ == "__main__":
    main()
