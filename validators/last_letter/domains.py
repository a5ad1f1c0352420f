"""The `last_letter` domain (replay.py)."""

from validators.last_letter.replay import DOMAIN

DOMAINS = (DOMAIN,)
