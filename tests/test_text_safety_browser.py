"""Issue 37 item 6: model text is shown as text. An answer, a model name, a record id or a trace
holding markdown images must not make the reader's browser request anything: in a real Chromium,
no request leaves the app's own server on the Problems page or the explorer."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from db.engine import make_engine
from db.problems import problem_records, problems_with_samples
from tests.test_browser import CHROMIUM, browser, start_app  # noqa: F401 - the browser fixture
from tests.test_problems import _samples, _store

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not Path(CHROMIUM).exists() and os.environ.get("STEPSCOPE_REQUIRE_BROWSER") != "1",
                       reason="Debian chromium is not installed"),
]

PIXEL = "![x](http://127.0.0.1:9/track.png)"


def _hostile() -> list[dict]:
    rows = _samples()
    for i, row in enumerate(rows):
        row["answer"] = f"{row['answer']}\n{PIXEL.replace('track', f'answer{i}')} **bold** 1. list"
        row["trace"] = f"Step one. {PIXEL.replace('track', f'trace{i}')}\n\nStep two."
    rows[0]["model"] = "![m](http://127.0.0.1:9/model.png)"
    rows[0]["id"] = "![id](http://127.0.0.1:9/id.png)"
    return rows


@pytest.fixture(scope="module")
def hostile_server(tmp_path_factory):
    db_url = f"sqlite:///{tmp_path_factory.mktemp('hostile') / 'hostile.db'}"
    _store(db_url, _hostile())
    proc, base = start_app(db_url)
    yield {"base": base, "db": db_url}
    proc.terminate()
    proc.wait(timeout=20)


def test_no_request_leaves_the_server_on_the_problems_page_or_the_explorer(hostile_server, browser) -> None:
    engine = make_engine(hostile_server["db"])
    problem = problems_with_samples(engine)[0]["problem_hash"]
    shares = [r["share_id"] for r in problem_records(engine, problem)]
    own = urlsplit(hostile_server["base"]).netloc
    ctx = browser.new_context(viewport={"width": 1500, "height": 1100})
    page = ctx.new_page()
    outside: list[str] = []
    page.on("request", lambda req: outside.append(req.url)
            if urlsplit(req.url).scheme in ("http", "https", "ws", "wss") and urlsplit(req.url).netloc != own
            else None)
    try:
        page.goto(f"{hostile_server['base']}/problems?problem={problem}", wait_until="domcontentloaded")
        page.get_by_text("Which answers agree").wait_for(timeout=60_000)
        page.get_by_text("Per model").wait_for(timeout=60_000)
        page.wait_for_timeout(2_000)
        assert outside == [], outside
        main = page.locator("[data-testid='stMain']").first.inner_text()
        assert "![m](http://127.0.0.1:9/model.png)" in main  # the model name is shown as typed
        for share in shares[:2]:
            page.goto(f"{hostile_server['base']}/explorer?trace={share}", wait_until="domcontentloaded")
            page.get_by_placeholder("search this trace's steps for a phrase").wait_for(timeout=60_000)
            page.wait_for_timeout(2_000)
        title = page.locator("h1").first.inner_text()
        assert "Trace" in title
        assert outside == [], outside
    finally:
        ctx.close()
