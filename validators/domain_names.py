"""Reporting a record's unknown domain name per file, with the nearest registered name (found
by the one registry, validators/registry.py, whose undecided verdicts quote it too).

A record naming a domain no validator knows ("chess", or "blockworld" for "blocksworld") is
stored and viewable but never checked. The upload page and `cli.py audit` say so per file, with
the nearest known name, so a typo does not pass as an undecided verdict.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from validators.registry import get_domain, list_domains, nearest_domain


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
