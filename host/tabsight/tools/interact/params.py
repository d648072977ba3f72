"""interact's arguments: one flat object for every action (what each field is: type, range, default). Which
action takes which field, and what it means there, is said by the actions' rows, in the family modules."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal
from urllib.parse import urlsplit

from pydantic import Field, field_validator, model_validator

from ... import uploads
from ...limits import MAX_CDP_STEPS, MAX_UPLOAD_FILES
from ..base import Params, detail
from ..modes import Group

#: fields one fill may set
MAX_FILL_FIELDS = 50
#: a path given to upload
FilePath = Annotated[str, Field(min_length=1, max_length=4096)]
#: keys a click may hold; ControlOrMeta is Meta on macOS and Control elsewhere (select-many, open in a new tab)
Modifier = Literal["Alt", "Control", "Meta", "Shift", "ControlOrMeta"]

TARGET = Group("target", ("label", "selector", ("x", "y")))
DESTINATION = Group("destination", ("to_label", "to_selector", ("to_x", "to_y")))


class CdpStep(Params):
    method: str = Field(
        pattern=r"^[A-Z][A-Za-z]*\.[a-zA-Z]+$",
        json_schema_extra=detail("Domain.method, e.g. Page.captureScreenshot (its result comes back as an image)."),
    )
    params: dict[str, Any] = Field(default={}, json_schema_extra=detail("The method's parameters."))

    @model_validator(mode="after")
    def _no_local_files(self) -> CdpStep:
        # the CDP ways to hand the page local files, past upload's allowed folders (tabsight.uploads):
        # DOM.setFileInputFiles, and a drop of files (Input.dispatchDragEvent's DragData.files)
        data = self.params.get("data")
        dropped = self.method == "Input.dispatchDragEvent" and isinstance(data, dict) and data.get("files")
        if self.method == "DOM.setFileInputFiles" or dropped:
            raise ValueError(
                f"{self.method} with files is refused in execute: it would hand the page local files "
                "from anywhere; use action 'upload' (files from the allowed folders only)"
            )
        return self


class FillField(Params):
    label: int | None = Field(
        default=None, ge=1, json_schema_extra=detail("The field: a number from the latest annotation.")
    )
    selector: str | None = Field(
        default=None,
        min_length=1,
        max_length=2048,
        json_schema_extra=detail("The field: a CSS selector matching one element."),
    )
    value: str | bool = Field(
        json_schema_extra=detail(
            "Text or a value-taking input's value (date, color...), an option's value or text (select, listbox, "
            "combobox), or true/false (checkbox, switch; true for a radio button)."
        ),
    )

    @model_validator(mode="after")
    def _one_target(self) -> FillField:
        if (self.label is None) == (self.selector is None):
            raise ValueError("each field needs one of 'label' or 'selector'")
        if isinstance(self.value, str) and len(self.value) > 100_000:
            raise ValueError("a field's value is at most 100000 characters")
        return self

    @property
    def named(self) -> str:
        return f"label {self.label}" if self.label is not None else self.selector or ""


class InteractParams(Params):
    groups: ClassVar = (TARGET, DESTINATION)

    #: the action: one of the rows' names (the tool makes it their Literal)
    action: str
    label: int | None = Field(
        default=None,
        ge=1,
        json_schema_extra=detail(
            "Target: a number from the latest annotated screenshot. What your action made of its element (count: 1, "
            "Pause, checked) the label follows (the answer's label_now); a change the page makes by itself makes it "
            "stale."
        ),
    )
    selector: str | None = Field(
        default=None,
        min_length=1,
        max_length=2048,
        json_schema_extra=detail(
            "Target: a CSS selector matching one element; host >>> inner crosses an open shadow root or a same-origin "
            "iframe, as annotation selectors do."
        ),
    )
    x: float | None = Field(default=None, ge=0, json_schema_extra=detail("Target: CSS px from the viewport's left."))
    y: float | None = Field(default=None, ge=0, json_schema_extra=detail("Target: CSS px from the viewport's top."))
    to_label: int | None = Field(default=None, ge=1)
    to_selector: str | None = Field(default=None, min_length=1, max_length=2048)
    to_x: float | None = Field(default=None, ge=0)
    to_y: float | None = Field(default=None, ge=0)
    url: str | None = Field(default=None, min_length=1, max_length=8192)
    text: str | None = Field(default=None, max_length=100_000)
    clear: bool = False
    submit: bool = False
    value: str | None = Field(default=None, max_length=1000)
    key: str | None = Field(default=None, min_length=1, max_length=100)
    button: Literal["left", "right", "middle"] = "left"
    click_count: int = Field(default=1, ge=1, le=3)
    modifiers: list[Modifier] = Field(default=[], max_length=4)
    hold_ms: int = Field(default=800, ge=100, le=4000)
    delta_x: int = Field(default=0, ge=-100_000, le=100_000)
    delta_y: int = Field(default=0, ge=-100_000, le=100_000)
    timeout: int | None = Field(
        default=None,
        ge=0,
        le=120_000,
        description="ms.",
        json_schema_extra=detail("Many clients give up on a call at 60 s: for longer, wait in steps."),
    )
    script: str | None = Field(default=None, min_length=1, max_length=100_000)
    cdp: list[CdpStep] | None = Field(default=None, max_length=MAX_CDP_STEPS)
    timeout_ms: int = Field(default=30_000, ge=100, le=120_000)
    accept: bool = True
    prompt_text: str | None = Field(default=None, max_length=10_000)
    fields: list[FillField] | None = Field(default=None, min_length=1, max_length=MAX_FILL_FIELDS)
    files: list[FilePath] | None = Field(
        default=None,
        min_length=1,
        max_length=MAX_UPLOAD_FILES,
        description="Paths.",
        json_schema_extra=detail(
            "Absolute, or from the MCP client's working directory. Only regular files under the working directory, "
            f"tabsight's upload folder {uploads.upload_folder_path()} (put files made for an upload there) or a "
            "folder in TABSIGHT_UPLOAD_ROOTS are allowed; the temp folder is not. A refusal names the allowed folders."
        ),
    )
    tab_id: int | None = Field(default=None, json_schema_extra=detail("Default: the tracked tab."))

    @field_validator("url")
    @classmethod
    def _absolute(cls, url: str | None) -> str | None:
        if url is None:
            return None
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https", "file", "data", "about") or (
            parts.scheme in ("http", "https") and not parts.netloc
        ):
            raise ValueError(f"'url' is {url[:200]!r}; allowed: an absolute http, https, file, data or about URL")
        return url
