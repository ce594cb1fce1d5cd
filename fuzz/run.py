"""A long coverage-guided fuzzing campaign with atheris (libFuzzer for Python).

    .venv/bin/pip install -e '.[test,fuzz]'
    .venv/bin/python fuzz/run.py notations -max_total_time=3600
    .venv/bin/python fuzz/run.py documents -max_total_time=3600 -jobs=2
    .venv/bin/python fuzz/run.py cli -max_total_time=3600
    .venv/bin/python fuzz/run.py native -max_total_time=3600

One harness per parser family; each checks, on every input, exactly what the Hypothesis fuzz
targets of the test suite check (``tests/fuzzing.py``), so a finding is an input that breaks
the same property CI holds:

- ``notations``: the first byte picks CELL, HAND, SIN, PIN, EPIN, QPI, GAN, legacy GAN, FEEN or
  ``parse_location``; the rest, as UTF-8, is the text.
- ``documents``: the first byte picks GGN, LCN, STN or legacy GGN, the second whether the rest
  is loaded as text (``loads``) or decoded by Python's ``json`` first (``from_value``).
- ``cli``: the input is ``ARGV\\x1fFILE\\x1fSTDIN``, the arguments separated by ``\\x1e``; in
  the arguments, ``@doc`` names a file holding FILE, ``@out`` a new file and ``@dir`` a
  directory, all in a temporary directory; the first byte says whether standard input is
  closed and whether standard output fails on every write.
- ``native``: the native kernel against the pure path. The first byte picks a game the kernel
  plays (``fuzzing.native_games``), the second how the rest is read: pieces placed square by
  square with hands of any size (``fuzzing.native_position``), a FEEN as UTF-8 text, or (the
  game aside) a ``variants.ini`` text whose first variant's start is compared. Run against a
  kernel built with sanitizers and coverage, it fuzzes the C code from Python's side too
  (``.ci/sanitize`` does, with clang and atheris's ``asan_with_fuzzer.so``).

The corpus starts from ``tests/vectors`` (written to ``fuzz/corpus/FAMILY`` on the first run,
then grown by libFuzzer); any other arguments go to libFuzzer (``-help=1`` lists them). A
finding is written as ``crash-*`` in the current directory; replay it with
``.venv/bin/python fuzz/run.py FAMILY crash-...``.
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import atheris

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # tests/fuzzing.py: the properties the test suite checks

with atheris.instrument_imports(include=["ggn"]):
    import fuzzing
    from ggn.rules import RuleSystem, rule_system

NOTATIONS = sorted(fuzzing.NOTATIONS)
KINDS = sorted(fuzzing.DOCUMENTS)
_SEP_PART, _SEP_ARG = "\x1f", "\x1e"


# --- the harnesses ------------------------------------------------------------------------------
def notations(data: bytes) -> None:
    if not data:
        return
    fuzzing.check_notation(NOTATIONS[data[0] % len(NOTATIONS)], data[1:].decode("utf-8", "replace"))


def documents(data: bytes) -> None:
    if len(data) < 2:
        return
    kind, raw = KINDS[data[0] % len(KINDS)], data[2:]
    if data[1] % 2 == 0:
        fuzzing.check_document_text(kind, raw, max_errors=1 + data[1] % 7)
        return
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):
        return
    fuzzing.check_document_value(kind, value, max_errors=1 + data[1] % 7)


def cli(data: bytes) -> None:
    if not data:
        return
    parts = data[1:].decode("utf-8", "replace").split(_SEP_PART)
    argv = parts[0].split(_SEP_ARG)
    contents = parts[1].encode("utf-8") if len(parts) > 1 else b""
    stdin = parts[2].encode("utf-8") if len(parts) > 2 else b""
    if _long_by_design(argv):
        return
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        (folder / "doc.json").write_bytes(contents)
        (folder / "dir").mkdir()
        named = {"@doc": "doc.json", "@out": "out.json", "@dir": "dir"}
        paths = {token: str(folder / name) for token, name in named.items()}
        argv = [paths.get(arg, arg) for arg in argv]
        fuzzing.check_cli(argv, None if data[0] & 1 else stdin, writable=not data[0] & 2)


# A depth as the command reads it (ASCII digits after an optional '+'), up to 999: str.isdigit
# would take '²', which int() refuses (a crash of the harness, not of ggn), and miss '+4', '0004'.
_DEPTH = re.compile(r"\+?0*([0-9]{1,3})")


def _long_by_design(argv: list[str]) -> bool:
    """Work that is long by design, not a fault: perft deeper than 3 plies."""
    return bool(argv) and argv[0] == "perft" and any(
        (depth := _DEPTH.fullmatch(arg)) is not None and int(depth[1]) > 3 for arg in argv[1:])


def native(data: bytes) -> None:
    games = fuzzing.native_games()
    if len(data) < 2 or not games:
        return
    mode, rest = data[1] % 3, data[2:]
    if mode == _NATIVE_INI:
        fuzzing.check_native_ini(rest.decode("utf-8", "replace"))
        return
    name = games[data[0] % len(games)]
    if mode == _NATIVE_FEEN:
        fuzzing.check_native_feen(name, rest.decode("utf-8", "replace"))
        return
    rules = rule_system(name)
    fuzzing.check_native(rules, fuzzing.native_position(rules, rest))


_NATIVE_PLACED, _NATIVE_FEEN, _NATIVE_INI = 0, 1, 2

HARNESSES: dict[str, Callable[[bytes], None]] = {
    "notations": notations, "documents": documents, "cli": cli, "native": native}


# --- the seed corpus ----------------------------------------------------------------------------
def _seeds(family: str) -> list[bytes]:
    if family == "notations":
        return [bytes([index]) + text.encode("utf-8")
                for index, name in enumerate(NOTATIONS) for text in fuzzing.notation_seeds(name)]
    if family == "documents":
        return [bytes([index, mode]) + data for index, kind in enumerate(KINDS)
                for data in fuzzing.document_seeds(kind) for mode in (0, 1)]
    if family == "native":
        return _native_seeds()
    return [_command(argv, contents) for argv, contents in _command_seeds()]


def _native_seeds() -> list[bytes]:
    """Each game's start as text and as placed bytes, and the ini texts of small variants."""
    games = fuzzing.native_games()
    if not games:
        sys.exit("fuzz/run.py native: the C kernel is not built here (pip install -e .)")
    seeds: list[bytes] = []
    for name, text in fuzzing.native_seeds():
        if name == "ini":
            seeds.append(bytes([0, _NATIVE_INI]) + text.encode("utf-8"))
        elif name in games:
            index = games.index(name)
            seeds.append(bytes([index, _NATIVE_FEEN]) + text.encode("utf-8"))
            seeds.append(bytes([index, _NATIVE_PLACED]) + _placed(rule_system(name)))
    return seeds


