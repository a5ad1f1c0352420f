"""`cli.py summary`: its figures are the aggregates of the per-record verdicts, and on the dev
PlanBench files its answer-correct rates differ from PlanBench's published ones only in cells
holding a documented disagreement (tests/test_answer_reading.py, DISAGREEMENTS)."""

from __future__ import annotations

import io
import json
import statistics
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from records_io.intake import iter_jsonl
from db.engine import make_engine
from db.summary import summary
from pipeline import audit_units
from tests.conftest import REPO, dev_path, load_dev
from tests.test_answer_reading import DISAGREEMENTS

PLANBENCH = ("planbench_plans.jsonl", "planbench_plans_more.jsonl", "planbench_r1_thinking.jsonl")
DEV = (*PLANBENCH, "countdown_sos.jsonl", "maze_beyond_semantics.jsonl")


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "cli.py", *args], cwd=REPO, capture_output=True, text=True, timeout=900)


@pytest.fixture(scope="module")
def audited(tmp_path_factory) -> dict:
    """Every dev file audited by `cli.py audit` into one SQLite file, with its verdict lines."""
    tmp = tmp_path_factory.mktemp("summary")
    corpus = tmp / "dev.jsonl"
    rows = []
    with open(corpus, "w", encoding="utf-8") as out:
        for name in DEV:
            text = dev_path(name).read_text(encoding="utf-8")
            out.write(text if text.endswith("\n") else text + "\n")
            rows += [json.loads(line) for line in text.splitlines() if line.strip()]
    url = f"sqlite:///{tmp / 'dev.db'}"
    done = _cli("audit", str(corpus), "--db", url, "--out", str(tmp / "verdicts.jsonl"))
    assert done.returncode == 0, done.stderr
    verdicts = [json.loads(line) for line in (tmp / "verdicts.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(verdicts) == len(rows)
    return {"url": url, "rows": rows, "verdicts": verdicts}


def _direct(rows: list[dict], verdicts: list[dict], by: tuple[str, ...]) -> dict[tuple, dict]:
    """The same figures aggregated straight from the verdicts, one record at a time."""
    groups: dict[tuple, list[tuple[dict, dict]]] = defaultdict(list)
    for row, v in zip(rows, verdicts):
        fields = {"model": row.get("model") or "(unknown)", "domain": (row.get("domain") or "freeform").lower()}
        groups[tuple(fields[k] for k in by)].append((row, v))
    out = {}
    for key, members in groups.items():
        answers = Counter(v["answer_correct"] for _, v in members)
        traces = Counter(v["trace_valid"] for _, v in members)
        checks = Counter(v["trace_check"] for _, v in members)
        firsts = [v["first_invalid_step"] for _, v in members if v["first_invalid_step"] is not None]
        gaps = Counter(kind for _, v in members for kind in {g["kind"] for g in v["gaps"]})
        n = len(members)
        checked = traces[True] + traces[False]
        out[key] = {
            "records": n, "answer_correct": answers[True], "answer_wrong": answers[False],
            "answer_unknown": answers[None], "answer_correct_rate": answers[True] / n, "unknown_rate": answers[None] / n,
            "trace_valid": traces[True], "trace_invalid": traces[False],
            "trace_no_error_found": checks["no_error_found"], "trace_not_checked": checks["not_checked"],
            "trace_valid_rate": traces[True] / checked if checked else None,
            "first_invalid_median": float(statistics.median(firsts)) if firsts else None, "gaps": dict(gaps),
        }
    return out


def _same(got: dict, want: dict, key: tuple) -> None:
    assert got.keys() == want.keys(), key
    for name, value in want.items():
        if isinstance(value, float):
            assert got[name] == pytest.approx(value, abs=1e-12), (key, name)
        else:
            assert got[name] == value, (key, name)


@pytest.mark.parametrize("by", [("model", "domain"), ("domain",), ()])
def test_cli_summary_equals_the_aggregates_of_the_per_record_verdicts(audited, by) -> None:
    done = _cli("summary", "--db", audited["url"], "--by", ",".join(by), "--format", "json")
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    names = by or ("scope",)
    table = {tuple(r[k] for k in names): {k: v for k, v in r.items() if k not in names} for r in got}
    direct = _direct(audited["rows"], audited["verdicts"], by)
    if not by:
        direct = {("all",): direct[()]}
    assert table.keys() == direct.keys()
    for key, figures in direct.items():
        _same(table[key], figures, key)


def test_cli_summary_table_and_csv_and_a_clear_message_for_a_bad_key(audited) -> None:
    table = _cli("summary", "--db", audited["url"])
    assert table.returncode == 0 and table.stdout.splitlines()[0].split()[:3] == ["model", "domain", "records"]
    csv_out = _cli("summary", "--db", audited["url"], "--format", "csv", "--by", "domain")
    header = csv_out.stdout.splitlines()[0].split(",")
    assert header[:2] == ["domain", "records"] and "gap right_answer_invalid_trace" in header
    bad = _cli("summary", "--db", audited["url"], "--by", "colour")
    assert bad.returncode == 2 and "cannot group by colour" in bad.stderr and not bad.stdout
    sel = _cli("summary", "--db", audited["url"], "--selection", "--format", "json")
    rows = json.loads(sel.stdout)
    assert rows and all(r["verified@n"] >= r["pass@1"] - 1e-9 for r in rows)


def test_planbench_cells_differ_from_the_published_accuracy_only_by_documented_disagreements(audited) -> None:
    """Every (model, domain) cell of the dev PlanBench files where our answer-correct count differs
    from PlanBench's published verdicts, with the cause of each differing row."""
    ours = {(r["model"], r["domain"]): r for r in summary(make_engine(audited["url"]))}
    published: Counter = Counter()
    labelled: Counter = Counter()
    rows_by_cell: dict[tuple, list[dict]] = defaultdict(list)
    for name in PLANBENCH:
        for row in load_dev(name):
            cell = (row["model"] or "(unknown)", row["domain"])
            rows_by_cell[cell].append(row)
            if row["expected"].get("answer_correct") is not None:
                labelled[cell] += 1
                published[cell] += row["expected"]["answer_correct"] is True
    assert all(labelled[c] == len(rows_by_cell[c]) for c in rows_by_cell)  # every dev row carries a label
    report, unexplained = [], []
    for cell, rows in sorted(rows_by_cell.items()):
        differ = [r for r in rows if r["id"] in DISAGREEMENTS]
        # each documented row moves our count by one, in the direction of our verdict
        shift = sum(1 if not r["expected"]["answer_correct"] else -1 for r in differ)
        ours_correct = ours[cell]["answer_correct"]
        if ours_correct != published[cell] + shift:
            unexplained.append((cell, ours_correct, published[cell], shift))
        if ours_correct != published[cell]:
            causes = Counter(DISAGREEMENTS[r["id"]][1] for r in differ)
            report.append(f"{cell[0]:<28} {cell[1]:<20} ours {ours_correct}/{len(rows)} "
                          f"({ours_correct / len(rows):.1%}) published {published[cell]}/{len(rows)} "
                          f"({published[cell] / len(rows):.1%}): " + ", ".join(f"{k} x{v}" for k, v in sorted(causes.items())))
    print("\n" + "\n".join(report))
    assert unexplained == []
    cells_with_disagreements = {c for c, rows in rows_by_cell.items() if any(r["id"] in DISAGREEMENTS for r in rows)}
    assert len(report) <= len(cells_with_disagreements)
    assert len(ours) >= len(rows_by_cell)


def test_summary_on_both_databases_matches_the_verdicts(db_url) -> None:
    rows = load_dev("planbench_r1_thinking.jsonl")[:12] + load_dev("countdown_sos.jsonl")[:12]
    data = b"".join(json.dumps(r).encode() + b"\n" for r in rows)
    outcomes = list(audit_units(iter_jsonl(io.BufferedReader(io.BytesIO(data))), make_engine(db_url)))
    verdicts = [o.verdict for o in outcomes]
    for by in (("model", "domain"), ()):
        got = summary(make_engine(db_url), by)
        names = by or ("scope",)
        table = {tuple(r[k] for k in names): {k: v for k, v in r.items() if k not in names} for r in got}
        direct = _direct(rows, verdicts, by)
        if not by:
            direct = {("all",): direct[()]}
        assert table.keys() == direct.keys()
        for key, figures in direct.items():
            _same(table[key], figures, key)


def test_summary_of_an_empty_database_is_empty(tmp_path: Path) -> None:
    assert summary(make_engine(f"sqlite:///{tmp_path / 'e.db'}")) == []
