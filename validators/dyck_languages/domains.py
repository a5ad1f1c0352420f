"""The `dyck_languages` domain (replay.py)."""

from validators.dyck_languages.replay import DOMAIN

DOMAINS = (DOMAIN,)
