"""Eight MCP clients taking screenshots at once: all succeed, no quota error surfaces."""

from __future__ import annotations

import base64
import io

import anyio
import pytest
from PIL import Image

from conftest import mcp_client

pytestmark = [pytest.mark.anyio, pytest.mark.browser]

CLIENTS = 8
SHOTS_EACH = 10


async def test_eight_clients_ten_screenshots_each(browser, site):
    failures: list[str] = []
    sizes: list[tuple[int, int]] = []

    async def one_client(n: int) -> None:
        async with mcp_client() as client:
            if n == 0:
                await client.call_tool("interact", {"action": "navigate", "url": site.url("/index.html")})
            for _ in range(SHOTS_EACH):
                result = await client.call_tool("screenshot", {"format": "jpeg", "quality": 60})
                if result.is_error:
                    failures.append(result.content[0].text)
                    continue
                img = Image.open(io.BytesIO(base64.b64decode(result.content[0].data)))
                sizes.append(img.size)

    async with anyio.create_task_group() as tasks:
        for n in range(CLIENTS):
            tasks.start_soon(one_client, n)
    assert failures == []
    assert len(sizes) == CLIENTS * SHOTS_EACH
    assert set(sizes) == {(1280, 720)}
