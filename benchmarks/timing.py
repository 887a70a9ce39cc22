"""Timing helper shared by the benchmark scripts (run as ``python benchmarks/<name>.py``, so this folder is
on ``sys.path``)."""

from __future__ import annotations

import statistics
import time


def mean_seconds(function, runs: int, warm_up: int = 3) -> tuple[float, float]:
    """Mean and standard deviation (seconds) of ``runs`` calls of ``function`` after ``warm_up`` calls."""
    for _ in range(warm_up):
        function()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.fmean(times), (statistics.stdev(times) if len(times) > 1 else 0.0)
