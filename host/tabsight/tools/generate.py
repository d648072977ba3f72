"""generate: artefacts made from the browser: a visual diff, and the baselines it compares against."""

from __future__ import annotations

from pydantic import Field

from .. import images
from ..errors import ToolError
from ..session.state import Session
from .base import Params, Tool
from .modes import Meaning, Mode
from .response import Response


class GenerateParams(Params):
    #: what to make: one of the rows' names (the tool makes it their Literal)
    type: str
    baseline: str | None = Field(default=None, min_length=1, max_length=100)
    name: str | None = Field(default=None, min_length=1, max_length=100)


async def generate(session: Session, params: GenerateParams, response: Response) -> None:
    screenshots = session.screenshots
    if params.type == "visual_diff":
        if params.baseline is not None and params.baseline not in screenshots.baselines:
            saved = ", ".join(screenshots.baselines) or "none yet"
            raise ToolError(
                f"No baseline named {params.baseline!r} (saved: {saved}); "
                "save one with generate({type:'baseline', name})"
            )
        before = screenshots.baselines[params.baseline] if params.baseline else screenshots.last
        if before is None:
            raise ToolError(
                "No baseline yet: this session has no earlier screenshot. Take one (screenshot, or "
                "generate({type:'baseline', name})), change the page, then ask for the diff."
            )
    # the tracked tab now; it becomes the session's latest screenshot
    client, tab_id = await session.browsers.tab()
    taken = images.ENCODINGS["diff_capture"]
    shot = await client.capture(tab_id, taken.format, taken.quality)
    now = shot.image
    response.remember_screenshot(now)
    session.screenshots.saw_viewport(client.id, tab_id, shot.viewport)
    if params.type == "baseline":
        assert params.name is not None  # GenerateParams._needs saw to it
        screenshots.save_baseline(params.name, now)
        response.result = {"baseline": params.name, "saved": list(screenshots.baselines)}
        return
    from .. import diff  # here, not at the top: numpy costs every front ~11 MB, and most never diff

    assert before is not None  # a visual_diff: looked for above
    result = diff.compare(before, now)
    summary = {
        "baseline": params.baseline or "previous screenshot",
        "percent_changed": result.percent_changed,
        "regions": result.regions,
    }
    if result.baseline_size != result.current_size:
        summary["sizes"] = {"baseline": result.baseline_size, "current": result.current_size}
        summary["compared"] = (
            f"the common {result.compared_size[0]}x{result.compared_size[1]} area, top-left: the viewport changed "
            "size between the two (the browser's debugger bar, a resized window); the rest is hatched, not counted"
        )
    response.add_image(images.encode(result.image, "diff"), images.ENCODINGS["diff"].mime_type)
    response.result = summary


TOOL = Tool(
    name="generate",
    discriminator="type",
    description="Compare the tracked tab with a baseline.",
    params=GenerateParams,
    quotes_pages=False,
    modes=(
        Mode(
            "visual_diff",
            "what changed since a baseline.",
            generate,
            detail="The tracked tab now against a baseline (this session's previous screenshot, or a saved one): a "
            "diff image (changes in red), the changed regions' boxes and the percent changed.",
            fields={
                "baseline": Meaning(
                    "default: the last screenshot.",
                    "A saved baseline's name; by default this session's previous screenshot.",
                )
            },
        ),
        Mode(
            "baseline",
            "save the tab as name.",
            generate,
            needs=("name",),
            fields={"name": Meaning("", "The name to save under.")},
        ),
    ),
)
