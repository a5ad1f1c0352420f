"""Records and verdicts in and out of files: reading input files in bounded memory (`intake.py`),
telling binary data from text (`binary.py`), rows of step-labelled datasets as records
(`step_rows.py`), verdicts as JSONL or Parquet (`verdict_files.py`) and the CSV/HTML reports
(`report.py`).

A bottom-layer package beside core/: it imports core (the model) and nothing above it.
"""
