"""Thinking-trace replay of the working tree against a checkout of the reference commit, in one run.

The reference is commit 602a8e7 (the claim reader before the reading layer replaced it), taken
out with `git archive` into a temporary directory under /tmp and removed afterwards (no worktree
is registered). Each side is audited in its own child process, with that tree as its working
directory and first on sys.path, the same interpreter (.venv) and PYTHONHASHSEED=0. A child loads
the DeepSeek-R1 thinking records (planbench_r1_thinking.jsonl and thinking_claims_dev_v2.jsonl,
deduplicated by id, the first row of an id kept), audits every record once untimed (the first
audit of a problem builds its caches), then times `audit_record(record_from_json(row))` over all
of them for a few passes and prints its figures as JSON. The children alternate (reference,
working tree, reference, working tree ...) so the machine's load falls on both alike.

Figures per side: MB of thinking text audited per second (the characters of every trace over the
wall time of a pass, min of the passes and median), the median of the per-trace times (each
trace's best pass), the peak RSS of the child (VmHWM), and the working tree's ratio to the
reference (new / reference: above 1 is faster for MB/s, slower or bigger for ms and MB). The
whole audit only calls `audit_record`, so it holds whatever reader the tree has.

The claim reading alone is timed when a tree has a reader to time, in a separate, instrumented
pass. The hooks tried are `validators.planning.claim_reader:ClaimReader.read` (the reference's)
and `validators.planning.reading:ClaimReader.read` (where the working tree has it), after any
named by BENCH_READING_HOOKS="module:qualname,..." or --reader-hook: every hook that exists in
the tree is wrapped (outermost calls counted) and the first one the audits call is the figure.
A tree with none is reported as such and only its whole audit is compared.

The environment reaches both children alike. The working tree's only claim reader is
validators/planning/reading.py (the reference's claim_reader.py is gone from it), so the
reference's default and the working tree's default are what is compared.

--quick audits every fourth record (10 of the 40), in 2 rounds of 1 pass per side (the reader pass
in the last): the two sides, each in its own child, cannot share a process, so the quick run is
smaller input, not fewer children; its figures are the noisier for the fewer traces.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

REPO = Path(__file__).resolve().parent.parent
DEV = REPO.parent / "shared" / "data" / "dev"
DATA = (DEV / "planbench_r1_thinking.jsonl", DEV / "thinking_claims_dev_v2.jsonl")
REFERENCE = "602a8e7346c6eebf4ec38b0a4623ab76e9feff77"
PYTHON = REPO / ".venv" / "bin" / "python"
if not PYTHON.exists():
    PYTHON = Path(sys.executable)
# the reference's reader, then the one the working tree is moving to (whichever is called is timed)
DEFAULT_HOOKS = ("validators.planning.claim_reader:ClaimReader.read", "validators.planning.reading:ClaimReader.read")
HOOKS_ENV = "BENCH_READING_HOOKS"
MARK = "BENCH_READING_JSON "  # the child's result line (anything else it prints is ignored)
CHILD_TIMEOUT = 900


# ---------------------------------------------------------------------------------------------
# The child: runs inside one tree, imports nothing from the benchmark's own tree.

def load_rows(paths: list[str] | tuple[Path, ...], limit: int | None = None, every: int = 1) -> list[dict[str, Any]]:
    """The rows of `paths`, deduplicated by id (the first row of an id kept), in file order."""
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    for path in paths:
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                if not line.strip():
                    continue
                obj = json.loads(line)
                rid = str(obj.get("id"))
                if rid in seen:
                    continue
                seen.add(rid)
                rows.append(obj)
    rows = rows[::every]
    return rows[:limit] if limit else rows


def _resolve(spec: str) -> tuple[Any, str, Any] | None:
    """(owner, attribute, raw attribute) of "module:Qual.name", or None when the tree has no such."""
    import importlib
    import inspect

    module_name, _, qual = spec.partition(":")
    try:
        owner: Any = importlib.import_module(module_name)
    except ImportError:
        return None
    parts = qual.split(".")
    for part in parts[:-1]:
        owner = getattr(owner, part, None)
        if owner is None:
            return None
    name = parts[-1]
    if isinstance(owner, type):  # the descriptor itself (a classmethod stays one), inherited or not
        try:
            raw = inspect.getattr_static(owner, name)
        except AttributeError:
            return None
    else:
        raw = getattr(owner, name, None)
    if raw is None or not (callable(raw) or isinstance(raw, (classmethod, staticmethod))):
        return None
    return owner, name, raw


class ReaderClock:
    """Wraps one reader callable: the seconds spent in its outermost calls (a call it makes to
    itself is counted once). `install` also rebinds module globals that imported a module-level
    function by name; `remove` puts everything back."""

    def __init__(self, spec: str, owner: Any, name: str, raw: Any) -> None:
        self.spec, self.owner, self.name, self.raw = spec, owner, name, raw
        self.seconds = 0.0
        self.calls = 0
        self._depth = 0
        self._rebound: list[tuple[Any, str, Any]] = []

    def _wrap(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        clock = self
        perf = time.perf_counter

        def timed(*args: Any, **kwargs: Any) -> Any:
            if clock._depth:
                return fn(*args, **kwargs)
            clock._depth += 1
            start = perf()
            try:
                return fn(*args, **kwargs)
            finally:
                clock.seconds += perf() - start
                clock.calls += 1
                clock._depth -= 1

        timed.__wrapped__ = fn  # type: ignore[attr-defined]
        return timed

    def install(self) -> None:
        raw = self.raw
        if isinstance(raw, (classmethod, staticmethod)):
            wrapped: Any = type(raw)(self._wrap(raw.__func__))
        else:
            wrapped = self._wrap(raw)
        self._rebound.append((self.owner, self.name, raw))
        setattr(self.owner, self.name, wrapped)
        if not isinstance(self.owner, type):  # a function: rebind `from module import name` too
            for module in list(sys.modules.values()):
                ns = getattr(module, "__dict__", None)
                if module is self.owner or not isinstance(ns, dict):
                    continue
                for key, value in list(ns.items()):
                    if value is raw:
                        self._rebound.append((module, key, raw))
                        setattr(module, key, wrapped)

    def remove(self) -> None:
        for owner, key, raw in reversed(self._rebound):
            setattr(owner, key, raw)
        self._rebound.clear()

    def reset(self) -> None:
        self.seconds, self.calls = 0.0, 0


def _rss_mb() -> float:
    """The child's own peak RSS: VmHWM of this process image (ru_maxrss would carry the parent's
    peak over fork and exec, so under bench/run.py both sides read the runner's memory)."""
    try:
        with open("/proc/self/status") as fh:
            return next(int(line.split()[1]) for line in fh if line.startswith("VmHWM")) / 1024
    except (OSError, StopIteration):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux


