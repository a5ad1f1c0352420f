"""In a real Chromium: the explorer on a BIG-Bench Mistake record whose label disagrees with our
verdict (dyck_languages row 261: labelled with a mistake at step 8, the pop order `< { {` of the
stack `{ { <`, which is right; our replay flags nothing) shows both, with imported judgments beside them;
a source name holding HTML stays text."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from tests.conftest import dev_path
from tests.test_browser import CHROMIUM, _xss_fired, browser, start_app  # noqa: F401 - the browser fixture

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not Path(CHROMIUM).exists() and os.environ.get("STEPSCOPE_REQUIRE_BROWSER") != "1",
                       reason="Debian chromium is not installed"),
]

ROW = 261
EVIL = '<img src=x onerror="top.__xss=1">judge'


def _store(db_url: str) -> str:
    """The dataset row as uploaded, with an id to join judgments to; returns its share id."""
    from records_io.intake import iter_jsonl
    from metrics.outside_labels import read_judgments
    from db.engine import make_engine
    from db.outside import import_judgments
    from db.queries import recent_traces
    from pipeline import audit_units
    from validators.step_rows import StepRowsConverter

    lines = dev_path("bigbench_mistake/dyck_languages.jsonl").read_text().splitlines()
    row = dict(json.loads(lines[ROW]), id="bbm-dyck-261")
    assert row["mistake_index"] == 8
    eng = make_engine(db_url)
    data = io.BufferedReader(io.BytesIO(json.dumps(row).encode() + b"\n"))
    list(audit_units(iter_jsonl(data, convert=StepRowsConverter("dyck_languages")), eng,
                     source="dyck_languages.jsonl"))
    scores = [0.95] * len(row["steps"])  # a scorer that agrees with us: no step below the threshold
    good, bad = read_judgments([json.dumps({"id": "bbm-dyck-261", "source": "toy-prm", "step_scores": scores}),
                                json.dumps({"id": "bbm-dyck-261", "source": EVIL, "first_mistake": 4})])
    assert not bad and import_judgments(eng, good).imported == 2
    return next(r["share_id"] for r in recent_traces(eng, 5) if r["record_id"] == "bbm-dyck-261")


@pytest.fixture(scope="module")
def labelled_server(tmp_path_factory):
    db_url = f"sqlite:///{tmp_path_factory.mktemp('judgments') / 'j.db'}"
    share = _store(db_url)
    proc, base = start_app(db_url)
    yield {"base": base, "share": share}
    proc.terminate()
    proc.wait(timeout=20)


def test_explorer_shows_a_disagreeing_label_beside_our_verdict(labelled_server, browser) -> None:
    ctx = browser.new_context(viewport={"width": 1500, "height": 1100})
    page = ctx.new_page()
    page.dialogs = []
    page.on("dialog", lambda d: (page.dialogs.append(d.message), d.dismiss()))
    try:
        page.goto(f"{labelled_server['base']}/explorer?trace={labelled_server['share']}&step=8",
                  wait_until="domcontentloaded")
        page.get_by_text("Outside judgments beside ours").wait_for(timeout=60_000)
        page.get_by_text("Outside judgments of this step").wait_for(timeout=30_000)
        warning = page.get_by_test_id("stAlertContentWarning").filter(has_text="outside judgment").inner_text()
        # ours and the label's, both on screen; the PRM agrees with us, the hostile judge does not
        assert "2 of 3 outside judgment(s) put the first mistake elsewhere than our replay (no mistake)" in warning
        assert "dyck_languages.jsonl says step 8" in warning and f"{EVIL} says step 4" in warning
        # the two tables (trace and step) are drawn on a canvas: their cells are checked by the AppTest
        page.locator("[data-testid='stDataFrame']:visible").nth(1).wait_for(timeout=30_000)
        assert _xss_fired(page) == []
    finally:
        ctx.close()
