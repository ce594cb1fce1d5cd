"""Makruk: the generated GGN document, checked against pyffish (Fairy-Stockfish) on random games.

Fairy-Stockfish has no pseudo-legal move call; a variant whose king is an ordinary piece has
no check, so its legal moves are the pseudo-legal ones. By default a seeded subset of the
positions runs; ``pytest -m full`` runs all of them.
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from ggn import games
from ggn.errors import NotationError
from ggn.evaluate import Move
from ggn.feen import Feen
from ggn.games.makruk import START, document, from_fen, ruleset
from ggn.linter import lint
from ggn.position import Position
from ggn.ruleset import Ruleset
from support import assert_compiled_matches_plain, assert_same_moves, random_positions, sizes

pytest.importorskip("pyffish")
import pyffish

SEED = 20261123
PLIES = 160  # a random game restarts after this many plies (or when it ends)
PSEUDO_SHARE = 0.5  # the share of moves drawn among the pseudo-legal ones
REFERENCE_EVERY = 5  # one position in this many is also checked against plain evaluation

PSEUDO = "makruk-pseudo"
pyffish.load_variant_config(f"""
[{PSEUDO}:makruk]
king = -
commoner = k
extinctionValue = loss
extinctionPieceTypes = k
""")
START_FEN = pyffish.start_fen("makruk")
_UCI = re.compile(r"([a-h][1-8])([a-h][1-8])(m?)")

Pair = tuple[str, str]
Game = str  # a FEN: a met promoted from a bia is a met like any other, in FEN and in FEEN


# --- pyffish to FEEN, straight from the FEN (independent of from_fen) -------------------------
def feen_of(fen: str) -> str:
    placement, turn = fen.split(" ")[:2]
    rows = []
    for row in placement.split("/"):
        out, gap = "", 0
        for letter in row:
            if letter.isdigit():
                gap += int(letter)
                continue
            token = {"k": "k^", "K": "K^"}.get(letter, letter)
            out += (str(gap) if gap else "") + token
            gap = 0
        rows.append(out + (str(gap) if gap else ""))
    return "/".join(rows) + (" / M/m" if turn == "w" else " / m/M")


def parse(move: str) -> tuple[str, str, bool]:
    found = _UCI.fullmatch(move)
    assert found is not None, move
    return found[1], found[2], bool(found[3])


def _choices(game: Game, rng: random.Random) -> list[str]:
    """The legal makruk moves or, one time in ``1 / PSEUDO_SHARE``, the pseudo-legal ones but
    the capture of a king."""
    fen = game
    kings = {square for square, letter in board_of(fen).items() if letter in "Kk"}
    choices = [m for m in pyffish.legal_moves(PSEUDO, fen, []) if parse(m)[1] not in kings]
    if rng.random() >= PSEUDO_SHARE:
        legal = set(pyffish.legal_moves("makruk", fen, []))
        choices = [m for m in choices if m in legal]
    return choices


def _play(game: Game, move: str) -> Game:
    """The position after ``move``."""
    return pyffish.get_fen(PSEUDO, game, [move])


def random_games(seed: int, count: int) -> list[Game]:
    """``count`` positions of random games played by Fairy-Stockfish, the moves drawn from
    :func:`_choices`."""
    start: Game = START_FEN
    return random_positions(start, lambda _: start, _choices, _play, lambda game: game,
                            count=count, seed=seed, plies=PLIES)


def board_of(fen: str) -> dict[str, str]:
    board: dict[str, str] = {}
    for number, row in enumerate(fen.split(" ", maxsplit=1)[0].split("/")):
        file = 0
        for letter in row:
            if letter.isdigit():
                file += int(letter)
            else:
                board["abcdefgh"[file] + str(8 - number)] = letter
                file += 1
    return board


def their_pairs(fen: str) -> set[Pair]:
    """Fairy-Stockfish's pseudo-legal moves as (source, destination); promotions collapse."""
    return {parse(move)[:2] for move in pyffish.legal_moves(PSEUDO, fen, [])}


def pairs(moves: list[Move]) -> set[Pair]:
    return {(str(m.source), str(m.destination)) for m in moves}


@pytest.fixture(scope="module", params=sizes(200, 1200))
def positions(request: pytest.FixtureRequest) -> list[Game]:
    """Positions of random games compared with pyffish (1,200 under ``-m full``)."""
    return random_games(SEED, request.param)


# --- the document ---------------------------------------------------------------------------
def test_document_validates_and_round_trips() -> None:
    value = document()
    rules = Ruleset.from_value(value)
    assert rules.to_value() == value
    assert Ruleset.loads(rules.dumps()) == rules
    assert rules == ruleset()
    assert lint(rules, (8, 8)) == []


def test_document_pieces_and_sources() -> None:
    value = document()
    # A bia promoted on its sixth rank becomes a met like any other (M, as Fairy-Stockfish's FEN
    # writes it): no piece of its own.
    white = ["K^", "M", "S", "N", "R", "P"]
    assert list(value) == [f"M:{pin}" for pin in white] + [f"m:{pin.lower()}" for pin in white]
    for piece in ("M:K^", "M:M", "M:S", "M:N", "M:R", "m:k^", "m:m"):
        assert len(value[piece]) == 64
    # The bia stands anywhere below its sixth rank (Fairy-Stockfish plays one a FEN puts behind
    # its start rank too); from the fifth it steps onto the sixth, where the rule system
    # promotes it.
    assert {s[1] for s in value["M:P"]} == set("12345")
    assert {s[1] for s in value["m:p"]} == set("87654")
    assert value["M:P"]["d5"] == {"d6": [{"must": {"d6": "empty"}}], "c6": [{"must": {"c6": "enemy"}}],
                                  "e6": [{"must": {"e6": "enemy"}}]}


