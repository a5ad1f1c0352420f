"""The `multiplication` domain (replay.py)."""

from validators.multiplication.replay import DOMAIN

DOMAINS = (DOMAIN,)
