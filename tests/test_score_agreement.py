"""`cli.py agreement` on imported outside judgments: per-step scores against our step verdicts at a
threshold (first-flag location, step-level precision and recall), and a judge's first mistake in
the label table beside the dataset's own labels, on SQLite and PostgreSQL."""

from __future__ import annotations

import json

import cli
from metrics.score_agreement import score_table
from db.engine import make_engine
from db.queries import steps_of
from tests.test_outside_labels import _dyck, _store
from tests.test_pages import app  # noqa: F401 - the AppTest fixture
from tests.test_steps_format import DYCK_ROW

N = len(DYCK_ROW["steps"])


def test_score_table_counts_first_flags_and_steps():
    rows = [("prm", "d", [0.9, 0.1, 0.9, 0.2], 1, {1}, 4),       # exact; flags 1 (ours) and 3 (not ours)
            ("prm", "d", [0.9, 0.9, 0.9, 0.9], 2, {2, 3}, 4),    # scorer flags none
            ("prm", "d", [0.4, 0.9, 0.9], 2, {2}, 4),            # we flag later; one step not compared
            ("prm", "d", [0.9, 0.9], None, set(), 2)]            # both none: exact
    (row,) = score_table(rows, 0.5)
    assert (row["exact"], row["later"], row["scorer_flags_none"], row["traces"]) == (2, 1, 1, 4)
    assert (row["steps"], row["flagged"], row["our_invalid"], row["length_mismatch"]) == (13, 3, 4, 1)
    assert row["precision"] == round(1 / 3, 3) and row["recall"] == 0.25 and row["location"] == 0.5
    (strict,) = score_table(rows, 0.95)  # every score is below: the scorer flags every step
    assert strict["flagged"] == 13 and strict["recall"] == 1.0


def test_agreement_reports_imported_scores_and_first_mistakes(db_url, tmp_path, capsys):
    pks = _store(db_url, [_dyck("d1"), _dyck("d2", mistake_index=None), _dyck("d3", mistake_index=5)])
    ours = sorted(s["idx"] for s in steps_of(make_engine(db_url), pks["d1"]) if s["status"] == "invalid")
    assert ours[0] == 3  # our first invalid step, as the dataset labels it
    at_three = [0.9] * N
    at_three[3] = 0.2
    lines = [{"id": "d1", "source": "toy-prm", "step_scores": at_three},            # flags our first: exact
             {"id": "d2", "source": "toy-prm", "step_scores": [0.9, 0.3] + [0.9] * (N - 2)},  # flags 1: we are later
             {"id": "d3", "source": "toy-prm", "step_scores": [0.8] * N},            # flags nothing
             {"id": "d1", "source": "gpt-judge", "first_mistake": 5}]               # we flag earlier
    path = tmp_path / "scores.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    assert cli.main(["labels", "import", str(path), "--db", db_url]) == 0
    capsys.readouterr()

    assert cli.main(["agreement", "--db", db_url, "--format", "json", "--scores"]) == 0
    (prm,) = json.loads(capsys.readouterr().out)
    assert (prm["source"], prm["domain"], prm["traces"], prm["threshold"]) == ("toy-prm", "dyck_languages", 3, 0.5)
    assert (prm["exact"], prm["later"], prm["scorer_flags_none"]) == (1, 1, 1)
    assert prm["flagged"] == 2 and prm["our_invalid"] == 3 * len(ours) and prm["precision"] == 0.5
    assert prm["recall"] == round(1 / (3 * len(ours)), 3)

    assert cli.main(["agreement", "--db", db_url, "--format", "json", "--threshold", "0.85", "--scores"]) == 0
    (loose,) = json.loads(capsys.readouterr().out)
    assert loose["threshold"] == 0.85 and loose["exact"] == 1 and loose["later"] == 2  # d3 now flags step 0
    assert loose["flagged"] == 2 + N

    assert cli.main(["agreement", "--db", db_url, "--format", "json"]) == 0
    labels = {r["source"]: r for r in json.loads(capsys.readouterr().out)}
    assert labels["gpt-judge"]["traces"] == 1 and labels["gpt-judge"]["earlier"] == 1
    dataset = next(r for name, r in labels.items() if name != "gpt-judge")
    assert dataset["traces"] == 3 and dataset["label_says_none"] == 1

    assert cli.main(["agreement", "--db", db_url]) == 0
    text = capsys.readouterr().out
    assert "gpt-judge" in text and "per-step scores against our step verdicts (a score below 0.5" in text
    assert "scorer_flags_none" in text and "toy-prm" in text


def test_the_corpus_page_shows_the_agreement_tables_of_the_cli(app, capsys):
    from tests.test_pages import _upload

    rows = [_dyck("c1"), _dyck("c2", mistake_index=None)]
    at = _upload(app, "".join(json.dumps(r) + "\n" for r in rows).encode(), "bbm.jsonl")
    assert not at.exception
    at = app("corpus").run()
    assert not at.exception and [d for d in at.dataframe if "processbench_f1" in d.value.columns]
    assert not [d for d in at.dataframe if "precision" in d.value.columns]  # no scores imported yet
    path = app.url.replace("sqlite:///", "") + ".scores.jsonl"
    with open(path, "w") as fh:
        fh.write(json.dumps({"id": "c1", "source": "toy-prm", "step_scores": [0.2] * N}) + "\n")
        fh.write(json.dumps({"id": "c2", "source": "judge", "first_mistake": 3}) + "\n")
    assert cli.main(["labels", "import", path, "--db", app.url]) == 0
    capsys.readouterr()

    at = app("corpus").run()  # a new session: the import shows without a new audit
    assert not at.exception
    labels = next(d.value for d in at.dataframe if "processbench_f1" in d.value.columns)
    scores = next(d.value for d in at.dataframe if "precision" in d.value.columns)
    assert cli.main(["agreement", "--db", app.url, "--format", "json"]) == 0
    from_cli = json.loads(capsys.readouterr().out)
    assert list(labels["source"]) == [r["source"] for r in from_cli] == ["bbm.jsonl", "judge"]
    assert list(labels["exact"]) == [r["exact"] for r in from_cli]
    assert list(labels["processbench_f1"].fillna(-1)) == [-1 if r["processbench_f1"] is None else r["processbench_f1"]
                                                          for r in from_cli]
    assert cli.main(["agreement", "--db", app.url, "--format", "json", "--scores"]) == 0
    (prm,) = json.loads(capsys.readouterr().out)
    assert scores.iloc[0]["source"] == "toy-prm" and scores.iloc[0]["recall"] == prm["recall"] == 1.0
    assert scores.iloc[0]["flagged"] == prm["flagged"] == N
