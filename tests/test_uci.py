"""Moves in Fairy-Stockfish's UCI strings (ggn.variants.uci), checked against pyffish: along
seeded random games (pyffish choosing the moves), the UCI strings of a rule system's legal plays
are, as a set, the ones ``pyffish.legal_moves`` gives, and each reads back to its play.

The rule systems are the games' own (chess, shogi, xiangqi, makruk); the positions come from
pyffish's FEN through :func:`ggn.variants.fen.to_feen`. By default a seeded subset of the games
runs; ``pytest -m full`` runs more.
"""

from __future__ import annotations

import random

import pytest

from fsf_fen_variants import VARIANTS
from ggn.cell import HAND, Cell
from ggn.errors import GGNError, IllegalMoveError
from ggn.move import Move
from ggn.qpi import Qpi
from ggn.rules import Play, RuleSystem, rule_system
from ggn.ruleset import Ruleset
from ggn.stn import Transition
from ggn.variants import registry
from ggn.variants.description import Castling, PieceType, Variant
from ggn.variants.fen import to_feen
from ggn.variants.pieces import Game, Movement, Piece, build
from ggn.variants.uci import moves, parse, write

pytest.importorskip("pyffish")
import pyffish

SEED = 20261124
GAMES = ("chess", "shogi", "xiangqi", "makruk")


def _check_games(name: str, games: int, plies: int, seed: int) -> int:
    variant, rules = VARIANTS[name], rule_system(name)
    rng = random.Random(f"{seed}:{name}")
    checked = 0
    for _ in range(games):
        fen = pyffish.start_fen(name)
        for _ in range(plies):
            legal = pyffish.legal_moves(name, fen, [])
            position = rules.position(to_feen(variant, fen))
            named = moves(rules, position, variant=variant)
            assert set(named) == set(legal), fen
            checked += 1
            if not legal:
                break
            move = rng.choice(sorted(legal))
            assert write(variant, parse(rules, position, move, variant=variant), position=position) == move
            fen = pyffish.get_fen(name, fen, [move])
    return checked


@pytest.mark.parametrize("name", GAMES)
def test_legal_moves_as_pyffish_writes_them(name: str) -> None:
    assert _check_games(name, 1, 40, SEED) > 20


@pytest.mark.full
@pytest.mark.parametrize("name", GAMES)
def test_legal_moves_as_pyffish_writes_them_full(name: str) -> None:
    assert _check_games(name, 20, 200, SEED + 1) > 1000


# --- the strings --------------------------------------------------------------------------------
def _strings(name: str, fen: str) -> set[str]:
    variant, rules = VARIANTS[name], rule_system(name)
    return set(moves(rules, rules.position(to_feen(variant, fen)), variant=variant))


def test_promotion_castling_and_ranks_past_nine() -> None:
    chess = _strings("chess", "r3k3/1P6/8/8/8/8/8/R3K2R w KQq - 0 1")
    assert {"b7b8q", "b7b8n", "b7a8r", "e1g1", "e1c1"} <= chess
    assert not {"e1h1", "e1a1", "b7b8"} & chess
    xiangqi = _strings("xiangqi", pyffish.start_fen("xiangqi"))
    assert {"b3b10", "h3h10", "a1a3"} <= xiangqi


def test_drops_and_shogi_promotions() -> None:
    fen = "4k4/9/9/9/4P4/9/9/9/4K4[Pp] w - - 0 1"
    shogi = _strings("shogi", fen)
    assert shogi == set(pyffish.legal_moves("shogi", fen, []))
    assert {"P@a2", "e5e6"} <= shogi
    fen = "4k4/9/4P4/9/9/9/9/9/4K4[] w - - 0 1"
    shogi = _strings("shogi", fen)
    assert {"e7e8", "e7e8+"} <= shogi


def test_parse_names_the_play() -> None:
    rules = rule_system("chess")
    variant = VARIANTS["chess"]
    position = rules.position(to_feen(variant, "r3k3/1P6/8/8/8/8/8/R3K2R w KQq - 0 1"))
    assert str(parse(rules, position, "b7a8n", variant=variant)) == "C:P b7-a8=C:N"
    assert str(parse(rules, position, "e1g1", variant=variant)) == "C:+K^ e1-g1"
    assert str(parse(rules, position.to_feen(), "e1c1", variant=variant)) == "C:+K^ e1-c1"


@pytest.mark.parametrize("text", ["e1e3", "b7b8", "b7b8k", "zz", "", "P@e4"])
def test_an_illegal_or_unknown_string_lists_the_legal_ones(text: str) -> None:
    rules = rule_system("chess")
    variant = VARIANTS["chess"]
    position = rules.position(to_feen(variant, "r3k3/1P6/8/8/8/8/8/R3K2R w KQq - 0 1"))
    with pytest.raises(IllegalMoveError) as caught:
        parse(rules, position, text, variant=variant)
    message = str(caught.value)
    assert message.startswith(f"{text!r} is not a legal move of chess in ")
    assert "legal moves: a1a2, a1a3, a1a4, " in message


