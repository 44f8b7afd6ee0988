"""arcstar's benchmarks (``python bench/run.py``); see bench/README.md."""
