"""The ``tabsight`` command."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from pathlib import Path

from . import __version__

FORMATS = {".png": "png", ".jpg": "jpeg", ".jpeg": "jpeg", ".webp": "webp"}


def _shot(args: argparse.Namespace) -> int:
    """Capture a URL on the embedded browser and write the image (the main job).

    The browser is started first, and the rest of tabsight (the tools, Pillow, pydantic; no MCP SDK) loads while
    it starts; arguments the screenshot tool refuses end it again. It is started with no linger: once the image
    is written it ends at once, and nothing of it is left when the command returns.
    """
    import asyncio

    # checked before the browser starts: a file that cannot be written ends the command in one line, as argparse
    # ends it for a bad argument, not in a traceback after the capture
    problem = _output_problem(Path(args.output))
    if problem:
        print(f"tabsight shot: error: argument -o/--output: {problem}", file=sys.stderr)
        return 2

    from .browser import embedded

    embedded.launch_ahead(not args.headed, linger=0)

    from .browser.connection import BrowserConnection
    from .paths import write_private
    from .session.state import Session
    from .tools import dispatch

    output = Path(args.output)
    image_format = args.format or FORMATS.get(output.suffix.lower(), "png")

    async def run() -> int:
        browsers = BrowserConnection("shot", mode="headed" if args.headed else "auto", embedded_only=True, linger=0)
        session = Session(browsers)
        try:
            arguments = {
                "url": args.url,
                "format": image_format,
                "quality": args.quality,
                "timeout": args.timeout,
                "width": args.width,
                "height": args.height,
                "fullPage": args.full_page,
            }
            if args.selector:
                arguments["selector"] = args.selector
            try:
                shot = await dispatch.run(session, "screenshot", arguments)
            except dispatch.ToolFailure as exc:
                print(f"tabsight shot: {exc}", file=sys.stderr)
                return 1
            tiles = shot.images
            # a page longer than one image allows comes as tiles: FILE-1, FILE-2, ...
            paths = (
                [output]
                if len(tiles) == 1
                else [output.with_name(f"{output.stem}-{n}{output.suffix}") for n in range(1, len(tiles) + 1)]
            )
            for path, tile in zip(paths, tiles):
                try:
                    write_private(path, tile.data)  # a page's picture: the user's alone, as every file of ours
                except OSError as exc:  # the folder went away meanwhile, the disk is full...
                    print(f"tabsight shot: cannot write {path} (-o/--output): {exc.strerror or exc}", file=sys.stderr)
                    return 1
            print(f"{', '.join(map(str, paths))}: {json.dumps(shot.result, separators=(',', ':'))}")
            return 0
        finally:
            await session.aclose()  # a browser started for arguments then refused is ended too
            await browsers.wait_for_end()  # no process stays behind

    return asyncio.run(run())


def _output_problem(output: Path) -> str | None:
    """Why the image cannot be written to ``output`` (its folder missing, not a folder, not writable), or None."""
    if output.is_dir():
        return f"{output} is a folder; give a file in it (e.g. {output / 'page.png'})"
    folder = output.parent
    if not folder.exists():
        return f"the folder {folder} does not exist"
    if not folder.is_dir():
        return f"{folder} is not a folder"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"the folder {folder} is not writable"
    return None


def _ci_result(args: argparse.Namespace) -> int:
    """Send a CI run's result to every running browser's host: it becomes an alert for their sessions."""
    import asyncio

    from .browser.client import BrowserClient
    from .browser.hosts import connect_all
    from .errors import BrowserError
    from .paths import FolderError

    raw = sys.stdin.read() if args.file == "-" else Path(args.file).read_text()
    try:
        result = json.loads(raw)
    except ValueError as exc:
        print(f"tabsight ci-result: {args.file} is not JSON ({exc})", file=sys.stderr)
        return 2
    if not isinstance(result, dict) or "status" not in result:
        print(
            'tabsight ci-result: expected a JSON object with "status" (and "name", "summary", "url")', file=sys.stderr
        )
        return 2

    async def send() -> int:
        links = await connect_all("ci-result")
        try:
            for link in links:
                await BrowserClient(link).ci_result(result)
        finally:
            for link in links:
                await link.close()
        return len(links)

    try:
        sent = asyncio.run(send())
    except (BrowserError, FolderError) as exc:  # a runtime folder or a socket of another user's: said, no traceback
        print(f"tabsight ci-result: {exc}", file=sys.stderr)
        return 1
    if not sent:
        print("tabsight ci-result: no browser with tabsight is running; nothing was sent", file=sys.stderr)
        return 1
    print(f"sent to {sent} browser{'s' if sent > 1 else ''}")
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0].startswith("chrome-extension://"):
        # Launched by a browser through a manifest whose path is this command.
        from .nativehost import run

        return run(argv)
    parser = argparse.ArgumentParser(prog="tabsight", description="Eyes on a real browser for AI coding agents.")
    parser.add_argument("--version", action="version", version=f"tabsight {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("mcp", help="run the MCP server over stdio (what MCP clients start)")
    shot = commands.add_parser("shot", help="capture URL on the embedded browser and write the image")
    shot.add_argument("url")
    shot.add_argument("-o", "--output", required=True, help="image file (.png, .jpg or .webp)")
    shot.add_argument("--format", choices=["png", "jpeg", "webp"], help="default: from the file's extension")
    shot.add_argument("--quality", type=int, default=80, help="1-100, for jpeg and webp (default 80)")
    shot.add_argument("--timeout", type=int, default=30000, help="navigation timeout in ms (default 30000)")
    shot.add_argument("--width", type=int, default=1280, help="viewport width in CSS px (default 1280)")
    shot.add_argument("--height", type=int, default=720, help="viewport height in CSS px (default 720)")
    shot.add_argument("--full-page", action="store_true", help="the whole document (tiles past 8000 px)")
    shot.add_argument("--selector", help="capture just the element this CSS selector matches")
    shot.add_argument("--headed", action="store_true", help="show the browser window")
    host = commands.add_parser("host", help="run the native host (the browser starts this; not for humans)")
    host.add_argument("origin", nargs="*")
    install = commands.add_parser("install", help="register the native host with every Chromium-family browser found")
    uninstall = commands.add_parser("uninstall", help="remove everything `tabsight install` wrote")
    for command, what in (
        (install, "for every user's browsers, Google Chrome's too (root, Linux)"),
        (uninstall, "what `install --system` wrote"),
    ):
        command.add_argument("--system", action="store_true", help=what)
    install.add_argument("--wsl", action="store_true", help="in WSL: for the browsers on Windows (untested there)")
    install.add_argument("--distribution", help="with --wsl: the WSL distribution (default: this one)")
    doctor = commands.add_parser("doctor", help="check each link of the chain and say how to fix a broken one")
    for command, what in ((install, "also register the host in DIR"), (doctor, "also check DIR")):
        command.add_argument(
            "--user-data-dir",
            metavar="DIR",
            dest="user_data_dirs",
            type=Path,
            action="append",
            default=[],
            help=f"{what}: the --user-data-dir of a browser you start with one (it reads native hosts only "
            "from DIR/NativeMessagingHosts); repeatable",
        )
    ci = commands.add_parser("ci-result", help="report a CI run to the running browsers' sessions as an alert")
    ci.add_argument("file", help='JSON file ("-" for stdin): {"status": "passed"|"failed", "name", "summary", "url"}')
    remote = commands.add_parser("remote", help="reach this browser from an agent on another machine, over ssh")
    remote_actions = remote.add_subparsers(dest="remote_action", required=True)
    where = remote_actions.add_parser("where", help="(on the agent's machine) the socket path a forward should make")
    where.add_argument("--name", default="forwarded", help="the forwarded host's name: letters, digits, _ or -")
    forward = remote_actions.add_parser("forward", help="(on the browser's machine) forward it to DESTINATION")
    forward.add_argument("destination", help="where the agent runs, as ssh takes it (user@host, or a Host alias)")
    forward.add_argument("--remote-socket", help="the path there (default: ask its `tabsight remote where`)")
    forward.add_argument("--profile", help="the browser profile's id (its first digits do), when several run here")
    forward.add_argument("--print", action="store_true", help="print the ssh command instead of running it")
    forward.epilog = "Arguments after -- go to ssh as they are (-p 2222, -i KEY, -J JUMP)."
    # what follows `--` is ssh's, whatever it looks like: taken off before argparse reads the rest
    cut = argv.index("--") if argv[:2] == ["remote", "forward"] and "--" in argv else len(argv)
    args = parser.parse_args(argv[:cut])
    args.ssh_args = argv[cut + 1 :]

    if args.command == "mcp":
        # Until its own handlers are in place (server/main.py), Ctrl-C ends it at once, as SIGTERM does, instead of
        # a KeyboardInterrupt traceback: nothing is started yet to clean up.
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        from .server.main import run as serve

        return serve()
    if args.command == "shot":
        return _shot(args)
    if args.command == "ci-result":
        return _ci_result(args)
    if args.command == "host":
        from .nativehost import run

        return run(args.origin)
    if args.command == "remote":
        from .install import remote as remote_command

        return remote_command.run(args)
    from .install import commands as install_commands

    if getattr(args, "wsl", False):
        from .install import wsl

        return wsl.run_install_wsl(sys.stdout, args.distribution)
    if getattr(args, "system", False):
        from .install import system

        if args.command == "install" and args.user_data_dirs:
            print("--system and --user-data-dir: run them as two installs (--system as root)", file=sys.stderr)
            return 2
        return (system.run_install_system if args.command == "install" else system.run_uninstall_system)(sys.stdout)
    if args.command == "uninstall":
        return install_commands.run_uninstall(sys.stdout)
    action = install_commands.run_install if args.command == "install" else install_commands.run_doctor
    return action(sys.stdout, user_data_dirs=args.user_data_dirs)
