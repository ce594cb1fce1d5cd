"""Load and validate a large GGN document: this library against json + jsonschema.

In one run, on the same bytes (the document of :mod:`benchmarks.make_document`,
serialized with ``indent=2``), best of ``--repeat`` runs each, timed with
:func:`time.perf_counter`:

- ours: ``Ruleset.loads(data)``, bytes in, a validated immutable document out;
- jsonschema: ``json.loads(data)``, then ``Draft202012Validator.validate`` with the
  GGN schema this package ships (the validator is built once, outside the timing,
  without a format checker).

They do not do the same amount of work: ours checks more (duplicate keys, the
source location in its own conditions) and builds a document; jsonschema only
answers yes or no. Garbage collection stays on, as in real use, and is run before
each timed run.

Run from the repository root::

    python -m benchmarks.bench_validate [--repeat N] [--json]
    python benchmarks/bench_validate.py [--repeat N] [--json]
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import sys
import time
from collections.abc import Callable, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

if not __package__:  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import jsonschema

from benchmarks._arguments import _positive
from benchmarks.make_document import counts, describe, serialize, sliders_document
from ggn.ruleset import Ruleset
from ggn.schemas import load_schema

__all__ = ["main", "measure"]

MB = 1e6  # bytes in a megabyte, as reported


def best_of(repeat: int, run: Callable[[], object]) -> float:
    """The shortest of ``repeat`` timed calls of ``run``, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def measure(repeat: int) -> dict[str, Any]:
    """Build the document, time both validators on it, and return the figures."""
    document = sliders_document()
    data = serialize(document)
    validator = jsonschema.Draft202012Validator(load_schema("ggn"), format_checker=None)

    def ours() -> object:
        return Ruleset.loads(data)

    def theirs() -> object:
        value = json.loads(data)
        validator.validate(value)
        return value

    # Untimed first runs: both must accept the document (and are warmed up).
    ours()
    theirs()

    size = len(data)
    results: dict[str, dict[str, Any]] = {}
    for name, label, run in (
        ("ggn", "ggn Ruleset.loads", ours),
        ("jsonschema", "json.loads + jsonschema", theirs),
    ):
        seconds = best_of(repeat, run)
        results[name] = {"label": label, "seconds": seconds, "mb_per_s": size / MB / seconds}
    return {
        "document": describe(document, data),
        "counts": counts(document),
        "size_bytes": size,
        "size_mb": size / MB,
        "repeat": repeat,
        "results": results,
        "speedup": results["jsonschema"]["seconds"] / results["ggn"]["seconds"],
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "jsonschema_version": metadata.version("jsonschema"),
    }


def render(figures: dict[str, Any]) -> str:
    """The figures as a small text table."""
    lines = [
        f"document: {figures['document']}",
        f"best of {figures['repeat']} runs, {figures['implementation']} {figures['python']}, "
        f"jsonschema {figures['jsonschema_version']}",
        "",
        f"{'':26} {'seconds':>10} {'MB/s':>10}",
    ]
    lines.extend(
        f"{result['label']:26} {result['seconds']:10.4f} {result['mb_per_s']:10.2f}"
        for result in figures["results"].values()
    )
    lines.append("")
    lines.append(f"ggn is {figures['speedup']:.1f}x as fast as json.loads + jsonschema")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Time loading and validating a large GGN document: ggn against jsonschema."
    )
    parser.add_argument("--repeat", type=_positive, default=5, help="timed runs of each (best is kept; 5)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    figures = measure(args.repeat)
    print(json.dumps(figures, indent=2) if args.json else render(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
