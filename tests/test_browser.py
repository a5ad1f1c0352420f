"""End to end in a real Chromium (Debian's /usr/bin/chromium) driven by Playwright, against
`streamlit run app.py` on a free port and a fresh SQLite file."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import REPO

CHROMIUM = "/usr/bin/chromium"
# CI sets STEPSCOPE_REQUIRE_BROWSER=1: there a missing Chromium fails instead of skipping.
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not Path(CHROMIUM).exists() and os.environ.get("STEPSCOPE_REQUIRE_BROWSER") != "1",
                       reason="Debian chromium is not installed"),
]

XSS = '<img src=x onerror="top.__xss=(top.__xss||0)+1"><script>top.__xss=(top.__xss||0)+1</script>'
HOSTILE = {
    "id": "hostile-1", "domain": "freeform", "model": "evil" + XSS,
    "trace": f"Step one {XSS}\n\n<svg onload=\"top.__xss=1\"></svg> step two\n\n[click](javascript:top.__xss=1)",
    "answer": XSS, "meta": {"note": XSS},
}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _faulty_maze() -> dict:
    """A real A* trace (reference generator) with one seeded fault: a close on a wall."""
    from validators.astar.faults import generate_fault_record

    for seed in range(50):
        rec = generate_fault_record(seed, "create_close_wall", 10, 10, "beyond_semantics")
        if rec is not None:
            rec["id"] = "maze-fault"
            rec["model"] = "reference-a*-with-fault"
            return rec
    raise RuntimeError("no maze with room for the fault")


def start_app(db_url: str, **env_extra: str) -> tuple[subprocess.Popen, str]:
    """`streamlit run app.py` on a free port against `db_url`; returns the process and its base URL
    once the health check answers."""
    port = _free_port()
    env = {**os.environ, "STEPSCOPE_DATABASE_URL": db_url, "STEPSCOPE_DEMO": "0", **env_extra}
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port),
         "--server.headless", "true", "--server.fileWatcherType", "none"],
        cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            if urllib.request.urlopen(f"{base}/_stcore/health", timeout=2).read() == b"ok":
                return proc, base
        except OSError:
            time.sleep(0.3)
    proc.kill()
    raise RuntimeError("streamlit did not start: " + proc.stdout.read().decode(errors="replace")[-2000:])


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("browser")
    db_url = f"sqlite:///{tmp / 'e2e.db'}"
    proc, base = start_app(db_url)
    yield {"base": base, "db": db_url, "tmp": tmp, "pid": proc.pid}
    proc.terminate()
    proc.wait(timeout=20)


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync"])
        yield b
        b.close()


def _page(browser):
    ctx = browser.new_context(viewport={"width": 1500, "height": 1100})
    page = ctx.new_page()
    page.dialogs = []
    page.on("dialog", lambda d: (page.dialogs.append(d.message), d.dismiss()))
    return ctx, page


def _xss_fired(page) -> list:
    hits = []
    for frame in page.frames:
        try:
            value = frame.evaluate("() => window.__xss || (window.top && window.top.__xss) || 0")
        except Exception:  # detached frame
            continue
        if value:
            hits.append((frame.url[:80], value))
    return hits + page.dialogs


def _share_id(db_url: str, record_id: str) -> str:
    from db.engine import make_engine
    from db.queries import recent_traces

    return next(r["share_id"] for r in recent_traces(make_engine(db_url), 100) if r["record_id"] == record_id)


def test_upload_link_invalid_step_comment_and_reload(server, browser):
    ctx, page = _page(browser)
    maze = _faulty_maze()
    bad = maze["expected"]["first_invalid_step"]
    upload = server["tmp"] / "mixed.jsonl"
    upload.write_text(json.dumps(HOSTILE) + "\n{not json\n" + json.dumps(maze) + "\n")
    page.goto(f"{server['base']}/upload")
    page.locator('input[type="file"]').first.set_input_files(str(upload))
    page.get_by_role("button", name="Audit").click()
    page.get_by_text("Summary").wait_for(timeout=30_000)
    page.get_by_text("Problems in 1 input(s)").wait_for()
    assert _xss_fired(page) == []  # the upload summary lists the hostile record's fields

    link = f"{server['base']}/explorer?trace={_share_id(server['db'], 'maze-fault')}&step={bad}"
    page.goto(link)
    page.get_by_text(f"Step {bad}", exact=True).wait_for(timeout=30_000)
    page.get_by_text("invalid", exact=True).first.wait_for()
    page.get_by_text("create_close_wall").first.wait_for()
    page.get_by_text("is a wall").first.wait_for()

    page.get_by_label("Your name").fill("Reviewer R")
    page.get_by_label("Comment").fill("This close is on a wall.")
    page.get_by_role("button", name="Add comment").click()
    page.get_by_text("Reviewer R: This close is on a wall.").wait_for(timeout=15_000)

    ctx.close()
    ctx, page = _page(browser)  # a fresh browser: nothing but the link
    page.goto(link)
    page.get_by_text("Reviewer R: This close is on a wall.").wait_for(timeout=30_000)
    page.get_by_text(f"Step {bad}", exact=True).wait_for()
    page.locator("[data-testid='stPlotlyChart']").first.wait_for(timeout=30_000)  # the maze picture
    time.sleep(1.5)
    page.get_by_role("tab", name="Picture").scroll_into_view_if_needed()
    shot = REPO / "docs" / "explorer.png"
    shot.parent.mkdir(exist_ok=True)
    page.screenshot(path=str(server["tmp"] / "explorer.png"), full_page=False)
    if os.environ.get("STEPSCOPE_UPDATE_SCREENSHOT") == "1":
        shutil.copy(server["tmp"] / "explorer.png", shot)
    page.get_by_role("tab", name="Tree").click()
    page.frame_locator("iframe").first.locator("canvas").first.wait_for(timeout=30_000)  # only the open tab is drawn
    ctx.close()


def test_hostile_text_never_runs_script_on_any_page(server, browser):
    from db.engine import make_engine
    from db.store import add_comment

    share = _share_id(server["db"], "hostile-1")
    from db.queries import trace_by_share_id
    add_comment(make_engine(server["db"]), trace_by_share_id(make_engine(server["db"]), share)["pk"], 0,
                XSS, "comment " + XSS)
    ctx, page = _page(browser)
    urls = [
        f"{server['base']}/home",
        f"{server['base']}/corpus",
        f"{server['base']}/corpus?q=onerror",
        f"{server['base']}/explorer?trace={share}&step=0",
        f"{server['base']}/explorer?trace={share}&step=1&q=svg",
        f"{server['base']}/explorer?trace={share}&step=2&mode=review",
        f"{server['base']}/upload",
        f"{server['base']}/capture",
    ]
    for url in urls:
        page.goto(url)
        page.wait_for_load_state("networkidle")
        page.locator("[data-testid='stApp']").wait_for()
        time.sleep(2.0)
        assert _xss_fired(page) == [], url
    # The payload is visible as text, so it was shown, not dropped.
    page.goto(f"{server['base']}/explorer?trace={share}&step=0")
    page.get_by_text("Step one <img src=x", exact=False).first.wait_for(timeout=30_000)
    box = page.get_by_placeholder("search this trace's steps for a phrase")
    box.fill('"><img src=x onerror=top.__xss=1>')
    box.press("Enter")
    time.sleep(2.0)
    assert _xss_fired(page) == []
    page.goto(f"{server['base']}/corpus")
    page.locator("[data-testid='stSidebar']").get_by_role("textbox", name="Text in any step, or a record id").fill("<script>top.__xss=1</script>")
    page.keyboard.press("Enter")
    time.sleep(2.0)
    assert _xss_fired(page) == []
    ctx.close()
