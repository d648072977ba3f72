"""tabsight's extension packed for this machine: what a Chromium installs with no Developer mode.

A Chromium build installs, at its next start and with no prompt, a packed extension (``.crx``) that a JSON file
in ``<user data dir>/External Extensions/`` names (``{"external_crx": <absolute path>, "external_version":
<version>}``); removing the file removes it, a higher version updates it. The extension's id is then the one of
the key that signed the ``.crx``. No private key is in the repository: ``pack`` makes one for this machine the
first time (``<data dir>/extension.pem``, 0600, kept for the updates), with the browser's own packer
(``--pack-extension``: no crypto library of ours), and reads the public key back from the signed file's header
(CRX3: ``Cr24``, version 3, a protobuf ``CrxFileHeader`` whose ``sha256_with_rsa`` proofs hold it). The copy of
the extension the browser keeps (``<data dir>/extension``, never a cache or a virtualenv) has that key as its
manifest's ``key``, so loading it unpacked gives the same id.
"""

from __future__ import annotations

import base64
import hashlib
import json
import shutil
import struct
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tabsight.paths import extension_dir, extension_id_from_key

#: in the data folder: the key, the extension the browser keeps, its packed form
KEY_NAME = "extension.pem"
EXTENSION_NAME = "extension"
CRX_NAME = "tabsight.crx"
PACK_TIMEOUT = 60.0
#: the manifest's fields ``pack`` sets
PACK_SETS = ("key", "version", "version_name")
#: CrxFileHeader's fields (components/crx_file/crx3.proto)
SHA256_WITH_RSA = 2
PUBLIC_KEY = 1


class PackError(Exception):
    """The extension could not be packed: the message says why and what to do."""


@dataclass(frozen=True)
class Packed:
    crx: Path
    extension: Path
    extension_id: str
    version: str


def pack(data: Path, browser: str) -> Packed:
    """The extension copied to ``data``, keyed and packed by ``browser`` (a Chromium-family executable)."""
    key = data / KEY_NAME
    staging = data / f"{EXTENSION_NAME}-packing"  # the packer writes extension-packing.crx (and .pem) beside it
    shutil.rmtree(staging, ignore_errors=True)
    shutil.copytree(extension_dir(), staging, ignore=shutil.ignore_patterns("__pycache__"))
    manifest_path = staging / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    manifest.pop("key", None)  # the packaged key is the embedded browser's; this machine's replaces it
    # the browser updates the copy it keeps when ``version`` goes up; the host compares ``version_name``, tabsight's
    manifest["version_name"] = manifest["version"]
    manifest["version"] = packed_version(manifest["version"], data / EXTENSION_NAME, staging)
    manifest_path.write_text(json.dumps(manifest, indent=2) + "\n")
    crx = data / f"{staging.name}.crx"
    try:
        if not key.is_file():
            _run_packer(browser, staging, None)  # writes staging.crx and a new key, staging.pem
            made = data / f"{staging.name}.pem"
            made.chmod(0o600)
            made.replace(key)
        else:
            _run_packer(browser, staging, key)
        public_key = crx_public_key(crx.read_bytes())
        manifest["key"] = base64.b64encode(public_key).decode()
        manifest_path.write_text(json.dumps(manifest, indent=2) + "\n")
        _run_packer(browser, staging, key)  # again, its manifest naming its key
        final, packed = data / EXTENSION_NAME, data / CRX_NAME
        shutil.rmtree(final, ignore_errors=True)
        staging.replace(final)
        crx.chmod(0o644)  # signed, no secret: every user's browser reads it (`install --system`)
        crx.replace(packed)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        crx.unlink(missing_ok=True)
    return Packed(packed, final, extension_id_from_key(manifest["key"]), manifest["version"])


def packed_version(version: str, previous: Path, new: Path) -> str:
    """The package's version plus a fourth number, which goes up each time the extension's files differ from the
    copy packed before (``previous``): a browser updates an external extension only to a higher version, and a
    development build keeps the package's."""
    if version.count(".") >= 3:
        return version  # no fourth number to use (a browser's versions have at most four)
    try:
        before = json.loads((previous / "manifest.json").read_text())["version"]
    except (OSError, ValueError, KeyError, TypeError):
        return f"{version}.0"
    base, _, count = before.rpartition(".")
    if base != version or not count.isdigit():
        return f"{version}.0"
    return before if files_digest(previous) == files_digest(new) else f"{version}.{int(count) + 1}"


def files_digest(folder: Path) -> str:
    """What the extension's files hold, its manifest without the fields a pack sets."""
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if not path.is_file() or "__pycache__" in path.parts:
            continue
        content = path.read_bytes()
        if path == folder / "manifest.json":
            manifest = {k: v for k, v in json.loads(content).items() if k not in PACK_SETS}
            content = json.dumps(manifest, sort_keys=True).encode()
        digest.update(f"{path.relative_to(folder).as_posix()}\0{len(content)}\0".encode() + content)
    return digest.hexdigest()


def _run_packer(browser: str, folder: Path, key: Path | None) -> None:
    # a profile of its own, thrown away: the user's browser profile (its default folder) is never touched
    with tempfile.TemporaryDirectory(prefix="tabsight-pack-") as profile:
        command = [browser, "--headless", "--no-sandbox", f"--user-data-dir={profile}", f"--pack-extension={folder}"]
        if key is not None:
            command.append(f"--pack-extension-key={key}")
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=PACK_TIMEOUT, check=False)
        except (OSError, subprocess.TimeoutExpired) as error:
            raise PackError(f"could not run {browser} to pack the extension: {error}") from error
    if not (folder.parent / f"{folder.name}.crx").is_file():
        said = (done.stderr or done.stdout).strip().splitlines()[-1:] or [f"exit status {done.returncode}"]
        raise PackError(f"{browser} did not pack the extension: {said[0]}")


def crx_public_key(crx: bytes) -> bytes:
    """The RSA public key (DER) that signed a CRX3 file."""
    if crx[:4] != b"Cr24" or len(crx) < 12:
        raise PackError("not a CRX file")
    version, size = struct.unpack("<II", crx[4:12])
    if version != 3:
        raise PackError(f"CRX version {version}, not 3")
    for number, value in _fields(crx[12 : 12 + size]):
        if number == SHA256_WITH_RSA:
            for inner, key in _fields(value):
                if inner == PUBLIC_KEY:
                    return key
    raise PackError("the CRX file carries no RSA public key")


def crx_id(crx: bytes) -> str:
    return extension_id_from_key(base64.b64encode(crx_public_key(crx)).decode())


def _fields(buffer: bytes) -> Iterator[tuple[int, bytes]]:
    """The length-delimited fields of a protobuf message, as (number, bytes); varints are skipped."""
    at = 0
    while at < len(buffer):
        tag, at = _varint(buffer, at)
        number, wire = tag >> 3, tag & 7
        if wire == 0:
            _, at = _varint(buffer, at)
        elif wire == 2:
            length, at = _varint(buffer, at)
            yield number, buffer[at : at + length]
            at += length
        else:
            raise PackError(f"unexpected protobuf wire type {wire} in the CRX header")


def _varint(buffer: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if at >= len(buffer):
            raise PackError("truncated CRX header")
        byte = buffer[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, at