def test_wrong_types() -> None:
    rules = rule_system("chess")
    variant = VARIANTS["chess"]
    position = rules.position()
    with pytest.raises(TypeError, match="text must be a str"):
        parse(rules, position, 4, variant=variant)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="rules must be a RuleSystem"):
        parse("chess", position, "e2e4", variant=variant)  # type: ignore[arg-type]
    rook = Piece("R", (Movement(((0, 1),), last=None),))
    bare = RuleSystem(Ruleset.from_value(build(Game("tiny", 1, 3, "C", (rook,), "r/1/R / C/c"))))
    with pytest.raises(TypeError, match="variant must be given"):
        parse(bare, "r/1/R / C/c", "a1a2")  # a rule system made without a description
    with pytest.raises(TypeError, match="play must be a Play"):
        write(variant, "C:P e2-e4")  # type: ignore[arg-type]


# --- castling written as the king onto its rook ---------------------------------------------------
_KING = Movement(((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)))


def _variant(chess960: bool) -> Variant:
    pieces = (PieceType("k", (_KING,)), PieceType("r", ()))
    return Variant("castle", 8, 8, pieces, "8/8/8/8/8/8/8/8 w - - 0 1", castling=Castling(),
                   chess960=chess960)


def _play(board: dict[str, str | None], source: str, destination: str) -> Play:
    king = Qpi.parse("C:+K^")
    changes = {Cell.parse(cell): None if piece is None else Qpi.parse(piece) for cell, piece in board.items()}
    transition = Transition(changes, None, None, True)
    return Play(king, Cell.parse(source), Cell.parse(destination), None, transition,
                Move(king, Cell.parse(source), Cell.parse(destination), ()))


def test_castling_in_chess960_is_the_king_onto_its_rook() -> None:
    # King b1, rooks a1 and h1: queenside, the king goes to c1 and the rook to d1.
    play = _play({"b1": None, "a1": None, "c1": "C:K^", "d1": "C:R", "h1": "C:R"}, "b1", "c1")
    assert write(_variant(True), play) == "b1a1"
    # Not chess960: a king's step reaches c1 from b1 as well, so the castling goes onto the rook.
    assert write(_variant(False), play) == "b1a1"
    play = _play({"e1": None, "h1": None, "g1": "C:K^", "f1": "C:R", "a1": "C:R"}, "e1", "g1")
    assert write(_variant(False), play) == "e1g1"
    assert write(_variant(True), play) == "e1h1"


def test_castling_whose_rook_stays_or_stands_on_the_kings_square_needs_the_position() -> None:
    rules = rule_system("chess")
    variant = _variant(True)
    # King e1, rook f1 (it stays) or g1 (it goes to f1): the play alone is the same.
    play = _play({"e1": None, "g1": "C:K^", "f1": "C:R"}, "e1", "g1")
    with pytest.raises(GGNError, match="which rook castles is not told by the play alone"):
        write(variant, play)
    stays = rules.position("4k^3/8/8/8/8/8/8/4+K^+R2 / C/c")
    moves_over = rules.position("4k^3/8/8/8/8/8/8/4+K^1+R1 / C/c")
    assert write(variant, play, position=stays) == "e1f1"
    assert write(variant, play, position=moves_over) == "e1g1"


def test_demotion_and_promoted_drops() -> None:
    variant = VARIANTS["shogi"]
    silver, promoted = Qpi.parse("S:+S"), Qpi.parse("S:S")
    a1, b2 = Cell.parse("a1"), Cell.parse("b2")
    demote = Play(silver, a1, b2, promoted, Transition({a1: None, b2: promoted}, None, None, True),
                  Move(silver, a1, b2, ()))
    assert write(variant, demote) == "a1b2-"
    drop = Play(silver, HAND, b2, None, Transition({b2: silver}, {silver: -1}, None, True),
                Move(silver, HAND, b2, ()))
    assert write(variant, drop) == "+S@b2"


# --- the built-in variants, on the generic rule system -------------------------------------------
# Castling onto the rook (chess960, 10 files), drops, horde's pawns on the first rank, berolina's
# diagonal double steps, a royal knight (the larger boards cost most in building their tables).
_SAMPLE = ["caparandom", "crazyhouse", "fischerandom", "horde", "berolina", "knightmate"]


def _check_builtin(name: str, games: int, plies: int, seed: int) -> None:
    variant, rules = registry.variant(name), registry.rules(name)
    rng = random.Random(f"{seed}:{name}")
    for _ in range(games):
        fen = pyffish.get_fen(name, pyffish.start_fen(name), [])
        for _ in range(plies):
            legal = pyffish.legal_moves(name, fen, [])
            position = rules.position(to_feen(variant, fen))
            assert set(moves(rules, position)) == set(legal), fen
            if not legal:
                break
            fen = pyffish.get_fen(name, fen, [rng.choice(sorted(legal))])


@pytest.mark.parametrize("name", _SAMPLE)
def test_builtin_variants_as_pyffish_writes_them(name: str) -> None:
    _check_builtin(name, 1, 12, SEED)


@pytest.mark.full
@pytest.mark.parametrize("name", sorted(name for name in registry.names() if name in pyffish.variants()))
def test_builtin_variants_as_pyffish_writes_them_full(name: str) -> None:
    try:
        registry.rules(name)
    except GGNError as error:
        pytest.skip(str(error))  # a variant the rule system does not play yet says which rule
    _check_builtin(name, 4, 100, SEED + 2)
