"""The `countdown` domain (replay.py)."""

from validators.countdown.replay import DOMAIN

DOMAINS = (DOMAIN,)
