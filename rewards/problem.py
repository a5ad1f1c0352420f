"""From what a trainer hands over (a `data_source` string, a `ground_truth` of any shape) to a
Stepscope domain and a record-format problem object (record-format.md section 1).

Trainers pass problems as they come out of their datasets: verl reads parquet, so lists arrive
as numpy arrays and scalars as numpy scalars; some datasets store the problem as a JSON string;
TinyZero's Countdown data names the numbers `nums`. Everything is turned into plain JSON values
first, without importing numpy (anything with `tolist()`/`item()` is converted through them).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Mapping

from functools import lru_cache

from validators.registry import list_domains

PLANNING = ("blocksworld", "mystery_blocksworld", "logistics", "pddl")
# Names that data sources use for a domain, longest first so "mystery_blocksworld" is not
# read as "blocksworld". Matched as substrings, as verl's own dispatch does ("countdown" in
# data_source, verl/utils/reward_score/__init__.py).
_OTHER_NAMES = (("mystery", "mystery_blocksworld"), ("blocks_world", "blocksworld"),
                ("arithmetic", "freeform"), ("gsm8k", "freeform"), ("tower_of_hanoi", "hanoi"))


@lru_cache(maxsize=1)
def known_domains() -> tuple[str, ...]:
    """The registered domains (validators/registry.py: the one list of domains)."""
    return tuple(sorted(spec.name for spec in list_domains()))


@lru_cache(maxsize=1)
def _aliases() -> tuple[tuple[str, str], ...]:
    return tuple(sorted([(d, d) for d in known_domains()] + list(_OTHER_NAMES), key=lambda pair: -len(pair[0])))
_MAX_PROBLEM_JSON = 5_000_000


@dataclass(frozen=True)
class ResolvedProblem:
    domain: str | None
    problem: dict[str, Any]
    error: str | None = None


def plain(value: Any, depth: int = 0) -> Any:
    """JSON-like Python values: numpy arrays/scalars, tuples and mappings converted."""
    if depth > 50:
        return None
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if isinstance(value, Mapping):
        return {str(k): plain(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v, depth + 1) for v in value]
    for name in ("tolist", "item"):
        method = getattr(value, name, None)
        if callable(method):
            try:
                return plain(method(), depth + 1)
            except (TypeError, ValueError):
                pass
    return str(value)


def resolve_domain(data_source: Any) -> str | None:
    """The Stepscope domain a data source names: exact, else the longest known name inside it."""
    if not isinstance(data_source, str):
        data_source = plain(data_source)
        if not isinstance(data_source, str):
            return None
    name = data_source.strip().lower().replace("-", "_").replace(" ", "_")
    if name in known_domains():
        return name
    for alias, domain in _aliases():
        if alias in name:
            return domain
    return None


def _maybe_json(value: Any) -> Any:
    if isinstance(value, str) and value.lstrip()[:1] in ("{", "[") and len(value) <= _MAX_PROBLEM_JSON:
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def resolve_problem(domain: str | None, ground_truth: Any) -> ResolvedProblem:
    """The record-format problem for `domain` from a ground truth of any accepted shape.

    Accepted: the problem object itself; a JSON string of it; a whole record ({"domain",
    "problem", ...}: its problem, and its domain when none was named); verl's {"ground_truth": ...}
    wrapper; and per domain the short forms documented in the README ("Rewards for RL").
    """
    gt = plain(_maybe_json(ground_truth))
    if isinstance(gt, dict) and "ground_truth" in gt and len(gt) <= 2:
        gt = plain(_maybe_json(gt["ground_truth"]))
    if isinstance(gt, dict) and isinstance(gt.get("problem"), dict) and ("trace" in gt or "domain" in gt):
        if domain is None:
            domain = resolve_domain(gt.get("domain"))
        gt = gt["problem"]
    if domain is None:
        return ResolvedProblem(None, {}, "the data source names no domain Stepscope knows "
                                         f"(known: {', '.join(known_domains())})")
    if gt is None:
        return ResolvedProblem(domain, {}, "no ground truth (the problem) was given")
    shaper = _SHAPERS.get(domain, _as_object)
    try:
        problem = shaper(gt)
    except (TypeError, ValueError) as exc:
        return ResolvedProblem(domain, {}, f"the ground truth cannot be read as a {domain} problem: {exc}")
    return ResolvedProblem(domain, problem)


def _as_object(gt: Any) -> dict[str, Any]:
    if not isinstance(gt, dict):
        raise ValueError(f"expected an object, got {type(gt).__name__}")
    return gt


def _countdown(gt: Any) -> dict[str, Any]:
    gt = _as_object(gt)
    numbers = gt.get("numbers", gt.get("nums"))
    target = gt.get("target")
    if numbers is None or target is None:
        raise ValueError("it needs 'numbers' (or 'nums') and 'target'")
    out = dict(gt)
    out.pop("nums", None)
    out["numbers"], out["target"] = numbers, target
    return out


def _maze(gt: Any) -> dict[str, Any]:
    if isinstance(gt, str):
        return {"prompt": gt}
    return _as_object(gt)


def _planning(gt: Any) -> dict[str, Any]:
    gt = _as_object(gt)
    if "domain_pddl" in gt or "problem_pddl" in gt:
        return gt
    # {"domain": "(define (domain ...", "problem": "(define (problem ..."}: PDDL texts by other names.
    dom, prob = gt.get("domain"), gt.get("problem") or gt.get("instance")
    if isinstance(dom, str) and isinstance(prob, str):
        return {**{k: v for k, v in gt.items() if k not in ("domain", "problem", "instance")},
                "domain_pddl": dom, "problem_pddl": prob}
    raise ValueError("it needs 'domain_pddl' and 'problem_pddl' (the PDDL texts)")


def _freeform(gt: Any) -> dict[str, Any]:
    if isinstance(gt, (str, int, float)) and not isinstance(gt, bool):
        return {"reference_answer": str(gt)}
    gt = _as_object(gt)
    if "reference_answer" not in gt:  # dataset columns: GSM8K-style `answer`, or `solution`
        for key in ("answer", "solution"):
            if isinstance(gt.get(key), (str, int, float)) and not isinstance(gt.get(key), bool):
                return {**{k: v for k, v in gt.items() if k != key}, "reference_answer": str(gt[key])}
    return gt


def _hanoi(gt: Any) -> dict[str, Any]:
    if isinstance(gt, int) and not isinstance(gt, bool):
        return {"disks": gt}
    return _as_object(gt)


_SHAPERS = {"countdown": _countdown, "maze": _maze, "sokoban": _maze, "freeform": _freeform, "hanoi": _hanoi,
            **{d: _planning for d in PLANNING}}