def measure(rows: list[dict[str, Any]], reps: int, reader_reps: int, hooks: list[str]) -> dict[str, Any]:
    """The figures of one child: imports `audit` and `core.record` from sys.path (the tree)."""
    t0 = time.perf_counter()
    import audit
    from core.record import record_from_json

    import_s = time.perf_counter() - t0
    rss_loaded = _rss_mb()
    chars = sum(len(r.get("trace") or "") for r in rows)

    # Warm-up: one untimed pass (the first audit of a problem builds its caches); also what the
    # audits found, so a side that reads nothing (a reader that raises) is seen, not just fast.
    claims = errors = 0
    gc.collect()
    start = time.perf_counter()
    for r in rows:
        result = audit.audit_record(record_from_json(r))
        notes = getattr(getattr(result, "replay", None), "notes", {}) or {}
        thinking = notes.get("thinking") if isinstance(notes, dict) else None
        if isinstance(thinking, dict):
            judged = thinking.get("claims")
            claims += judged if isinstance(judged, int) else 0
            errors += "claims_error" in thinking
    warm_s = time.perf_counter() - start

    passes: list[float] = []
    cpu: list[float] = []
    per_trace: list[list[float]] = [[] for _ in rows]
    perf = time.perf_counter
    for _ in range(reps):
        gc.collect()
        c0 = time.process_time()
        start = perf()
        for i, r in enumerate(rows):
            t = perf()
            audit.audit_record(record_from_json(r))
            per_trace[i].append(perf() - t)
        passes.append(perf() - start)
        cpu.append(time.process_time() - c0)

    reader: dict[str, Any] | None = None
    if reader_reps:
        clocks: list[ReaderClock] = []
        for spec in hooks:
            got = _resolve(spec)
            if got is not None and all(c.raw is not got[2] for c in clocks):
                clocks.append(ReaderClock(spec, *got))
        reader = {"tried": hooks, "resolved": [c.spec for c in clocks], "passes": []}
        if clocks:
            for clock in clocks:
                clock.install()
            try:
                for _ in range(reader_reps):
                    gc.collect()
                    for clock in clocks:
                        clock.reset()
                    start = perf()
                    for r in rows:
                        audit.audit_record(record_from_json(r))
                    audit_s = perf() - start
                    reader["passes"].append({"audit_s": audit_s, "hooks": {
                        c.spec: {"s": c.seconds, "calls": c.calls} for c in clocks}})
            finally:
                for clock in reversed(clocks):
                    clock.remove()

    return {
        "tree": os.getcwd(), "audit_file": os.path.abspath(audit.__file__), "python": sys.version.split()[0],
        "records": len(rows), "chars": chars, "import_s": import_s, "warm_s": warm_s,
        "passes_s": passes, "cpu_s": cpu, "per_trace_s": per_trace,
        "claims": claims, "claim_errors": errors, "reader": reader,
        "rss_loaded_mb": rss_loaded, "peak_rss_mb": _rss_mb(),
    }


