"""The Python the host launcher runs: never one that lives in a cache.

``uvx tabsight install`` (or an MCP configuration that runs ``uvx tabsight mcp``) runs tabsight from an
environment in uv's cache, which ``uv cache clean`` or the next upgrade removes: a launcher naming that
interpreter would leave the browser unable to start its host. So when the running interpreter is in a cache
folder, ``tabsight install`` makes a host environment of its own in the data folder (``host-env``): a virtual
environment of the base interpreter (no pip, no network), holding copies of the installed files of tabsight and
of the distributions the host imports (``HOST_DISTRIBUTIONS``). Otherwise (a ``uv tool`` or ``pipx`` install, a
virtualenv, a clone's ``.venv``) the running interpreter is stable and is used as it is.
"""

from __future__ import annotations

import shutil
import stat
import subprocess
import sys
from collections.abc import Mapping
from importlib import metadata
from pathlib import Path

import platformdirs

#: what ``python -m tabsight host`` imports beyond the standard library (tests/test_install_package.py checks it)
HOST_DISTRIBUTIONS = (
    "tabsight",
    "platformdirs",
    "pydantic",
    "pydantic-core",
    "annotated-types",
    "typing-extensions",
    "typing-inspection",
)
ENV_NAME = "host-env"


class HostEnvError(Exception):
    """The host environment could not be made: the message says why."""


def cache_folders(environ: Mapping[str, str]) -> list[Path]:
    """Folders whose contents a tool may delete at any time: the user's cache folder, and uv's own if moved."""
    folders = [Path(platformdirs.user_cache_dir()).expanduser()]
    for moved in (environ.get("UV_CACHE_DIR"), environ.get("XDG_CACHE_HOME")):
        if moved:
            folders.append(Path(moved).expanduser())
    return [folder.absolute() for folder in folders]


def in_cache(path: Path, environ: Mapping[str, str]) -> bool:
    return any(path.absolute().is_relative_to(folder) for folder in cache_folders(environ))


def host_python(data: Path, environ: Mapping[str, str]) -> str:
    """The interpreter the launcher runs: this one, unless it lives in a cache; then ``data/host-env``'s."""
    if not in_cache(Path(sys.prefix), environ):
        return sys.executable
    return str(make_host_env(data / ENV_NAME, environ))


def make_host_env(folder: Path, environ: Mapping[str, str], base: Path | None = None) -> Path:
    """A virtual environment of ``base`` (default: the base interpreter of this one) at ``folder`` with the
    host's distributions copied in; its python."""
    base = base or base_interpreter()
    if in_cache(base, environ):
        raise HostEnvError(
            f"the Python interpreter {base} is in a cache folder too: install tabsight with "
            "`uv tool install tabsight` or `pipx install tabsight`, then run `tabsight install` again"
        )
    staging = folder.with_name(f"{folder.name}-new")
    shutil.rmtree(staging, ignore_errors=True)
    try:
        subprocess.run([str(base), "-m", "venv", "--without-pip", str(staging)], check=True, capture_output=True)
        python = staging / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
        found = subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True,
            capture_output=True,
            text=True,
        )
        site = Path(found.stdout.strip())
        for name in HOST_DISTRIBUTIONS:
            _copy_distribution(name, site)
        shutil.rmtree(folder, ignore_errors=True)
        staging.replace(folder)
    except (OSError, subprocess.CalledProcessError, metadata.PackageNotFoundError) as error:
        shutil.rmtree(staging, ignore_errors=True)
        raise HostEnvError(f"could not make the host's environment in {folder}: {error}") from error
    return folder / python.relative_to(staging)


def base_interpreter() -> Path:
    """The interpreter this one's virtual environment (if any) was made from."""
    return Path(getattr(sys, "_base_executable", sys.executable))


def shared_interpreter() -> Path:
    """An interpreter of this Python version that every user can run: this one's base, or the system's
    ``pythonX.Y``. (A root's pyenv or uv Python lives in /root, which other users cannot enter.)"""
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    candidates = [base_interpreter(), *(Path(folder) / version for folder in ("/usr/bin", "/usr/local/bin"))]
    for candidate in candidates:
        if candidate.is_file() and runs_for_everyone(candidate):
            return candidate
    raise HostEnvError(
        f"no {version} that every user can run (this one, {base_interpreter()}, is not): install {version} "
        "from your distribution, then run the install again"
    )


def runs_for_everyone(path: Path) -> bool:
    """Can any user reach and run ``path`` (every folder on its way, its target, searchable and readable)?"""
    target = path.resolve()
    for step in (path.absolute(), target):
        for folder in step.parents:
            if not folder.stat().st_mode & stat.S_IXOTH:
                return False
    mode = target.stat().st_mode
    return bool(mode & stat.S_IXOTH and mode & stat.S_IROTH)


def _copy_distribution(name: str, site: Path) -> None:
    """An installed distribution's files (its package, its metadata) copied into ``site``."""
    distribution = metadata.distribution(name)
    for file in distribution.files or ():
        source = Path(str(distribution.locate_file(file)))
        if file.parts[0] == ".." or not source.is_file() or "__pycache__" in file.parts:
            continue  # a console script outside site-packages, or bytecode: the host needs neither
        target = site / file
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)
