"""The review views in a real Chromium, pictured for the README (with STEPSCOPE_SCREENSHOTS=1 into
docs/, else into a temporary directory): two samples of one problem side by side, a comment
anchored to a quote of its step, the record download, and the corpus filtered on a meta key."""

from __future__ import annotations

import time

from tests.test_browser import _page, _xss_fired, browser, pytestmark, server  # noqa: F401
from tests.test_explorer_browser import LOCAL, SHOTS, _outside_requests, _store
from tests.conftest import REPO

PROBLEM = {"question": "What is 7 * 8? Give the number.", "reference_answer": "56"}
SAMPLES = [
    {"id": "review-a", "domain": "freeform", "model": "alpha", "problem": PROBLEM, "answer": "54", "meta": {"run": "sweep-3"},
     "trace": "We multiply 7 by 8.\n\nSo 7 * 8 = 54.\n\nCheck: 54 / 7 is not whole. <script>alert(1)</script>"},
    {"id": "review-b", "domain": "freeform", "model": "beta", "problem": PROBLEM, "answer": "56", "meta": {"run": "sweep-4"},
     "trace": "We multiply 7 by 8.\n\nSo 7 * 8 = 56.\n\nCheck: 56 / 7 = 8."},
]


def test_screenshots_of_the_review_views(server, browser, tmp_path):
    from db.engine import make_engine
    from db.queries import trace_by_share_id
    from db.store import add_comment
    from metrics.quote_anchor import anchor_in

    shares = _store(server, SAMPLES)
    a, b = shares["review-a"], shares["review-b"]
    eng = make_engine(server["db"])
    record = trace_by_share_id(eng, a)
    add_comment(eng, record["pk"], 1, "Olga", "The product is 56: this is where the answer goes wrong.",
                anchor=anchor_in("So 7 * 8 = 54.", "7 * 8 = 54"))
    out = REPO / "docs" if SHOTS else tmp_path
    ctx, page = _page(browser)
    outside = _outside_requests(page)

    page.goto(f"{server['base']}/compare?a={a}&b={b}")
    page.get_by_text("They part at", exact=False).first.wait_for(timeout=60_000)
    time.sleep(2.0)
    page.locator("[data-testid='stMain']").screenshot(path=str(out / "review-compare.png"))

    page.goto(f"{server['base']}/explorer?trace={a}&step=1")
    quote = page.get_by_text("on “7 * 8 = 54”", exact=False).first
    quote.wait_for(timeout=60_000)
    page.get_by_text("Olga: The product is 56", exact=False).first.scroll_into_view_if_needed()
    time.sleep(2.0)
    page.screenshot(path=str(out / "review-comment.png"))
    assert page.get_by_text("Olga: The product is 56", exact=False).first.is_visible()
    download = page.get_by_role("button", name="Download this record (JSON)")
    download.scroll_into_view_if_needed()
    time.sleep(1.0)
    page.screenshot(path=str(out / "review-download.png"))

    page.set_viewport_size({"width": 1500, "height": 1400})  # the sidebar's filters down to the meta value
    page.goto(f"{server['base']}/corpus?meta_key=run&meta_value=sweep-3")
    page.get_by_text("1 trace(s) match", exact=False).first.wait_for(timeout=60_000)
    sidebar = page.locator("[data-testid='stSidebar']")
    sidebar.get_by_text("Value of run", exact=True).first.wait_for(timeout=30_000)
    page.locator(".js-plotly-plot .main-svg").nth(3).wait_for(timeout=60_000)  # the four charts drawn
    time.sleep(2.0)
    page.screenshot(path=str(out / "review-meta-filter.png"))
    for name in ("review-compare.png", "review-comment.png", "review-download.png", "review-meta-filter.png"):
        assert (out / name).stat().st_size > 5_000
    assert _xss_fired(page) == []
    assert [u for u in outside if not LOCAL.match(u)] == []
    ctx.close()
