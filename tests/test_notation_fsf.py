"""Every built-in game's moves written as Fairy-Stockfish writes them (pyffish's ``get_san``), and
read back.

For every game of the registry, seeded random games (that prefer captures, so that hands fill,
pawns promote and pieces crowd onto files) are played from the start while ggn's legal moves
equal pyffish's; at positions spread along each game (not only openings):

- every legal move written by ``ggn.notation.write`` in the game's own SAN equals
  ``pyffish.get_san(variant, fen, uci)`` (Fairy-Stockfish's default notation), and in each
  named notation of the game's family (``ggn.notation.notations``: ``lan`` everywhere, shogi's
  three for the shogi template, ``wxf`` and ``janggi`` for xiangqi-like games, the Thai ones for
  makruk-like games) equals ``get_san`` with that notation;
- every text read back (``ggn.notation.parse`` in that notation, and without a notation for the
  game's SAN) gives the same play, unless Fairy-Stockfish writes the same text for two moves
  (its WXF and Thai notations do on some boards), which is then an ambiguity error naming both.

Under ``pytest -m full``: more and longer games, and all nine notations on every game (as
Fairy-Stockfish writes each of them for any game).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from ggn import notation
from ggn.errors import IllegalMoveError
from ggn.notation import san
from ggn.position import Position
from ggn.rules import Play, RuleSystem
from ggn.variants import _checks as checks
from ggn.variants import registry
from ggn.variants.registry import Entry
from ggn.variants.uci import moves as uci_moves
from test_variants_fsf import _destination, _occupied

pytestmark = pytest.mark.slow  # not in the README's quick run: every game's moves against pyffish

sf = pytest.importorskip("pyffish")

SEED = 20261127  # not tuned on
CAPTURES = 0.6  # the chance a random game takes when it can
NOTATIONS = {
    "san": sf.NOTATION_SAN, "lan": sf.NOTATION_LAN, "shogi-hosking": sf.NOTATION_SHOGI_HOSKING,
    "shogi-hodges": sf.NOTATION_SHOGI_HODGES, "shogi-hodges-number": sf.NOTATION_SHOGI_HODGES_NUMBER,
    "janggi": sf.NOTATION_JANGGI, "wxf": sf.NOTATION_XIANGQI_WXF, "thai-san": sf.NOTATION_THAI_SAN,
    "thai-lan": sf.NOTATION_THAI_LAN,
}
assert tuple(NOTATIONS) == san.NOTATIONS


@dataclass(frozen=True)
class Sample:
    """A position of a random game, with its FEN for pyffish."""

    entry: Entry
    position: Position
    fen: str


def _samples(name: str, games: int, plies: int, every: int, seed: int) -> Iterator[Sample]:
    """Positions of seeded random games of ``name`` (played by pyffish): every ``every``-th ply
    from a random start ply, while the game goes on and ggn's legal moves there equal pyffish's."""
    entry = registry.entry(name)
    rules, variant = entry.rules, entry.variant
    rng = random.Random(f"{seed}:{name}")
    played = tries = 0
    while played < games and tries < 10 * games:  # a game over before its first sample is played again
        tries += 1
        fen = sf.start_fen(name)
        first = rng.randrange(every // 3 + 1)
        for ply in range(plies):
            legal = sorted(sf.legal_moves(name, fen, [], variant.chess960))
            if not legal or sf.is_immediate_game_end(name, fen, [], variant.chess960)[0]:
                break
            # A position of a game that counts checks stands for its start's counts (a game
            # holds the others: tests/test_checks_fsf.py writes those moves through Game).
            if ply % every == first and (not variant.history.check_counting
                                         or checks.read(fen)[0] == checks.start(variant)):
                position = rules.position(entry.to_feen(fen))
                if set(uci_moves(rules, position, variant=variant)) != set(legal):
                    break  # a known disagreement of the rules (tests/test_variants_fsf.py): not this file's
                played += ply == first
                yield Sample(entry, position, fen)
            occupied = _occupied(fen)
            takes = [move for move in legal if _destination(move) in occupied]
            pick = rng.choice(takes) if takes and rng.random() < CAPTURES else rng.choice(legal)
            fen = sf.get_fen(name, fen, [pick], variant.chess960)


def _compare(sample: Sample, names: tuple[str, ...], most: int | None = None) -> tuple[int, list[str]]:
    """Write every legal move of the sample in the game's SAN and (``most`` of them, seeded, or
    all) in each notation of ``names``, against pyffish, and read each back: the count of texts
    compared and the faults."""
    entry, position, fen = sample.entry, sample.position, sample.fen
    rules, variant = entry.rules, entry.variant
    strings = uci_moves(rules, position, variant=variant)
    faults: list[str] = []
    count = 0
    rng = random.Random(fen)
    recognised = set(strings) if most is None else set(rng.sample(sorted(strings), min(most, len(strings))))
    for name in ("default", *names):
        kept = sorted(strings) if most is None or name == "default" else sorted(
            rng.sample(sorted(strings), min(most, len(strings))))
        written = {text: strings[text] for text in kept}
        # The game's SAN by ggn.notation; each notation by its own name by ggn.notation.san (where
        # "san" is plain SAN in every game).
        texts = {uci: _write(rules, position, play, name) for uci, play in written.items()}
        every = texts if len(texts) == len(strings) else {
            uci: _write(rules, position, play, name) for uci, play in strings.items()}
        for uci, text in texts.items():
            count += 1
            if name == "default":
                theirs = sf.get_san(variant.name, fen, uci, variant.chess960)
            else:
                theirs = sf.get_san(variant.name, fen, uci, variant.chess960, NOTATIONS[name])
            if text != theirs:
                faults.append(f"{variant.name} {name} {fen} {uci}: pyffish {theirs!r}, ggn {text!r}")
                continue
            same = [other for other, written_text in every.items() if written_text == text]
            if len(same) > 1:
                with pytest.raises(IllegalMoveError, match="is ambiguous"):
                    _read(rules, position, text, name)
                continue
            found = _read(rules, position, text, name)
            if found != written[uci]:
                faults.append(f"{variant.name} {name} {fen}: {text!r} read as {found}, not {written[uci]}")
            # Recognised among all the game's notations (UCI, USI, GGN...): a few moves a position.
            if name == "default" and uci in recognised \
                    and notation.parse(rules, position, text) != written[uci]:
                faults.append(f"{variant.name} {fen}: {text!r} recognised as another move")
    return count, faults


def _read(rules: RuleSystem, position: Position, text: str, name: str) -> Play:
    if name == "default":
        return notation.parse(rules, position, text, "san")
    return san.parse(rules, position, text, name)  # type: ignore[arg-type]


def _write(rules: RuleSystem, position: Position, play: Play, name: str) -> str:
    if name == "default":
        return notation.write(rules, position, play)
    return san.write(rules, position, play, name)  # type: ignore[arg-type]


def _family(name: str) -> tuple[str, ...]:
    """The named notations of the game's family, as ggn.notation recognises them."""
    return tuple(found for found in notation.notations(registry.rules(name)) if found in NOTATIONS)