def test_document_follows_the_conventions() -> None:
    value = document()
    assert sorted(value["M:K^"]["d1"]) == ["c1", "c2", "d2", "e1", "e2"]
    assert sorted(value["M:M"]["e1"]) == ["d2", "f2"]
    assert sorted(value["M:S"]["c1"]) == ["b2", "c2", "d2"]
    assert sorted(value["M:S"]["c4"]) == ["b3", "b5", "c5", "d3", "d5"]
    assert sorted(value["m:s"]["c8"]) == ["b7", "c7", "d7"]  # forward is down for black
    assert sorted(value["M:N"]["b1"]) == ["a3", "c3", "d2"]
    assert value["M:R"]["a1"]["a3"] == [{"must": {"a2": "empty", "a3": "empty"}},
                                        {"must": {"a2": "empty", "a3": "enemy"}}]
    assert value["M:P"]["a3"] == {"a4": [{"must": {"a4": "empty"}}], "b4": [{"must": {"b4": "enemy"}}]}
    assert "a5" not in value["M:P"]["a3"]  # no double step
    assert value["m:p"]["h6"] == {"h5": [{"must": {"h5": "empty"}}], "g5": [{"must": {"g5": "enemy"}}]}
    assert "e1" not in value["M:K^"]["d1"]["c1"][0]["must"]  # no castling


def test_registry_and_start() -> None:
    assert "makruk" in games.names()
    assert games.start("makruk") == START
    assert games.ruleset("makruk") == ruleset()  # the registry's, made from its description
    assert Feen.parse(START).active == "first"
    moves = ruleset().moves(Position.from_feen(START))
    assert len(moves) == 23
    assert pairs(moves) == their_pairs(START_FEN)


# --- FEN -------------------------------------------------------------------------------------
def test_from_fen() -> None:
    assert from_fen(START_FEN) == START
    assert from_fen("8/8/3M4/8/3k4/8/8/K7 b - - 0 40") == "8/8/3M4/8/3k^4/8/8/K^7 / m/M"
    # A met promoted from a bia is a met: a '~' after it is read and dropped.
    assert from_fen("8/8/3m~4/8/3k4/8/8/K7 w") == "8/8/3m4/8/3k^4/8/8/K^7 / M/m"


@pytest.mark.parametrize(("fen", "reason"), [
    ("", "expected the placement and the side to move"),
    ("8/8/8/8/8/8/8 w", "expected 8 ranks"),
    ("8/8/8/8/8/8/8/7q w", "rank 1 '7q' is not made of piece letters"),
    ("8/8/8/8/8/8/8/45 w", "rank 1 '45' covers 9 squares, not 8"),
    ("8/8/8/8/8/8/8/7R~ w", "only a met is promoted in makruk, not 'R'"),
    ("8/8/8/8/8/8/8/8 r", "the side to move is 'w' or 'b'"),
])
def test_from_fen_errors(fen: str, reason: str) -> None:
    with pytest.raises(NotationError, match=reason) as caught:
        from_fen(fen)
    assert caught.value.notation == "FEN"
    assert caught.value.text == fen


def test_from_fen_adds_up_gaps() -> None:
    # FEN never writes two digits in a row, but if it does, FEEN must not read "44" as 44.
    assert from_fen("8/8/8/8/8/8/8/44 w") == "8/8/8/8/8/8/8/8 / M/m"


# --- the oracle: random games ---------------------------------------------------------------
def test_random_positions_against_pyffish(positions: list[Game]) -> None:
    count = len(positions)
    seen: Counter[str] = Counter()
    for fen in positions:
        feen = feen_of(fen)
        assert from_fen(fen) == feen
        assert str(Feen.parse(feen)) == feen
        position = Position.from_feen(feen)
        moves = ruleset().moves(position)
        theirs = their_pairs(fen)
        # No difference is allowed: a bia's step onto its sixth rank is one pair in both (the
        # engine promotes it in the same move, our rule system will).
        assert_same_moves([(str(m.source), str(m.destination)) for m in moves], theirs, fen)
        for move in moves:
            name = move.piece.name.lower()
            if name == "p" and str(move.destination)[1] in "63":
                seen["promotion"] += 1
            taken = position.piece_at(str(move.destination))
            if taken is not None and taken.terminal:
                seen["capture of a king"] += 1
        seen["moves"] += len(moves)
    # The games go through the cases that matter, so the comparison above means something.
    assert seen["promotion"] >= count // 5
    assert seen["capture of a king"] >= count // 100


def test_compiled_moves_match_plain_evaluation(positions: list[Game]) -> None:
    sample = [Position.from_feen(feen_of(fen)) for fen in positions[::REFERENCE_EVERY]]
    assert assert_compiled_matches_plain(ruleset(), sample) >= len(positions) // REFERENCE_EVERY
