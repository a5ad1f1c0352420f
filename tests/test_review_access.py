"""Rights on a shared server are decided by the server, not the URL (issue 18), and the explorer
defects a new user hit, each in a real Chromium.

Two servers: the private one of tests/test_browser.py (listening on 127.0.0.1: its user owns it)
and a shared one (STEPSCOPE_SHARED=1 with an owner token, reviewer comments allowed) on which a
reviewer context and an owner context work side by side."""

from __future__ import annotations

import json
import time

import pytest

from app_pages._access import shared_deployment, token_matches
from tests.test_browser import _faulty_maze, _page, _share_id, browser, server, start_app  # noqa: F401 - fixtures

TOKEN = "owner-token-4f7c1e"


def test_only_an_explicit_loopback_address_is_private():
    assert not shared_deployment({}, "127.0.0.1")
    assert not shared_deployment({}, "localhost")
    assert shared_deployment({}, None)  # Streamlit then listens on every interface
    assert shared_deployment({}, "0.0.0.0")
    assert shared_deployment({"STEPSCOPE_SHARED": "1"}, "127.0.0.1")


def test_the_token_must_match_exactly_and_be_set():
    assert token_matches(TOKEN, TOKEN)
    assert not token_matches(TOKEN + " ", TOKEN)
    assert not token_matches("", "")
    assert not token_matches("anything", None)


def _audit_into(db_url: str, tmp, records: list[dict], name: str) -> None:
    from records_io.intake import iter_jsonl
    from db.engine import make_engine
    from pipeline import audit_units

    path = tmp / name
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    with open(path, "rb") as fh:
        list(audit_units(iter_jsonl(fh), make_engine(db_url), source=name))


