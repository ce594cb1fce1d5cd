"""Command-line argument types the benchmarks share."""

from __future__ import annotations

import argparse


def _positive(text: str) -> int:
    """An argparse ``type``: a whole number of at least 1.

    The leading underscore is kept: argparse names the type in its message for a word that is not a
    number ("invalid _positive value: 'x'"), as it did when each benchmark had its own copy.
    """
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value
