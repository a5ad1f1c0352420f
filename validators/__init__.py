"""Domains, one package per family (astar, countdown, freeform, planning, puzzles; thinking holds
the replays of thinking-trace claims that the families share). A family's `domains.py` lists its
`DomainSpec`s in `DOMAINS`, and the registry finds it by itself.

A domain replays a parsed trace against reference semantics and judges the answer. Replays
are pure: no Streamlit, no database, no I/O.
"""

from validators.base import DomainSpec, Replay
from validators.registry import get_domain, list_domains, replay_record

__all__ = ["DomainSpec", "Replay", "get_domain", "list_domains", "replay_record"]
