"""Scanning text fast: literal prefilters ("gates") read from a regex's own source, so a pattern
is tried only on text that holds the words it cannot match without (`gates.py`), and one gate
asked of every window of a text, such as each step of a trace (`window_gates.py`).

A bottom-layer package beside core/: it imports nothing of the project.
"""
