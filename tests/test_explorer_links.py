"""Issue 37: the explorer's "consequence of step N" opens that step, and a gap's step list says
how many steps it leaves out."""

from __future__ import annotations

import json
from urllib.parse import parse_qs

from db.engine import make_engine
from db.queries import recent_traces
from tests.test_pages import _upload, app  # noqa: F401 - the AppTest fixture

CONSEQUENCE = {"id": "ll", "domain": "last_letter", "problem": {"words": ["Elon", "Musk"]}, "answer": "ns",
               "trace": 'The last letter of "Elon" is "n".\n\nThe last letter of "Musk" is "s".\n\n'
                        'Concatenating "n" and "s" gives "ns".\n\nSo the answer is "ns".'}
MANY_WRONG = {"id": "many", "domain": "freeform", "problem": {"reference_answer": "2"}, "answer": "2",
              "trace": "\n\n".join(f"{i} + 1 = {i + 2}." for i in range(60))}


def _share(app) -> str:  # noqa: F811
    return recent_traces(make_engine(app.url))[0]["share_id"]


def test_consequence_of_a_step_links_to_that_step(app):  # noqa: F811
    _upload(app, json.dumps(CONSEQUENCE).encode() + b"\n")
    share = _share(app)
    for mode in ({}, {"mode": "review"}):
        at = app("explorer", trace=share, step="2", **mode).run()
        assert not at.exception
        links = [pl for pl in at.page_link if pl.value == "consequence of step 1"]
        assert len(links) == 1
        assert parse_qs(links[0].proto.query_string) == {"trace": [share], "step": ["1"],
                                                         **({"mode": ["review"]} if mode else {})}
        assert links[0].proto.page.strip("/").endswith("explorer")


def test_gap_pills_say_how_many_steps_they_leave_out(app):  # noqa: F811
    _upload(app, json.dumps(MANY_WRONG).encode() + b"\n")
    at = app("explorer", trace=_share(app)).run()
    assert not at.exception
    assert any(c.value.startswith("and 10 more invalid step(s), not listed") for c in at.caption)
