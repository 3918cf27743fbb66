"""Shared timing helpers for the benchmark scripts (figures, never assertions)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")
ROOT = Path(__file__).resolve().parent.parent
MODELS = ROOT / "models"


def timed(f: Callable[[], T]) -> tuple[T, float]:
    """``f()`` and the seconds it took."""
    start = time.perf_counter()
    value = f()
    return value, time.perf_counter() - start


def best_of(n: int, f: Callable[[], T]) -> tuple[T, float]:
    """The last value of ``n`` calls and the best time among them."""
    value, best = timed(f)
    for _ in range(n - 1):
        value, seconds = timed(f)
        best = min(best, seconds)
    return value, best
