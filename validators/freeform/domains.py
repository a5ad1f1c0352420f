"""The `freeform` domain (replay.py)."""

from validators.freeform.replay import DOMAIN

DOMAINS = (DOMAIN,)
