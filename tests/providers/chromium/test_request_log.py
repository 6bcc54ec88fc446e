"""The network verb's log of a page's requests: it waits for the browser's word of what the
page itself saw end, which under load can come after the page's."""

from __future__ import annotations

import asyncio

from browserhost.providers.chromium.request_log import RequestLog

MAIN = "frame-1"


def _sent(request_id: str, url: str, kind: str) -> dict[str, object]:
    return {
        "requestId": request_id,
        "type": kind,
        "frameId": MAIN,
        "timestamp": 1.0,
        "request": {"method": "GET", "url": url},
        "initiator": {"type": "parser"},
    }


async def test_the_log_waits_for_a_request_the_page_saw_end_before_the_browser_told_it() -> None:
    log = RequestLog()
    log.sent(_sent("1", "http://site.test/", "Document"), MAIN)
    log.answered({"requestId": "1", "response": {"status": 200}})
    log.finished({"requestId": "1", "timestamp": 1.1, "encodedDataLength": 100})
    image, icon = "http://site.test/missing.png", "http://site.test/favicon.ico"
    waiting = asyncio.ensure_future(log.loads_ended(60, [image, icon]))
    for _ in range(5):
        await asyncio.sleep(0)
    assert not waiting.done()  # the page saw the image end; the browser has not told it yet
    log.sent(_sent("2", image, "Image"), MAIN)
    log.answered({"requestId": "2", "response": {"status": 404}})
    for _ in range(5):
        await asyncio.sleep(0)
    assert not waiting.done()  # answered, not ended
    log.finished({"requestId": "2", "timestamp": 1.2, "encodedDataLength": 20})
    await asyncio.wait_for(waiting, 60)  # the icon Chromium asks for itself is not waited for
    listed = log.listing(url_part=None, types=["image"], failed_only=True, limit=10)
    assert [(r["url"], r["status"]) for r in listed["requests"]] == [(image, 404)]
