"""The problems page in a real Chromium: one problem's samples from several models, the majority
vote and verified@k, reached from the explorer in one click and back to each record."""

from __future__ import annotations

import os
import re
from pathlib import Path

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


@pytest.fixture(scope="module")
def problem_server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("problems")
    db_url = f"sqlite:///{tmp / 'problems.db'}"
    _store(db_url, _samples())
    proc, base = start_app(db_url)
    yield {"base": base, "db": db_url}
    proc.terminate()
    proc.wait(timeout=20)


def test_problem_page_shows_models_majority_and_verified_at_k(problem_server, browser) -> None:
    engine = make_engine(problem_server["db"])
    problem = problems_with_samples(engine)[0]["problem_hash"]
    alpha = next(r["share_id"] for r in problem_records(engine, problem) if r["model"] == "alpha")
    ctx = browser.new_context(viewport={"width": 1500, "height": 1100})
    page = ctx.new_page()
    try:
        page.goto(f"{problem_server['base']}/explorer?trace={alpha}", wait_until="domcontentloaded")
        link = page.get_by_text("All samples of this problem (5), side by side")
        link.wait_for(timeout=60_000)
        link.click()
        page.wait_for_url(re.compile(r"/problems\?problem=" + problem), timeout=30_000)
        page.get_by_text("Samples side by side").wait_for(timeout=60_000)
        page.locator("[data-testid='stTable']", has_text="gamma").first.wait_for(timeout=60_000)
        page.get_by_text("The problem", exact=True).wait_for(timeout=60_000)
        main = page.locator("section.stMain, [data-testid='stMain']").first
        text = main.inner_text()
        for model in ("alpha", "beta", "delta", "gamma"):
            assert model in text
        assert "Majority vote" in text and "answer A" in text
        assert "verified@5" in text and "a sample passes the validator" in text
        assert "Majority answer: correct" in text.replace("**", "")
        # The shared link opens the same view in a fresh page.
        other = ctx.new_page()
        other.goto(f"{problem_server['base']}/problems?problem={problem}", wait_until="domcontentloaded")
        other.get_by_text("Which answers agree").wait_for(timeout=60_000)
        # Elements stream in: wait for the agreement table itself, not whichever table came first
        # (CI once read the verified@k table here, rendered before it).
        agree = other.locator("[data-testid='stTable']", has_text="majority").first
        agree.wait_for(timeout=60_000)
        assert "majority" in agree.inner_text() and "alpha" in agree.inner_text()
    finally:
        ctx.close()
