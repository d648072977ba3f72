"""Every relative link of the README, CONTRIBUTING.md and docs/ leads to a file of the repository, and to a heading of it.

A link is ``[text](target)`` outside code (fenced blocks and `code spans` are skipped); a target with a scheme
(``https:``, ``mailto:``) is not checked. ``#anchor`` must be the GitHub anchor of a heading of the file it
names (or of the linking file, for a bare ``#anchor``).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)", re.DOTALL)
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.MULTILINE)


def prose(text: str) -> str:
    return CODE_SPAN.sub("", FENCE.sub("", text))


def links(text: str) -> list[str]:
    return LINK.findall(prose(text))


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped (but - and _), spaces as hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).replace("`", "").strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(text: str) -> set[str]:
    found: set[str] = set()
    seen: dict[str, int] = {}
    for heading in HEADING.findall(FENCE.sub("", text)):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def broken(path: Path, root: Path = ROOT, not_yet: frozenset[str] | set[str] = frozenset()) -> list[str]:
    found = []
    name = path.relative_to(root).as_posix()
    for target in links(path.read_text()):
        if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target):
            continue  # https:, mailto:
        file_part, _, anchor = target.partition("#")
        destination = (path.parent / file_part).resolve() if file_part else path.resolve()
        if not destination.is_relative_to(root.resolve()):
            found.append(f"{name}: {target} leads out of the repository")
            continue
        relative = destination.relative_to(root.resolve()).as_posix()
        if not destination.exists():
            if relative not in not_yet:
                found.append(f"{name}: {target}: no file {relative}")
            continue
        if anchor and destination.suffix == ".md" and anchor not in anchors(destination.read_text()):
            found.append(f"{name}: {target}: {relative} has no heading #{anchor}")
    return found


def test_every_relative_link_of_the_readme_and_docs_resolves():
    assert [problem for path in DOCS for problem in broken(path)] == []


def test_the_readme_links_every_file_in_docs():
    linked = {target.partition("#")[0] for target in links((ROOT / "README.md").read_text())}
    assert sorted(f"docs/{path.name}" for path in (ROOT / "docs").glob("*.md")) == sorted(
        target for target in linked if target.startswith("docs/")
    )


def test_the_check_finds_a_missing_file_a_missing_heading_and_skips_code(tmp_path: Path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text(
        "# A title\n\n## Which `browser`, and why?\n\n## Which `browser`, and why?\n"
    )
    (tmp_path / "README.md").write_text(
        "[a](docs/a.md#which-browser-and-why) [b](docs/a.md#which-browser-and-why-1) [web](https://x.org/y)\n"
        "[gone](docs/gone.md) [later](docs/later.md) [no](docs/a.md#nowhere) [self](#top) [out](../x.md)\n"
        "`[code](docs/code.md)`\n\n```\n[fenced](docs/fenced.md)\n```\n\n# Top\n"
    )
    assert broken(tmp_path / "README.md", tmp_path, {"docs/later.md"}) == [
        "README.md: docs/gone.md: no file docs/gone.md",
        "README.md: docs/a.md#nowhere: docs/a.md has no heading #nowhere",
        "README.md: ../x.md leads out of the repository",
    ]
