"""The `tracking_shuffled_objects` domain (replay.py)."""

from validators.tracking_shuffled_objects.replay import DOMAIN

DOMAINS = (DOMAIN,)
