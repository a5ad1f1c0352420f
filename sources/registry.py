"""The one list of sources: every module of this package that defines `SOURCES` is one (found by
core.discovery, as formats and domains are), so adding a source is adding a module."""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from core.discovery import iter_plugin_modules
from sources.base import Options, Plan, Probe, Source, SourceError
from sources.records import auto_chain


@lru_cache(maxsize=1)
def all_sources() -> tuple[Source, ...]:
    found = [s for module in iter_plugin_modules("sources") for s in getattr(module, "SOURCES", ())]
    return tuple(sorted(found, key=lambda s: (s.order, s.name)))


def source_names() -> tuple[str, ...]:
    return tuple(s.name for s in all_sources())


def plan_input(probe: Probe, options: Options, forced: str | None = None) -> Plan:
    """How to read this input: as the source named by `--source`, else the first (by order) that
    recognises it; raises SourceError for an unknown name or an input the source cannot read."""
    options = replace(options, forced=forced is not None,
                      fallback=options.fallback or auto_chain(options.domain, options.rollout_layout))
    if forced is not None:
        source = next((s for s in all_sources() if s.name == forced), None)
        if source is None:
            raise SourceError(f"unknown --source {forced!r}; the sources are {', '.join(source_names())}")
        return source.plan(probe, options, "given with --source")
    for source in all_sources():
        reason = source.detect(probe, options)
        if reason:
            return source.plan(probe, options, reason)
    raise SourceError("no source recognises this input")  # unreachable while 'record' is the default
