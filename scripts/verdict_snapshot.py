"""Snapshot the verdicts of every dev file, and diff two snapshots (for refactors: no behaviour change).

    .venv/bin/python -m scripts.verdict_snapshot snap /tmp/verdicts_before.jsonl
    .venv/bin/python -m scripts.verdict_snapshot snap /tmp/verdicts_after.jsonl
    .venv/bin/python -m scripts.verdict_snapshot diff /tmp/verdicts_before.jsonl /tmp/verdicts_after.jsonl

Each dev file (`../shared/data/dev/*.jsonl`, or `--data DIR`) goes through `cli.py audit` (the
same path as any CLI audit) into a fresh SQLite database. A snapshot line per record holds the
CLI's verdict line, and from the database every step (kind, span, parent, payload, links,
replay state) and every step verdict (status, rule, message, expected, found, consequence_of),
and the stored notes. Run-dependent fields are left out: the record's primary key, share id and
timestamps (`created_at`, `audited_at`). The audits run with PYTHONHASHSEED=0; verdicts do not
depend on it (the reference plan a planning verdict quotes is found in a fixed order, search.py),
and the fixed seed keeps any set order in the stored steps the same from snapshot to snapshot.
`diff` prints the first differences and exits 1 when the snapshots differ.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEV = REPO.parent / "shared" / "data" / "dev"


def _rows(db: Path) -> dict[int, dict]:
    con = sqlite3.connect(db)
    con.row_factory = sqlite3.Row
    out: dict[int, dict] = {}
    for r in con.execute("SELECT pk, line_no FROM record ORDER BY pk"):
        out[r["pk"]] = {"line": r["line_no"], "steps": [], "step_verdicts": [], "notes": None}
    for r in con.execute("SELECT record_pk, idx, kind, start, \"end\", parent, payload_json, links_json, state_json "
                         "FROM step ORDER BY record_pk, idx"):
        out[r["record_pk"]]["steps"].append(list(r)[1:])
    for r in con.execute("SELECT record_pk, step_idx, status, rule, message, expected_json, found_json, consequence_of "
                         "FROM step_verdict ORDER BY record_pk, step_idx, id"):
        out[r["record_pk"]]["step_verdicts"].append(list(r)[1:])
    for r in con.execute("SELECT record_pk, notes_json FROM trace_verdict"):
        out[r["record_pk"]]["notes"] = r["notes_json"]
    con.close()
    return out


def snapshot(data: Path, out_path: Path) -> int:
    n = 0
    with open(out_path, "w", encoding="utf-8") as out, tempfile.TemporaryDirectory() as tmp:
        for path in sorted(data.glob("*.jsonl")):
            db = Path(tmp) / f"{path.stem}.db"
            verdicts = Path(tmp) / f"{path.stem}.verdicts.jsonl"
            subprocess.run([sys.executable, str(REPO / "cli.py"), "audit", str(path), "--db", f"sqlite:///{db}",
                            "--out", str(verdicts)], check=True, cwd=REPO, stderr=subprocess.DEVNULL,
                           env={**os.environ, "PYTHONHASHSEED": "0"})
            by_line = {row["line"]: row for row in _rows(db).values()}
            for line_no, text in enumerate(verdicts.read_text(encoding="utf-8").splitlines(), start=1):
                stored = by_line.get(line_no, {})
                out.write(json.dumps({"file": path.name, "line": line_no, "verdict": json.loads(text),
                                      "steps": stored.get("steps"), "step_verdicts": stored.get("step_verdicts"),
                                      "notes": stored.get("notes")}, ensure_ascii=False, sort_keys=True) + "\n")
                n += 1
    return n


def diff(before: Path, after: Path, show: int = 10) -> int:
    a = before.read_text(encoding="utf-8").splitlines()
    b = after.read_text(encoding="utf-8").splitlines()
    differing = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
    if len(a) != len(b):
        print(f"line counts differ: {len(a)} vs {len(b)}")
    for i in differing[:show]:
        x, y = json.loads(a[i]), json.loads(b[i])
        keys = sorted(k for k in x if x[k] != y.get(k))
        print(f"{x['file']}:{x['line']}: differs in {', '.join(keys)}")
    same = len(a) == len(b) and not differing
    print(f"{len(a)} records before, {len(b)} after: {'identical' if same else f'{len(differing)} differ'}")
    return 0 if same else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    snap = sub.add_parser("snap")
    snap.add_argument("out", type=Path)
    snap.add_argument("--data", type=Path, default=DEV)
    d = sub.add_parser("diff")
    d.add_argument("before", type=Path)
    d.add_argument("after", type=Path)
    args = parser.parse_args(argv)
    if args.cmd == "snap":
        n = snapshot(args.data, args.out)
        print(f"{n} verdicts -> {args.out}")
        return 0
    return diff(args.before, args.after)


if __name__ == "__main__":
    sys.exit(main())
