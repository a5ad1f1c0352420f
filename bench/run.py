"""One entry point for every benchmark: `python bench/run.py [--quick] [--only NAME]`.

Each bench/bench_*.py exposes run(quick) -> rows; inputs are generated with fixed seeds and
every figure names what it is compared against in the same run."""

from __future__ import annotations

import argparse
import importlib
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import print_table  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true",
                        help="smaller inputs, every headline figure (under 2 minutes in all on 2 cores)")
    parser.add_argument("--only", action="append", default=[], help="run only bench_<NAME> (repeatable)")
    args = parser.parse_args()
    names = sorted(p.stem for p in Path(__file__).parent.glob("bench_*.py"))
    if args.only:
        names = [n for n in names if n.removeprefix("bench_") in args.only]
    failed = 0
    started = time.perf_counter()
    for name in names:
        print(f"\n== {name.removeprefix('bench_')} ==", flush=True)
        t0 = time.perf_counter()
        try:
            rows = importlib.import_module(f"bench.{name}").run(args.quick)
            print_table(rows)
        except Exception:  # noqa: BLE001 - report and go on with the other benchmarks
            failed += 1
            traceback.print_exc()
        print(f"({time.perf_counter() - t0:.1f} s)", flush=True)
    print(f"\nall benchmarks: {time.perf_counter() - started:.1f} s" + (f", {failed} failed" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
