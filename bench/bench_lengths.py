"""Length-generalisation domains (`last_letter`, `multiplication`): audit throughput by CPU time,
and the checkers' precision and recall on injected errors.

Inputs: SYNTHETIC traces of lengths 2..12 for two made-up models (tests/lengths_fixtures.py),
each with at most one injected, documented error. Compared against the `freeform` audit of the
very same records with the same reference (the string and arithmetic claim checks the domains
build on, without their task checks), in the same process: the ratio is what the task checks
cost. Precision and recall count root errors (invalid steps that are no `consequence_of` another)
against the injected steps.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import print_table, row  # noqa: E402
from audit import audit_record  # noqa: E402
from records_io.intake import object_to_record  # noqa: E402
from tests.lengths_fixtures import length_records, root_scores  # noqa: E402


def _cpu(records: list) -> tuple[float, list]:
    start = time.process_time()
    verdicts = [audit_record(r).verdict for r in records]
    return time.process_time() - start, verdicts


def run(quick: bool) -> list[dict]:
    per_length = 10 if quick else 50
    rows = []
    for domain in ("last_letter", "multiplication"):
        raw = length_records(domain, per_length=per_length, seed=1)
        records = [object_to_record(r) for r in raw]
        as_freeform = [object_to_record({**r, "domain": "freeform",
                                         "problem": {"reference_answer": r["problem"]["reference_answer"]}})
                       for r in raw]
        _cpu(records[:20])  # warm caches and imports
        ref_s, _ = _cpu(as_freeform)
        own_s, verdicts = _cpu(records)
        injected, flagged, hits = root_scores(raw, verdicts)
        size = sum(len(r.trace) for r in records) / 1e6
        rows.append(row(f"{domain}: audit, {len(records)} traces", len(records) / own_s, "traces/s",
                        "freeform audit of the same records (CPU time)", own_s / ref_s))
        rows.append(row(f"{domain}: audit throughput", size / own_s, "MB/s"))
        rows.append(row(f"{domain}: precision on {flagged} root flags", 100 * hits / max(flagged, 1), "%"))
        rows.append(row(f"{domain}: recall on {injected} injected errors", 100 * hits / max(injected, 1), "%"))
    return rows


if __name__ == "__main__":
    print_table(run("--quick" in sys.argv))