@pytest.fixture(scope="module")
def shared(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("shared")
    db_url = f"sqlite:///{tmp / 'shared.db'}"
    maze = _faulty_maze()
    maze["id"] = "shared-maze"
    _audit_into(db_url, tmp, [maze], "shared.jsonl")
    proc, base = start_app(db_url, STEPSCOPE_SHARED="1", STEPSCOPE_OWNER_TOKEN=TOKEN, STEPSCOPE_REVIEW_COMMENTS="1")
    yield {"base": base, "db": db_url, "share": _share_id(db_url, "shared-maze"),
           "bad": maze["expected"]["first_invalid_step"]}
    proc.terminate()
    proc.wait(timeout=20)


def _settle(page, seconds: float = 2.5) -> str:
    page.locator("[data-testid='stApp']").wait_for(timeout=30_000)
    time.sleep(seconds)
    return page.inner_text("body")


def test_a_reviewer_cannot_write_by_any_url_and_the_owner_can_after_signing_in(shared, browser):
    share, bad = shared["share"], shared["bad"]
    ctx, reviewer = _page(browser)
    urls = [f"/explorer?trace={share}&step={bad}", f"/explorer?trace={share}&step={bad}&mode=review",
            "/upload", "/upload?mode=review", "/capture", "/corpus", "/", f"/explorer?trace={share}&mode=owner"]
    for url in urls:
        reviewer.goto(shared["base"] + url)
        body = _settle(reviewer)
        assert reviewer.locator('input[type="file"]').count() == 0, url
        assert "Delete this trace" not in body, url
        assert reviewer.get_by_role("button", name="Run").count() == 0, url
        assert "Page not found" not in body, url
    reviewer.goto(shared["base"] + "/upload")
    assert "need the owner's sign-in" in _settle(reviewer)

    # Comments are allowed here, but only under a name.
    reviewer.goto(shared["base"] + f"/explorer?trace={share}&step={bad}&mode=review")
    reviewer.get_by_text(f"Step {bad}", exact=True).wait_for(timeout=30_000)
    reviewer.get_by_label("Comment").fill("unsigned note")
    reviewer.get_by_role("button", name="Add comment").click()
    reviewer.get_by_text("reviewers' comments are signed").wait_for(timeout=15_000)
    reviewer.get_by_label("Your name (required)").fill("Rita")
    reviewer.get_by_label("Comment").fill("This close is on a wall.")
    reviewer.get_by_role("button", name="Add comment").click()
    reviewer.get_by_text("Rita: This close is on a wall.").wait_for(timeout=15_000)
    assert "unsigned note" not in reviewer.inner_text("body")

    # A wrong token grants nothing; the owner's token grants writing, in that session only.
    reviewer.goto(shared["base"] + "/")
    _settle(reviewer)
    reviewer.get_by_text("Owner sign-in").click()
    reviewer.get_by_label("Owner token").fill("guess")
    reviewer.get_by_role("button", name="Sign in").click()
    reviewer.get_by_text("That token is not the owner's.").wait_for(timeout=15_000)

    octx, owner = _page(browser)
    owner.goto(shared["base"] + "/")
    _settle(owner)
    owner.get_by_text("Owner sign-in").click()
    owner.get_by_label("Owner token").fill(TOKEN)
    owner.get_by_role("button", name="Sign in").click()
    owner.get_by_text("Signed in: you may upload").wait_for(timeout=15_000, state="attached")
    owner.get_by_role("link", name="Upload & audit").click()
    owner.locator('input[type="file"]').first.wait_for(timeout=30_000, state="attached")
    owner.get_by_role("link", name="Explorer").click()
    _settle(owner, 1.0)

    reviewer.goto(shared["base"] + "/upload")  # the owner signing in elsewhere changes nothing here
    _settle(reviewer)
    assert reviewer.locator('input[type="file"]').count() == 0
    ctx.close()
    octx.close()


def test_step_list_click_selects_that_step(server, browser):
    share = _share_id(server["db"], "maze-fault") if _has(server, "maze-fault") else _upload(server)
    ctx, page = _page(browser)
    page.goto(f"{server['base']}/explorer?trace={share}&step=0")
    page.get_by_text("Step 0", exact=True).wait_for(timeout=30_000)
    page.get_by_role("tab", name="Step list").click()
    grid = page.locator("[data-testid='stDataFrame']:visible").first
    grid.wait_for()
    time.sleep(1.0)
    box = grid.bounding_box()
    row_h = 35
    page.mouse.click(box["x"] + 14, box["y"] + row_h * 4 + row_h / 2)  # the row of step 3
    page.get_by_text("Step 3", exact=True).wait_for(timeout=15_000)
    body = page.inner_text("body")
    assert "StreamlitWidgetAlreadyInstantiatedError" not in body and "step=3" in page.url
    assert "Delete this trace" in body  # the sections below the list are still there
    ctx.close()


def test_review_link_lands_on_its_step_and_an_out_of_range_step_is_corrected(server, browser):
    share = _share_id(server["db"], "maze-fault") if _has(server, "maze-fault") else _upload(server)
    ctx, page = _page(browser)
    page.goto(f"{server['base']}/explorer?trace={share}&step=2&mode=review")
    page.get_by_text("Step 2", exact=True).wait_for(timeout=30_000)
    assert "Page not found" not in page.inner_text("body")
    assert page.url.startswith(f"{server['base']}/explorer?") and "step=2" in page.url
    ctx.close()
    ctx, page = _page(browser)
    page.goto(f"{server['base']}/explorer?trace={share}&step=99999")
    page.get_by_text("has no step 99999").wait_for(timeout=30_000)
    assert "step=99999" not in page.url
    link = page.locator("[data-testid='stCode']").filter(has_text="/explorer?trace=").first.inner_text()
    assert link.startswith(f"{server['base']}/explorer?trace={share}&step=")
    ctx.close()


def _has(server, record_id: str) -> bool:
    from db.engine import make_engine
    from db.queries import recent_traces

    return any(r["record_id"] == record_id for r in recent_traces(make_engine(server["db"]), 500))


def _upload(server) -> str:
    maze = _faulty_maze()
    _audit_into(server["db"], server["tmp"], [maze], "access-maze.jsonl")
    return _share_id(server["db"], "maze-fault")


def test_back_from_a_trace_keeps_the_corpus_filters_and_the_search_reaches_the_trace(server, browser):
    if not _has(server, "maze-fault"):
        _upload(server)
    _audit_into(server["db"], server["tmp"], [
        {"id": f"free-{i}", "domain": "freeform", "trace": f"Step {i}: 2 + {i} = {2 + i}.", "answer": str(2 + i)}
        for i in range(3)], "free.jsonl")
    ctx, page = _page(browser)
    page.goto(f"{server['base']}/corpus")
    everything = page.get_by_text("trace(s) match").inner_text(timeout=30_000)
    page.goto(f"{server['base']}/corpus?domain=maze&q=close")
    page.get_by_text("trace(s) match").wait_for(timeout=30_000)
    time.sleep(1.5)
    filtered = page.get_by_text("trace(s) match").inner_text()
    assert filtered != everything
    grid = page.locator("[data-testid='stDataFrame']").last
    grid.scroll_into_view_if_needed()
    box = grid.bounding_box()
    page.mouse.click(box["x"] + 14, box["y"] + 35 + 17)  # the first row
    page.get_by_text("Link to this view").wait_for(timeout=30_000)
    assert "/explorer?" in page.url and "q=close" in page.url  # the search goes along
    page.go_back()
    page.get_by_text("trace(s) match").wait_for(timeout=30_000)
    time.sleep(3.0)
    assert page.get_by_text("trace(s) match").inner_text() == filtered
    assert "maze" in page.locator("[data-testid='stSidebar']").inner_text()
    ctx.close()


def test_clicking_a_rule_bar_filters_the_corpus_by_that_rule(server, browser):
    if not _has(server, "maze-fault"):
        _upload(server)
    _audit_into(server["db"], server["tmp"], [
        {"id": "arith-bad", "domain": "freeform", "trace": "So 7 * 8 = 54.", "answer": "54"}], "arith.jsonl")
    ctx, page = _page(browser)
    page.goto(f"{server['base']}/corpus")
    page.get_by_text("trace(s) match").wait_for(timeout=30_000)
    time.sleep(2.0)
    everything = page.get_by_text("trace(s) match").inner_text()
    chart = page.locator("[data-testid='stPlotlyChart']").nth(2)
    chart.scroll_into_view_if_needed()
    time.sleep(1.0)
    label = chart.locator("g.ytick text", has_text="arithmetic_claim_false")
    label_box = label.bounding_box()
    bars = [chart.locator("g.point path").nth(i).bounding_box() for i in range(chart.locator("g.point path").count())]
    bar = min(bars, key=lambda b: abs(b["y"] + b["height"] / 2 - (label_box["y"] + label_box["height"] / 2)))
    page.mouse.click(bar["x"] + 2, bar["y"] + bar["height"] / 2)
    page.get_by_text("Invalid step rule").wait_for()
    time.sleep(3.0)
    filtered = page.get_by_text("trace(s) match").inner_text()
    assert filtered != everything and filtered.startswith(("1 ", "2 ", "3 ", "4 ", "5 "))
    assert "rule=arithmetic_claim_false" in page.url  # a link to this filtered view
    ctx.close()


def test_reading_view_and_tree_open_steps_in_sandboxed_frames_without_third_party_requests(server, browser):
    share = _share_id(server["db"], "maze-fault") if _has(server, "maze-fault") else _upload(server)
    ctx, page = _page(browser)
    outside: list[str] = []
    page.on("request", lambda r: outside.append(r.url)
            if not r.url.startswith(("http://127.0.0.1", "data:", "blob:", "about:")) else None)
    page.goto(f"{server['base']}/explorer?trace={share}&step=40")
    page.get_by_text("Step 40", exact=True).wait_for(timeout=30_000)
    time.sleep(2.0)
    frames = page.locator("iframe")
    assert all((frames.nth(i).get_attribute("src") or "").startswith("data:text/html") for i in range(frames.count()))
    page.get_by_role("tab", name="Reading").click()  # a maze opens on its picture
    reading = page.frame_locator("iframe").first
    selected = reading.locator("#s40")
    selected.wait_for(timeout=15_000)
    assert "sel" in selected.get_attribute("class") and selected.is_visible()
    assert reading.locator("a.invalid").count() >= 1  # the seeded fault is marked
    with ctx.expect_page() as opened:
        reading.locator("#s41").click()
    step_page = opened.value
    step_page.get_by_text("Step 41", exact=True).wait_for(timeout=30_000)
    assert step_page.url.endswith(f"trace={share}&step=41")
    step_page.close()
    page.get_by_role("tab", name="Tree").click()
    time.sleep(2.0)
    page.screenshot(path=str(server["tmp"] / "tree.png"))
    assert outside == [], outside  # no CDN, no third party: the app works offline
    ctx.close()