def child_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench_reading.py --child")
    parser.add_argument("--child", action="store_true")
    parser.add_argument("--tree", required=True)
    parser.add_argument("--data", action="append", required=True)
    parser.add_argument("--reps", type=int, default=1)
    parser.add_argument("--reader-reps", type=int, default=0)
    parser.add_argument("--reader-hook", action="append", default=[])
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--every", type=int, default=1)
    args = parser.parse_args(argv)
    tree = str(Path(args.tree).resolve())
    here = str(Path(__file__).resolve().parent)
    sys.path[:] = [tree] + [p for p in sys.path if p not in (tree, here, "", str(REPO))]
    os.chdir(tree)
    rows = load_rows(args.data, args.limit, args.every)
    out = measure(rows, args.reps, args.reader_reps, args.reader_hook)
    if not out["audit_file"].startswith(tree + os.sep):
        raise SystemExit(f"audit was imported from {out['audit_file']}, not from {tree}")
    sys.stdout.write("\n" + MARK + json.dumps(out) + "\n")
    sys.stdout.flush()
    return 0


# ---------------------------------------------------------------------------------------------
# The parent.

class SideFailed(RuntimeError):
    pass


def run_child(tree: Path, *, reps: int = 1, reader_reps: int = 0, hooks: list[str] | tuple[str, ...] = DEFAULT_HOOKS,
              limit: int | None = None, every: int = 1, data: tuple[Path, ...] = DATA,
              timeout: float = CHILD_TIMEOUT) -> dict[str, Any]:
    """One child audit of `tree`; its figures, or SideFailed with the end of what it printed."""
    cmd = [str(PYTHON), "-P", str(Path(__file__).resolve()), "--child", "--tree", str(tree),
           "--reps", str(reps), "--reader-reps", str(reader_reps), "--every", str(every)]
    for path in data:
        cmd += ["--data", str(path)]
    for hook in hooks:
        cmd += ["--reader-hook", hook]
    if limit:
        cmd += ["--limit", str(limit)]
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(tree)}
    try:
        proc = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        raise SideFailed(f"child auditing {tree} did not finish in {timeout:.0f} s") from exc
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith(MARK)]
    if proc.returncode != 0 or not lines:
        tail = "\n".join((proc.stderr or proc.stdout).strip().splitlines()[-15:])
        raise SideFailed(f"child auditing {tree} exited {proc.returncode}:\n{tail}")
    return json.loads(lines[-1][len(MARK):])


def checkout_reference(dest: Path, commit: str | None = None) -> Path:
    """`git archive commit | tar -x -C dest`: the reference tree, no worktree registered."""
    commit = commit or REFERENCE
    archive = subprocess.run(["git", "-C", str(REPO), "archive", "--format=tar", commit],
                             capture_output=True, timeout=300)
    if archive.returncode != 0:
        raise SideFailed(f"git archive {commit[:7]} failed: {archive.stderr.decode(errors='replace').strip()}")
    tar = subprocess.run(["tar", "-x", "-C", str(dest)], input=archive.stdout, capture_output=True, timeout=300)
    if tar.returncode != 0:
        raise SideFailed(f"extracting {commit[:7]} failed: {tar.stderr.decode(errors='replace').strip()}")
    if not (dest / "audit.py").is_file():
        raise SideFailed(f"the checkout of {commit[:7]} has no audit.py")
    return dest


