"""The one registry of domains: every family package under validators/ lists its domains in its
`domains.py` as `DOMAINS = (DomainSpec(...), ...)`."""

from __future__ import annotations

import difflib
from functools import lru_cache
from typing import Any

from core.discovery import iter_family_modules
from core.record import TraceRecord
from core.verdicts import AnswerError
from trace_parsers.base import ParsedTrace
from validators.base import DomainSpec, Replay

# Bumped when the pipeline's own verdict assembly changes (gaps, invalid-step listing).
PIPELINE_VERSION = "1"


@lru_cache(maxsize=1)
def _domains() -> dict[str, DomainSpec]:
    found: dict[str, DomainSpec] = {}
    for module in iter_family_modules("validators", "domains"):
        for spec in getattr(module, "DOMAINS", ()):
            if not isinstance(spec, DomainSpec):
                raise RuntimeError(f"{module.__name__}.DOMAINS holds {spec!r}, not a DomainSpec")
            for key in (spec.name, *spec.aliases):
                if key in found:
                    raise RuntimeError(f"domain {key!r} registered twice")
                found[key] = spec
    return found


def list_domains() -> list[DomainSpec]:
    return sorted({id(s): s for s in _domains().values()}.values(), key=lambda s: s.name)


def get_domain(name: str) -> DomainSpec | None:
    return _domains().get(name)


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


def infer_domain(problem: dict[str, Any]) -> str | None:
    """The one domain that recognises `problem`; None when none or several do."""
    found = []
    for spec in list_domains():
        try:
            if spec.recognise is not None and spec.recognise(problem):
                found.append(spec.name)
        except Exception:  # noqa: BLE001 - a recogniser must never sink a record
            continue
    return found[0] if len(found) == 1 else None


def validator_id(domain: str) -> str:
    """What a stored verdict records so old results can be found and re-run."""
    spec = get_domain(domain)
    return f"{spec.validator_id if spec else 'none'}+pipeline@{PIPELINE_VERSION}"


def replay_record(record: TraceRecord, parsed: ParsedTrace) -> Replay:
    """Replay with the record's domain; no domain or a crash gives an undecided verdict."""
    spec = get_domain(record.domain)
    if spec is None:
        hint = nearest_domain(record.domain)
        return Replay(
            answer_correct=None,
            answer_error=AnswerError(
                kind="undecided",
                message=f"no validator for domain {record.domain!r} yet; the trace is stored and viewable"
                        + (f"; did you mean {hint!r}?" if hint else ""),
            ),
        )
    try:
        return spec.replay(record, parsed)
    except Exception as exc:  # noqa: BLE001 - a validator bug must not lose the record
        return Replay(
            answer_correct=None,
            answer_error=AnswerError(
                kind="undecided",
                message=f"validator {spec.validator_id} failed: {type(exc).__name__}: {exc}",
            ),
        )
