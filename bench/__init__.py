"""Benchmarks; run them as scripts, e.g. `python bench/votes.py`."""
