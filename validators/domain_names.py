"""Telling a record's domain name apart from a typo, from the one registry (validators/registry.py).

A record naming a domain no validator knows ("chess", or "blockworld" for "blocksworld") is
stored and viewable but never checked. The upload page and `cli.py audit` say so per file, with
the nearest known name, so a typo does not pass as an undecided verdict.
"""

from __future__ import annotations

import difflib
from collections import Counter
from dataclasses import dataclass, field

from validators.registry import get_domain, list_domains


def known_names() -> list[str]:
    """Every name a record may use: the registered domains and their aliases."""
    return sorted({n for spec in list_domains() for n in (spec.name, *spec.aliases)})


def _normal(name: str) -> str:
    return "_".join(name.strip().lower().replace("-", " ").split())


def nearest_domain(name: str) -> str | None:
    """The registered domain a mistyped name most likely means; None when nothing is close."""
    if not name:
        return None
    wanted = _normal(name)
    by_normal = {_normal(n): n for n in known_names()}
    if wanted in by_normal:
        return _canonical(by_normal[wanted])
    close = difflib.get_close_matches(wanted, list(by_normal), n=1, cutoff=0.75)
    return _canonical(by_normal[close[0]]) if close else None


def _canonical(name: str) -> str:
    spec = get_domain(name)
    return spec.name if spec else name


def unknown_domain_message(name: str) -> str:
    """What a verdict and a file's note say about a domain without a validator."""
    hint = nearest_domain(name)
    suggestion = f"; did you mean {hint!r}?" if hint else f"; known domains: {', '.join(s.name for s in list_domains())}"
    return f"unknown domain {name!r}: no validator checks it, so its records are stored and viewable but undecided{suggestion}"


@dataclass
class UnknownDomains:
    """Counts, for one input file, the records whose domain no validator knows."""

    counts: Counter = field(default_factory=Counter)

    def add(self, domain: str | None) -> None:
        if domain and get_domain(domain) is None:
            self.counts[domain] += 1

    def notes(self, source: str) -> list[str]:
        """One line per unknown domain, most frequent first."""
        return [f"{source}: {n:,} record(s) name the {unknown_domain_message(name)}"
                for name, n in self.counts.most_common()]