def _hooks(extra: list[str] | None = None) -> list[str]:
    from_env = [h.strip() for h in os.environ.get(HOOKS_ENV, "").split(",") if h.strip()]
    hooks = list(extra or []) + from_env + list(DEFAULT_HOOKS)
    return list(dict.fromkeys(hooks))


def summarise(children: list[dict[str, Any]]) -> dict[str, Any]:
    """One side's figures from its children's JSON."""
    first = children[0]
    for c in children[1:]:
        if (c["records"], c["chars"]) != (first["records"], first["chars"]):
            raise SideFailed("the children of one side audited different records")
    passes = [p for c in children for p in c["passes_s"]]
    cpu = [p for c in children for p in c["cpu_s"]]
    n = first["records"]
    per_trace = [min(t for c in children for t in c["per_trace_s"][i]) for i in range(n)]
    mb = first["chars"] / 2**20
    # the reader timed: the first hook (in the order tried) that the audits called
    reader_runs = [p for c in children if c.get("reader") for p in c["reader"]["passes"]]
    tried = next((c["reader"]["tried"] for c in children if c.get("reader")), [])
    resolved = next((c["reader"]["resolved"] for c in children if c.get("reader")), [])
    hook = next((h for h in tried if any(p["hooks"].get(h, {}).get("calls") for p in reader_runs)), None)
    best_reader = min(reader_runs, key=lambda p: p["hooks"][hook]["s"]) if hook else None
    return {
        "records": n, "mb": mb, "passes": len(passes),
        "best_s": min(passes), "median_s": statistics.median(passes), "best_cpu_s": min(cpu),
        "mb_s_best": mb / min(passes), "mb_s_median": mb / statistics.median(passes), "mb_s_cpu": mb / min(cpu),
        "trace_median_ms": statistics.median(per_trace) * 1000,
        "peak_rss_mb": max(c["peak_rss_mb"] for c in children),
        "rss_loaded_mb": max(c["rss_loaded_mb"] for c in children),
        "warm_s": statistics.median(c["warm_s"] for c in children),
        "claims": first["claims"], "claim_errors": first["claim_errors"],
        "hook": hook, "hooks_resolved": resolved, "reader_passes": len(reader_runs),
        "reader_s": best_reader["hooks"][hook]["s"] if best_reader else None,
        "reader_calls": best_reader["hooks"][hook]["calls"] if best_reader else None,
        "reader_share": best_reader["hooks"][hook]["s"] / best_reader["audit_s"] if best_reader else None,
    }