@pytest.mark.parametrize("name", registry.names())
def test_moves_written_as_fairy_stockfish_writes_them(name: str) -> None:
    samples = list(_samples(name, games=1, plies=80, every=35, seed=SEED))
    assert samples, name
    compared, faults = 0, []
    for sample in samples:
        count, found = _compare(sample, _family(name), most=12)
        compared += count
        faults += found
    assert not faults, "\n".join(faults[:20])
    assert compared > 0


@pytest.mark.full
@pytest.mark.parametrize("name", registry.names())
def test_every_notation_along_long_games(name: str) -> None:
    faults: list[str] = []
    for sample in _samples(name, games=2, plies=150, every=12, seed=SEED + 1):
        faults += _compare(sample, tuple(NOTATIONS))[1]
    assert not faults, "\n".join(faults[:20])


def test_the_default_notation_is_fairy_stockfish_s() -> None:
    for name in registry.names():
        rules = registry.rules(name)
        fen = sf.start_fen(name)
        play = next(iter(uci_moves(rules, rules.position()).items()))
        default = notation.default(rules)
        theirs = sf.get_san(name, fen, play[0])
        assert notation.write(rules, rules.position(), play[1], default) == theirs, name
        assert notation.write(rules, rules.position(), play[1]) == theirs, name
