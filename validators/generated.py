"""Problem records from the domains' generators (DomainSpec.generate): what `cli.py generate`
writes and the live-capture page offers. A record holds the problem only (empty trace and
answer); `meta.generated` says how to make it again."""

from __future__ import annotations

import re
from typing import Any

from validators.registry import get_domain, list_domains


def generator_domains() -> list[str]:
    return [spec.name for spec in list_domains() if spec.generate is not None]


def parse_lengths(text: str) -> list[int]:
    """'2..12' (inclusive), '2,4,8' or '5' -> lengths; ValueError with the accepted forms."""
    text = text.strip()
    span = re.fullmatch(r"(\d+)\s*(?:\.\.|-)\s*(\d+)", text)
    if span:
        lo, hi = int(span.group(1)), int(span.group(2))
        if lo > hi:
            raise ValueError(f"lengths {text!r}: the first is larger than the last")
        return list(range(lo, hi + 1))
    if re.fullmatch(r"\d+(?:\s*,\s*\d+)*", text):
        return [int(x) for x in text.split(",")]
    raise ValueError(f"lengths {text!r}: write a range '2..12', a list '2,4,8' or one length '5'")


def generated_records(domain: str, lengths: list[int], per_length: int, seed: int = 0) -> list[dict[str, Any]]:
    """`per_length` problems of each length, the same for the same arguments."""
    spec = get_domain(domain)
    if spec is None or spec.generate is None:
        raise ValueError(f"no problem generator for domain {domain!r}; domains with one: "
                         f"{', '.join(generator_domains())}")
    if per_length < 1:
        raise ValueError("--per-length must be at least 1")
    out = []
    for length in lengths:
        for i, problem in enumerate(spec.generate(length, per_length, seed)):
            out.append({"id": f"{spec.name}-len{length}-seed{seed}-{i}", "domain": spec.name, "problem": problem,
                        "trace": "", "answer": "",
                        "meta": {"generated": {"by": spec.validator_id, "length": length, "seed": seed, "index": i}}})
    return out
