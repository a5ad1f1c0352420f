"""The explorer's views in a real Chromium: the thinking map's clicks reach the app, the
Sokoban picture follows the step, the reading of a thinking step (rule rows and all) from a
server auditing with the second claim reader, eight readers at once against one server, and (with
STEPSCOPE_SCREENSHOTS=1) the README's screenshots of every view, written to docs/."""

from __future__ import annotations

import asyncio
import io
import json
import os
import re
import threading
import time
from pathlib import Path

import pytest

from tests.conftest import REPO, load_dev
from tests.test_browser import (CHROMIUM, _faulty_maze, _page, _share_id, _xss_fired, browser, pytestmark,  # noqa: F401
                                server, start_app)

# The app is idle when Streamlit's "Running..." status is gone; a click during a run can be lost.
IDLE = "() => !document.querySelector(\"[data-testid='stStatusWidget']\")"
NEXT = re.compile(r"^▶")
READERS = int(os.environ.get("STEPSCOPE_READERS", "8"))
SHOTS = os.environ.get("STEPSCOPE_SCREENSHOTS") == "1"
LOCAL = re.compile(r"^(?:https?://127\.0\.0\.1[:/]|data:|blob:|about:)")


def _store(server, records: list[dict]) -> dict[str, str]:
    """Audit records into the server's database; their share ids by record id."""
    from records_io.intake import iter_jsonl
    from db.engine import make_engine
    from db.queries import recent_traces
    from pipeline import audit_units

    eng = make_engine(server["db"])
    data = "".join(json.dumps(r) + "\n" for r in records).encode()
    list(audit_units(iter_jsonl(io.BufferedReader(io.BytesIO(data))), eng))
    return {r["record_id"]: r["share_id"] for r in recent_traces(eng, 500)}


def _sokoban() -> dict:
    from tests.test_explorer_views import _sokoban as make

    return dict(make(7)["token"], id="sokoban-1", model="reference-a*")


def _records() -> list[dict]:
    mazes = []
    for seed, rule in ((0, "create_close_wall"), (1, "create_close_wall"), (2, "create_close_wall")):
        from validators.astar.faults import generate_fault_record

        for s in range(seed * 20, seed * 20 + 20):
            rec = generate_fault_record(s, rule, 10, 10, "beyond_semantics")
            if rec is not None:
                mazes.append(dict(rec, id=f"maze-{seed}", model="reference-a*-with-fault"))
                break
    r1 = [dict(r, id=f"r1-{i}") for i, r in enumerate(load_dev("planbench_r1_thinking.jsonl")[:2])]
    countdown = [dict(r, id=f"countdown-{i}") for i, r in enumerate(load_dev("countdown_sos.jsonl")[:2])]
    plans = [dict(r, id="plan-blocks") for r in load_dev("planbench_plans.jsonl") if r["domain"] == "blocksworld"][:1]
    return mazes + r1 + countdown + plans + [_sokoban()]


