"""The `logical_deduction` domain (replay.py)."""

from validators.logical_deduction.replay import DOMAIN

DOMAINS = (DOMAIN,)
