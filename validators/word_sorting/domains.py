"""The `word_sorting` domain (replay.py)."""

from validators.word_sorting.replay import DOMAIN

DOMAINS = (DOMAIN,)