def _cpu_seconds(pid: int) -> float:
    """User + system CPU of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _outside_requests(page) -> list[str]:
    seen: list[str] = []
    page.on("request", lambda req: seen.append(req.url))
    return seen


def _step_shown(page, n: int) -> None:
    page.get_by_text(f"Step {n}", exact=True).wait_for(timeout=30_000)


def _url_step(page) -> int:
    return int(re.search(r"[?&]step=(\d+)", page.url).group(1))


def test_map_click_opens_the_step_and_sokoban_picture_follows_it(server, browser):
    from app_pages._thinking_map import build_map
    from db.engine import make_engine
    from db.queries import step_outline, step_states, trace_by_share_id

    shares = _store(server, _records())
    ctx, page = _page(browser)
    outside = _outside_requests(page)
    eng = make_engine(server["db"])
    rec = trace_by_share_id(eng, shares["r1-0"])
    outline = step_outline(eng, rec["pk"])
    tmap = build_map(rec["notes"]["thinking"], outline, step_states(eng, rec["pk"]),
                     rec["verdict"]["answer_correct"], rec["verdict"]["gaps"])
    start = len(outline) - 1
    page.goto(f"{server['base']}/explorer?trace={shares['r1-0']}&step={start}")
    _step_shown(page, start)
    page.get_by_role("tab", name="Map").click()
    chart = page.locator("[data-testid='stPlotlyChart']").first
    chart.wait_for(timeout=30_000)
    time.sleep(1.0)
    # Each lane's marks are its later steps as dots, its start (which opens its first step), its
    # end; the longest lane's start stands clear of its end.
    first = max(tmap.lanes, key=lambda lane: lane.end - lane.first)
    at = tmap.lanes.index(first)
    index = sum(len(lane.steps) + 1 for lane in tmap.lanes[:at]) + len(first.steps) - 1
    point = chart.locator(".scatterlayer .trace").nth(len(tmap.lanes)).locator("path.point").nth(index)
    point.click(force=True)
    _step_shown(page, first.first)
    assert _url_step(page) == first.first
    assert chart.is_visible()

    page.goto(f"{server['base']}/explorer?trace={shares['sokoban-1']}&step=3")
    _step_shown(page, 3)
    picture = page.locator("[data-testid='stPlotlyChart']").first
    picture.wait_for(timeout=30_000)
    time.sleep(1.0)
    assert (picture.locator(".gtitle").text_content() or "").startswith("step 3:")
    page.locator(".st-key-next_step button").first.click()
    _step_shown(page, 4)
    page.get_by_text("step 4:").first.wait_for(timeout=30_000)  # the picture's title: redrawn for step 4
    assert _url_step(page) == 4 and picture.locator(".scatterlayer .trace").count() == 2  # boxes, worker
    assert [u for u in outside if not LOCAL.match(u)] == []
    ctx.close()


def test_eight_readers_at_once(server, browser):
    """Eight browser contexts against one server, each opening a different trace and stepping
    three times: every page shows its steps, its URL follows, and no page shows an error. The
    wall time and the server's CPU are printed, not asserted: the machine is shared."""
    shares = [share for rid, share in _store(server, _records()).items() if rid != "plan-blocks"][:READERS]
    assert len(shares) == READERS
    base = server["base"]
    timings: list[tuple[float, float]] = []
    started = time.perf_counter()

    async def reader(ctx_browser, share: str, errors: list[str]) -> None:
        try:
            await read(ctx_browser, share, errors)
        except Exception as exc:  # noqa: BLE001 - every reader's failure is reported, not just the first
            errors.append(f"{share}: {type(exc).__name__}: {str(exc)[:300]}")

    async def read(ctx_browser, share: str, errors: list[str]) -> None:
        ctx = await ctx_browser.new_context(viewport={"width": 1400, "height": 1000})
        page = await ctx.new_page()
        page.on("pageerror", lambda e: errors.append(f"{share}: {e}"))
        page.on("request", lambda r: errors.append(f"{share}: request to {r.url}") if not LOCAL.match(r.url) else None)
        await page.goto(f"{base}/explorer?trace={share}&step=0")
        await page.get_by_text("Step 0", exact=True).wait_for(timeout=90_000)
        opened = time.perf_counter()
        for n in range(1, 4):
            await page.wait_for_function(IDLE, timeout=90_000)
            await page.get_by_role("button", name=NEXT).click(timeout=90_000)
            await page.get_by_text(f"Step {n}", exact=True).wait_for(timeout=90_000)
            if f"step={n}" not in page.url:
                errors.append(f"{share}: step {n} shown but the URL is {page.url}")
        timings.append((opened - started, time.perf_counter() - opened))
        if await page.locator("[data-testid='stException']").count():
            errors.append(f"{share}: " + await page.locator("[data-testid='stException']").first.inner_text())
        await ctx.close()

    async def main() -> list[str]:
        from playwright.async_api import async_playwright

        errors: list[str] = []
        nonlocal started
        async with async_playwright() as p:
            b = await p.chromium.launch(executable_path=CHROMIUM, headless=True, args=[
                "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"])
            started = time.perf_counter()
            await asyncio.gather(*(reader(b, s, errors) for s in shares))
            errors.append(f"elapsed {time.perf_counter() - started:.1f}")
            await b.close()
        return errors

    # The module's synchronous Playwright runs an event loop in this thread: the readers get their own.
    found: list[str] = []
    cpu0 = _cpu_seconds(server["pid"])
    worker = threading.Thread(target=lambda: found.extend(asyncio.run(main())))
    worker.start()
    worker.join(timeout=180)
    assert found and found[-1].startswith("elapsed"), found
    assert found[:-1] == [], found
    print(f"{READERS} readers: {found[-1]} s, server CPU {_cpu_seconds(server['pid']) - cpu0:.1f} s; "
          "first view / three steps per reader (s): " + ", ".join(f"{a:.0f}/{b:.0f}" for a, b in sorted(timings)))
    assert len(timings) == READERS