def compare(quick: bool, hooks: list[str] | None = None, log: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Both sides, interleaved; {"reference": summary, "current": summary}."""
    log = log or (lambda msg: print(msg, file=sys.stderr, flush=True))
    rounds, reps = (2, 1) if quick else (3, 2)
    every = 4 if quick else 1
    hooks = _hooks(hooks)
    runs: dict[str, list[dict[str, Any]]] = {"reference": [], "current": []}
    with tempfile.TemporaryDirectory(prefix="stepscope-bench-ref-", dir="/tmp") as tmp:
        try:
            ref_tree = checkout_reference(Path(tmp))
        except (SideFailed, OSError, subprocess.SubprocessError) as exc:
            raise RuntimeError(f"REFERENCE CHECKOUT FAILED ({REFERENCE[:7]}): {exc}") from exc
        for k in range(rounds):
            # the reader pass: every round in full mode, the last one in quick
            reader_reps = 1 if (not quick or k == rounds - 1) else 0
            for side, tree in (("reference", ref_tree), ("current", REPO)):
                t0 = time.perf_counter()
                try:
                    out = run_child(tree, reps=reps, reader_reps=reader_reps, hooks=hooks, every=every)
                except SideFailed as exc:
                    what = f"REFERENCE {REFERENCE[:7]} FAILED" if side == "reference" else "CURRENT TREE FAILED"
                    raise RuntimeError(f"{what} in round {k + 1}: {exc}") from exc
                runs[side].append(out)
                log(f"  round {k + 1}/{rounds} {side:<9} {out['records']} traces, passes "
                    + ", ".join(f"{p:.2f}" for p in out["passes_s"]) + f" s ({time.perf_counter() - t0:.1f} s in all)")
    ref, cur = summarise(runs["reference"]), summarise(runs["current"])
    if (ref["records"], ref["mb"]) != (cur["records"], cur["mb"]):
        raise RuntimeError("the two sides audited different records")
    return {"reference": ref, "current": cur}


def rows_of(result: dict[str, Any]) -> list[dict]:
    from bench._common import row

    ref, cur = result["reference"], result["current"]
    against = f"reference {REFERENCE[:7]}, same run, interleaved"
    label = f"{cur['records']} R1 thinking traces, {cur['mb']:.2f} MB"
    out: list[dict] = []
    for side, s in (("reference", ref), ("current", cur)):
        name = f"reference {REFERENCE[:7]}" if side == "reference" else "working tree"
        vs = (lambda a, b: (against, round(a / b, 3))) if side == "current" else (lambda a, b: ("", None))
        out.append(row(f"{name}: whole audit ({label}), best of {s['passes']}", round(s["mb_s_best"], 3), "MB/s",
                       *vs(s["mb_s_best"], ref["mb_s_best"])))
        out.append(row(f"{name}: whole audit, median of {s['passes']}", round(s["mb_s_median"], 3), "MB/s",
                       *vs(s["mb_s_median"], ref["mb_s_median"])))
        out.append(row(f"{name}: whole audit, by CPU time, best", round(s["mb_s_cpu"], 3), "MB/s",
                       *vs(s["mb_s_cpu"], ref["mb_s_cpu"])))
        out.append(row(f"{name}: per-trace median (each trace's best)", round(s["trace_median_ms"], 2), "ms",
                       *vs(s["trace_median_ms"], ref["trace_median_ms"])))
        out.append(row(f"{name}: peak RSS of the child", round(s["peak_rss_mb"], 1), "MB",
                       *vs(s["peak_rss_mb"], ref["peak_rss_mb"])))
        if s["reader_s"] is not None:
            both = ref["reader_s"] is not None and side == "current"
            module, _, qual = s["hook"].partition(":")
            out.append(row(f"{name}: claim reading alone ({module.rsplit('.', 1)[-1]}.{qual}), best of {s['reader_passes']}",
                           round(s["reader_s"] * 1000, 1), "ms",
                           *(vs(s["reader_s"], ref["reader_s"]) if both else ("", None))))
            out.append(row(f"{name}: claim reading share of the audit", round(s["reader_share"] * 100, 1), "%"))
    return out


def notes_of(result: dict[str, Any]) -> list[str]:
    ref, cur = result["reference"], result["current"]
    notes = []
    for side, s in (("reference", ref), ("working tree", cur)):
        if s["hook"] is None:
            found = f"found {', '.join(s['hooks_resolved'])} but the audits never called it" if s["hooks_resolved"] \
                else f"none of {', '.join(_hooks())} exists"
            notes.append(f"{side}: no claim reader timed alone ({found}); only the whole audit is compared "
                         f"(name the reader with {HOOKS_ENV}=module:qualname)")
        else:
            notes.append(f"{side}: claim reading timed at {s['hook']} ({s['reader_calls']} calls a pass)")
        if s["claim_errors"]:
            notes.append(f"{side}: the claim reading raised on {s['claim_errors']} of {s['records']} traces")
    if ref["hook"] and cur["hook"] and ref["hook"] != cur["hook"]:
        notes.append(f"claim reading compares {cur['hook']} (working tree) with {ref['hook']} (reference)")
    notes.append(f"claims judged in the warm-up pass: reference {ref['claims']}, working tree {cur['claims']}")
    return notes


def run(quick: bool) -> list[dict]:
    result = compare(quick)
    for note in notes_of(result):
        print(f"note: {note}", flush=True)
    return rows_of(result)


if __name__ == "__main__":
    if "--child" in sys.argv[1:]:
        sys.exit(child_main(sys.argv[1:]))
    sys.path.insert(0, str(REPO))
    from bench._common import print_table

    cli = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    cli.add_argument("--quick", action="store_true")
    cli.add_argument("--reader-hook", action="append", default=[],
                     help="module:qualname of a reader to time alone, tried before the defaults (repeatable)")
    cli.add_argument("--json", action="store_true", help="also print the summaries as JSON")
    opts = cli.parse_args()
    res = compare(opts.quick, opts.reader_hook)
    for note in notes_of(res):
        print(f"note: {note}")
    print_table(rows_of(res))
    if opts.json:
        print(json.dumps(res, indent=1))
