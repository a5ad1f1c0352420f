"""The bottom layer: records, step graphs, verdicts, input limits and reading input files.

Nothing here imports the layers above it (trace_parsers, validators, audit.py, db, app_pages).
"""
