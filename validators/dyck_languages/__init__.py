"""The `dyck_languages` domain: BIG-Bench's Dyck-language completion (close every bracket left
open in the input), replayed on a stack, one input symbol at a time (replay.py)."""