def _placed(rules: RuleSystem) -> bytes:
    """The bytes ``fuzzing.native_position`` reads back as the start position (hands empty)."""
    start = rules.position()
    pieces = fuzzing.native_pieces(rules)
    squares = bytes(0 if code == 0 else 96 + (pieces.index(code) - 96) % len(pieces) for code in start._codes)
    return bytes([0 if start.active == "first" else 1]) + squares


def _command(argv: list[str], contents: bytes) -> bytes:
    """A seed for the ``cli`` harness: standard input empty and open, standard output writable."""
    text = _SEP_ARG.join(argv) + _SEP_PART + contents.decode("utf-8", "replace") + _SEP_PART
    return b"\x00" + text.encode("utf-8")


def _command_seeds() -> list[tuple[list[str], bytes]]:
    seeds: list[tuple[list[str], bytes]] = []
    for name in NOTATIONS:
        if name in ("location", "legacy GGN piece"):
            continue
        seeds += [(["parse", name.lower(), text], b"") for text in fuzzing.notation_seeds(name)[:6]]
    for kind in KINDS:
        for data in fuzzing.document_seeds(kind)[:8]:
            seeds += [(["validate", "--as", kind, "--format", "json", "@doc"], data),
                      (["validate", "--as", kind, "-"], data)]
    for data in fuzzing.document_seeds("ggn")[:8]:
        seeds += [(["lint", "@doc", "--board", "8/8/8/8/8/8/8/8 / C/c"], data),
                  (["moves", "@doc", "8/8/8/8/8/8/8/R7 / C/c", "--format", "json"], data)]
    for data in fuzzing.document_seeds("ggn-legacy")[:8]:
        seeds.append((["convert", "@doc", "--effects", "@out", "--indent", "0"], data))
    feen = "8/8/8/8/4P3/8/8/8 / C/c"
    seeds += [
        (["moves"], b""), (["moves", "shogi"], b""), (["apply", feen, '{"board_diff": {"e4": null}}'], b""),
        (["diff", feen, "8/8/8/8/8/8/8/8 / c/C"], b""), (["perft", "makruk", "1", "--divide"], b""),
        (["perft", "chess", "1", "--feen", feen], b""), (["generate", "makruk", "--indent", "0"], b""),
        (["schema", "stn"], b""), (["demo"], b""), (["--help"], b""),
    ]
    return seeds


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in HARNESSES:
        families = ",".join(HARNESSES)
        sys.stderr.write(f"usage: fuzz/run.py {{{families}}} [libFuzzer options] [corpus or crash files]\n")
        sys.exit(2)
    family, rest = sys.argv[1], sys.argv[2:]
    if not any(not arg.startswith("-") for arg in rest):  # no corpus or crash file given: ours
        corpus = ROOT / "fuzz" / "corpus" / family
        if not corpus.is_dir() or not any(corpus.iterdir()):
            corpus.mkdir(parents=True, exist_ok=True)
            for number, seed in enumerate(_seeds(family)):
                (corpus / f"seed-{number:04d}").write_bytes(seed)
        rest.append(str(corpus))
    if family == "native":
        # The games' tables are made once, before the clock of the first input starts: under
        # the instrumentation that takes minutes, which libFuzzer would take for a hang.
        fuzzing.native_games()
    if not any(arg.startswith("-timeout=") for arg in rest):
        rest.insert(0, "-timeout=60")  # an input that takes a minute is a finding
    if not any(arg.startswith("-max_len=") for arg in rest):
        rest.insert(0, "-max_len=8192")  # room for numbers past the 4,300 digits int() converts
    atheris.Setup([sys.argv[0], *rest], HARNESSES[family])
    atheris.Fuzz()


if __name__ == "__main__":
    main()