def test_screenshots_of_each_view(server, browser, tmp_path):
    """Every view drawn and captured: into docs/ with STEPSCOPE_SCREENSHOTS=1 (the README's
    pictures), else into a temporary directory, so a normal run rewrites no tracked file."""
    shares = _store(server, _records())
    out = REPO / "docs" if SHOTS else tmp_path
    ctx, page = _page(browser)
    outside = _outside_requests(page)

    def shot(name: str, share: str, step: int | None, tab: str | None, wait: str, timeout: int = 30_000) -> None:
        page.goto(f"{server['base']}/explorer?trace={share}" + (f"&step={step}" if step is not None else ""))
        page.locator("[data-testid='stApp']").wait_for()
        if step is not None:
            _step_shown(page, step)
        if tab:
            page.get_by_role("tab", name=tab).click()
        # Only the open tab's panel is in the accessibility tree; hidden ones are not.
        if tab:
            target = page.get_by_role("tabpanel")
            target.locator(wait).first.wait_for(timeout=timeout)
        else:
            target = page.locator(wait).first
            target.wait_for(timeout=timeout)
            target.scroll_into_view_if_needed()
        time.sleep(2.5)
        target.screenshot(path=str(out / f"explorer-{name}.png"))
        assert (out / f"explorer-{name}.png").stat().st_size > 5_000

    maze = shares["maze-0"]
    bad = _faulty_maze_step(server, maze)
    shot("maze", maze, bad, "Picture", "[data-testid='stPlotlyChart']")
    shot("reading", shares["r1-0"], 13, "Reading", "iframe")
    shot("map", shares["r1-0"], 28, "Map", "[data-testid='stPlotlyChart']")
    shot("countdown", shares["countdown-0"], 12, "Picture", "[data-testid='stPlotlyChart']")
    shot("sokoban", shares["sokoban-1"], 9, "Picture", "[data-testid='stPlotlyChart']")
    shot("tree", maze, bad, "Tree", "iframe")
    shot("answer", shares["r1-0"], 28, "Answer", "iframe")
    shot("stacks", shares["plan-blocks"], None, None, "[data-testid='stPlotlyChart']")
    assert [u for u in outside if not LOCAL.match(u)] == []
    ctx.close()


def _faulty_maze_step(server, share: str) -> int:
    from db.engine import make_engine
    from db.queries import trace_by_share_id

    verdict = trace_by_share_id(make_engine(server["db"]), share)["verdict"]
    return int(verdict["first_invalid_step"])


@pytest.fixture(scope="module")
def v2_server(tmp_path_factory):
    """An app on its own database, whose audits read thinking claims with their rule rows."""
    tmp = tmp_path_factory.mktemp("reader_v2")
    db_url = f"sqlite:///{tmp / 'v2.db'}"
    proc, base = start_app(db_url)
    yield {"base": base, "db": db_url, "tmp": tmp, "pid": proc.pid}
    proc.terminate()
    proc.wait(timeout=20)


def _frame_with(page, text: str, timeout: float = 30.0):
    """The frame (a sandboxed data: frame has no locator of its own) whose body shows `text`."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        for frame in page.frames:
            try:
                if text in (frame.evaluate("() => document.body ? document.body.innerText : ''") or ""):
                    return frame
            except Exception:  # noqa: BLE001 - a frame detached while the page reran
                continue
        time.sleep(0.3)
    raise AssertionError(f"no frame shows {text!r}")


def test_the_reading_of_a_step_shows_its_claims_rule_rows_and_what_was_left_unjudged(v2_server, browser):
    """Uploaded to the server, a mystery_blocksworld thinking
    record's false effect claim opens with its reading: the claim as written (its markup shown as
    text, never run), verdict and modality, the rule row that read it with the row's example, and
    any claim left unjudged with why."""
    from db.engine import make_engine
    from db.queries import step_states, trace_by_share_id
    from tests.test_step_reading import HOSTILE, reading_record

    ctx, page = _page(browser)
    upload = v2_server["tmp"] / "reading.jsonl"
    upload.write_text(json.dumps(reading_record()) + "\n")
    page.goto(f"{v2_server['base']}/upload")
    page.locator('input[type="file"]').first.set_input_files(str(upload))
    page.get_by_role("button", name="Audit").click()
    page.get_by_text("Summary").wait_for(timeout=60_000)

    share = _share_id(v2_server["db"], "mb-reading")
    eng = make_engine(v2_server["db"])
    states = step_states(eng, trace_by_share_id(eng, share)["pk"])
    (step, claim), *_ = [(i, c) for i, s in sorted(states.items()) for c in s.get("claims") or ()
                         if c["kind"] == "effect" and c["holds"] is False]
    assert claim.get("rules"), claim  # the second reader wrote it (the first stores no rule rows)
    row = next(r for r in claim["rules"] if r["id"] == "effect.add")

    page.goto(f"{v2_server['base']}/explorer?trace={share}&step={step}")
    _step_shown(page, step)
    page.get_by_text("The reading of this step").wait_for(timeout=30_000)
    frame = _frame_with(page, "Claims judged")
    shown = frame.evaluate("() => document.body.innerText")
    assert "Feast b from c adds Pain c " + HOSTILE in shown  # the markup as text
    assert claim["message"] in shown and "asserted" in shown
    card = frame.locator(".claim.false").filter(has_text="effect.add").first
    assert "false" in card.locator(".verdict").inner_text()
    assert card.locator(".rid").first.inner_text() == "effect.add"
    assert row["example"] in card.inner_text() and row["sets"] in card.inner_text()
    for left in states[step].get("unjudged") or ():
        grey = frame.locator(".claim.unjudged").filter(has_text=left["why"]).first
        assert grey.is_visible()
        assert grey.evaluate("e => getComputedStyle(e).color") == "rgb(119, 119, 119)"
    assert frame.locator("script").count() == 0
    time.sleep(1.0)
    assert _xss_fired(page) == []
    ctx.close()
