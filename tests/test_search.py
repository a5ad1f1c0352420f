"""Issue 37 item 4: phrase search by default, the syntax shown, record ids findable, a snippet
per hit, and `*` refused instead of matching everything."""

from __future__ import annotations

import io
import json

from records_io.intake import iter_jsonl
from db.engine import make_engine
from db.queries import CorpusFilter, count_traces, first_hits, list_traces, search_steps
from db.search import SYNTAX, parse_query
from pipeline import audit_units
from tests.test_pages import app  # noqa: F401 - the AppTest factory fixture

RECORDS = [
    {"id": "phrase-here", "domain": "freeform", "trace": "First, 2 + 3 = 5.\n\nThen 2+2=5, which is wrong.",
     "answer": "5"},
    {"id": "numbers-only", "domain": "freeform", "trace": "We have 2 apples and 2 pears.\n\nSo 5 is the answer.",
     "answer": "5"},
    {"id": "planets", "domain": "freeform", "trace": "Planet b is far.\n\nThe planet is b-shaped.", "answer": "b"},
]


def _store(url: str) -> None:
    data = "".join(json.dumps(r) + "\n" for r in RECORDS).encode()
    list(audit_units(iter_jsonl(io.BufferedReader(io.BytesIO(data))), make_engine(url), source="s.jsonl"))


def _ids(engine, q: str) -> list[str]:
    return sorted(r["record_id"] for r in list_traces(engine, CorpusFilter(q=q)))


def test_the_syntax() -> None:
    assert parse_query("2+2=5").phrases == ("2+2=5",)
    assert parse_query('"Planet b" "far"').phrases == ("Planet b", "far")
    assert parse_query("id:abc").record_id == "abc"
    for bad in ("*", "+", '"*"', "id:"):
        assert parse_query(bad).error, bad
    assert parse_query("  ").empty


def test_phrases_ids_snippets_and_no_silent_match_all(db_url) -> None:
    _store(db_url)
    engine = make_engine(db_url)
    assert _ids(engine, "2+2=5") == ["phrase-here"]
    assert _ids(engine, "Planet b") == ["planets"]
    hits = search_steps(engine, "Planet b")
    assert [h["idx"] for h in hits] == [0]  # "The planet is b-shaped" holds the words, not the phrase
    assert _ids(engine, '"planet" "far"') == ["planets"]
    assert _ids(engine, "numbers-only") == ["numbers-only"] and _ids(engine, "id:planets") == ["planets"]
    assert _ids(engine, "*") == [] and count_traces(engine, CorpusFilter(q="*")) == 0
    pk = next(r["pk"] for r in list_traces(engine, CorpusFilter(q="2+2=5")))
    (hit,) = first_hits(engine, [pk], "2+2=5").values()
    assert hit["step"] == 1 and "2+2=5" in hit["snippet"]


def test_the_corpus_shows_the_syntax_snippets_and_refuses_a_star(app) -> None:  # noqa: F811
    _store(app.url)
    at = app("corpus", q="2+2=5").run()
    assert not at.exception
    assert any(SYNTAX in c.value for c in at.caption)
    table = next(d.value for d in at.dataframe if "record_id" in d.value.columns)
    assert list(table["record_id"]) == ["phrase-here"] and "2+2=5" in table["match"].iloc[0]
    star = app("corpus", q="*").run()
    assert not star.exception
    assert any("no letter or digit" in w.value for w in star.warning)
    assert any("No stored trace matches" in i.value for i in star.info)
