"""The `multistep_arithmetic` domain (replay.py)."""

from validators.multistep_arithmetic.replay import DOMAIN

DOMAINS = (DOMAIN,)
