"""Our verdicts against BIG-Bench Mistake's human labels (Tyen et al. 2024), per task and half.

Each task file is read as a user would upload it (the intake's steps-row converter, so the
task is inferred from the input, or taken from the file name with --by-name) and audited with
`audit_record`. Per task:

* location: the verdict's first invalid step equals `mistake_index`, or there is none where it
  is null (the paper's "mistake location" accuracy over all traces);
* flags: our first invalid step as the one step we flag per trace; precision = flags at the
  labelled step / traces flagged, recall = the same / traces with a labelled mistake, and F1;
* ProcessBench's F1: the harmonic mean of the location accuracy on traces with a mistake and on
  traces without one;
* answer: our `answer_correct` equals the dataset's exact-match label (`answer == target`);
* contradicted: traces labelled "no mistake" whose answer is not the target. The paper's labels
  are of the first logical mistake (Tyen et al. 2024, section 2.1), and in these five tasks a
  trace without one ends at the target, so such a label contradicts the dataset's own exact-match
  label. `*_consistent` are the figures without those traces, reported beside the raw ones, never
  instead of them; the criterion reads the dataset alone, never our verdicts.

Only the files of tasks that have a domain are scored.

The rows of a file are split into two halves by a hash of their input (`half_of`), fixed by the
data alone: rules are developed on half A and half B is reported beside it, untouched.

    .venv/bin/python bench/step_labels_score.py [DIR] [--half A|B] [--show N] [--task NAME]
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

try:
    from bench import _common  # noqa: F401 - puts the repo on sys.path
except ImportError:  # run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from bench import _common  # noqa: F401

from audit import audit_record  # noqa: E402
from metrics.agreement import harmonic_mean  # noqa: E402
from records_io.intake import iter_jsonl  # noqa: E402
from validators.registry import get_domain  # noqa: E402
from validators.step_rows import StepRowsConverter  # noqa: E402

DEFAULT = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "dev" / "bigbench_mistake"


def half_of(text: str) -> str:
    """"A" or "B", from the first byte of the input's SHA-256."""
    return "A" if hashlib.sha256(text.encode("utf-8")).digest()[0] % 2 == 0 else "B"


@dataclass
class Score:
    n: int = 0
    located: int = 0
    with_mistake: int = 0
    located_with: int = 0
    without: int = 0
    located_without: int = 0
    flagged: int = 0
    flagged_right: int = 0
    answers: int = 0
    answers_right: int = 0
    contradicted: int = 0
    located_contradicted: int = 0
    misses: list[dict[str, Any]] = field(default_factory=list)

    def add(self, row: dict[str, Any], verdict: dict[str, Any]) -> None:
        label = row.get("mistake_index")
        ours = verdict.get("first_invalid_step")
        self.n += 1
        hit = ours == label
        self.located += hit
        if label is None:
            self.without += 1
            self.located_without += hit
            if "target" in row and row.get("answer", "").strip() != row["target"].strip():
                self.contradicted += 1
                self.located_contradicted += hit
        else:
            self.with_mistake += 1
            self.located_with += hit
        if ours is not None:
            self.flagged += 1
            self.flagged_right += hit
        if "target" in row:
            self.answers += 1
            self.answers_right += verdict.get("answer_correct") == (row.get("answer", "").strip() == row["target"].strip())
        if not hit:
            self.misses.append({"label": label, "ours": ours, "input": row.get("input", "")[:160],
                                "why": next((s["message"] for s in verdict.get("invalid_steps", [])
                                             if s["step"] == ours), verdict.get("answer_error")),
                                "steps": row.get("steps", [])})

    def figures(self) -> dict[str, float | int | None]:
        def rate(a: int, b: int) -> float | None:
            return round(a / b, 3) if b else None

        precision, recall = rate(self.flagged_right, self.flagged), rate(self.flagged_right, self.with_mistake)
        f1 = rate(2 * self.flagged_right, self.flagged + self.with_mistake)
        acc_err, acc_ok = rate(self.located_with, self.with_mistake), rate(self.located_without, self.without)
        pb = harmonic_mean(acc_err, acc_ok)
        pb_f1 = None if pb is None else round(pb, 3)
        acc_ok_c = rate(self.located_without - self.located_contradicted, self.without - self.contradicted)
        pb_c = harmonic_mean(acc_err, acc_ok_c)
        return {"n": self.n, "location": rate(self.located, self.n), "precision": precision, "recall": recall,
                "f1": f1, "acc_mistake": acc_err, "acc_no_mistake": acc_ok, "processbench_f1": pb_f1,
                "answer": rate(self.answers_right, self.answers), "contradicted": self.contradicted,
                "acc_no_mistake_consistent": acc_ok_c,
                "processbench_f1_consistent": None if pb_c is None else round(pb_c, 3)}


def score_file(path: Path, by_name: bool = False) -> dict[str, Score]:
    """Scores of one task file, per half."""
    convert = StepRowsConverter(path.stem if by_name else None)
    scores = {"A": Score(), "B": Score()}
    data = path.read_bytes()
    rows = [json.loads(line) for line in data.splitlines() if line.strip()]
    for row, unit in zip(rows, iter_jsonl(io.BufferedReader(io.BytesIO(data)), convert=convert)):
        if unit.record is None:
            verdict: dict[str, Any] = {"first_invalid_step": None, "answer_correct": None,
                                       "answer_error": unit.error}
        else:
            verdict = audit_record(unit.record).verdict.to_json()
        scores[half_of(row.get("input", ""))].add(row, verdict)
    return scores


COLUMNS = ("n", "location", "precision", "recall", "f1", "acc_mistake", "acc_no_mistake", "processbench_f1", "answer",
           "contradicted", "processbench_f1_consistent")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir", nargs="?", default=str(DEFAULT))
    ap.add_argument("--half", choices=["A", "B"], help="only this half")
    ap.add_argument("--task", help="only this task (file stem)")
    ap.add_argument("--by-name", action="store_true", help="take the task from the file name, not the input")
    ap.add_argument("--show", type=int, default=0, help="print up to N disagreements per task and half")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    out = []
    for path in sorted(Path(args.dir).glob("*.jsonl")):
        if (args.task and path.stem != args.task) or get_domain(path.stem) is None:
            continue
        for half, score in score_file(path, args.by_name).items():
            if args.half and half != args.half:
                continue
            out.append({"task": path.stem, "half": half, **score.figures()})
            for miss in score.misses[:args.show]:
                print(json.dumps(miss, ensure_ascii=False)[:1500], file=sys.stderr)
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"{'task':28} half " + " ".join(f"{c:>9}" for c in COLUMNS))
    for row in out:
        cells = " ".join(f"{'-' if row[c] is None else row[c]:>9}" for c in COLUMNS)
        print(f"{row['task']:28} {row['half']:>4} {cells}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
