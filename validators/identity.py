"""A record's problem identity, asked of its domain: the registry supplies the domain's own
identity hook to the generic canonical form of metrics/problem_key.py (which sits below the
registry and cannot look it up)."""

from __future__ import annotations

from typing import Any

from metrics.problem_key import problem_hash
from validators.registry import get_domain


def record_problem_hash(domain: str, problem: dict[str, Any], trace: str = "") -> str:
    """`problem_hash` with the domain's `problem_identity` hook, when it has one."""
    spec = get_domain(domain)
    return problem_hash(domain, problem, trace, spec.problem_identity if spec is not None else None)
