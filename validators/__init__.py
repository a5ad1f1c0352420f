"""Domains: each module here that defines `DOMAIN = DomainSpec(...)` is registered.

A domain replays a parsed trace against reference semantics and judges the answer. Replays
are pure: no Streamlit, no database, no I/O.
"""

from validators.base import DomainSpec, Replay
from validators.registry import get_domain, list_domains, replay_record

__all__ = ["DomainSpec", "Replay", "get_domain", "list_domains", "replay_record"]
