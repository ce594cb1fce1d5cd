"""ggn.game.Game: playing and undoing, positions and FEN at every ply, and the history rules.

The rules are checked against Fairy-Stockfish in tests/test_game_fsf.py; these are the unit
tests of the interface, and of a variant of ``--ini`` text with history options of its own.
"""

from __future__ import annotations

import pytest

from ggn.errors import GGNError, IllegalMoveError
from ggn.game import Game
from ggn.rules import Ending, Outcome, RuleSystem, rule_system
from ggn.variants import registry
from ggn.variants.registry import Catalogue

KNIGHTS = ["g1f3", "g8f6", "f3g1", "f6g8"]


def test_push_pop_and_the_positions_of_every_ply() -> None:
    game = Game("chess")
    assert (len(game), game.plays, game.halfmove, game.fullmove) == (0, (), 0, 1)
    first = game.push("e2e4")
    second = game.push("c:p e7-e5")
    assert str(first) == "C:P e2-e4" and game.plays == (first, second)
    assert game.fen() == "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    assert game.fen(0) == registry.variant("chess").start
    assert game.fen(1) == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    assert game.position_at(1).to_feen() == game.feen(1)
    assert game.position is game.position_at(2) and game.start is game.position_at(0)
    assert game.push(game.legal_moves()[0]) in game.plays
    assert game.pop() not in game.plays
    assert game.pop() == second and game.pop() == first
    assert game.fen() == registry.variant("chess").start
    with pytest.raises(GGNError, match="no play to undo"):
        game.pop()
    with pytest.raises(GGNError, match=r"ply 3 is not one of the game's: 0 \(the start\) to 0"):
        game.fen(3)


def test_the_counters_follow_fairy_stockfish() -> None:
    game = Game("chess", fen="r3k3/8/8/8/8/8/4P3/R3K3 b Qq - 7 31")
    assert (game.halfmove, game.fullmove) == (7, 31)
    game.push("a8a7")
    assert (game.halfmove, game.fullmove) == (8, 32)
    game.push("e2e4")  # a pawn's move
    assert game.halfmove == 0
    game.push("a7a1")  # a capture
    assert game.fen() == "4k3/8/8/8/4P3/8/8/r3K3 w - - 0 33"
    start = Game("chess", "4k^3/8/8/8/8/8/8/4K^2R / c/C", halfmove=3, fullmove=9)
    assert start.fen() == "4k3/8/8/8/8/8/8/4K2R b - - 3 9"


def test_an_illegal_move_names_the_move_and_some_legal_ones() -> None:
    game = Game("chess")
    with pytest.raises(IllegalMoveError) as caught:
        game.push("e2e5")
    message = str(caught.value)
    assert message.startswith("'e2e5' is not a legal move at ply 0 of this chess game (rnbqkbnr/")
    assert "w KQkq - 0 1); legal moves: Na3, Nc3, Nf3, Nh3, a3" in message
    assert len(message) < 300
    with pytest.raises(IllegalMoveError, match=r"^'x{40}'\.\.\. \(100,000 characters\) is not a legal move"):
        game.push("x" * 100_000)
    # Any notation: SAN, UCI, GGN.
    for text in ("e4", "e7e5", "C:N g1-f3", "Nc6"):
        game.push(text)
    assert [str(play) for play in game.plays] == ["C:P e2-e4", "c:p e7-e5", "C:N g1-f3", "c:n b8-c6"]
    for _ in range(4):
        game.pop()
    other = Game("chess")
    other.push("e2e4")
    with pytest.raises(IllegalMoveError, match=r"^'c:.* is not a legal move at ply 0 of this chess game"):
        game.push(other.legal_moves()[0])  # a play of the second player's
    assert len(game) == 0


def test_wrong_arguments() -> None:
    with pytest.raises(TypeError, match=r"^rules must be a game.s name or a RuleSystem, got int$"):
        Game(3)  # type: ignore[arg-type]
    with pytest.raises(GGNError, match="not both"):
        Game("chess", "8/8/8/8/8/8/8/8 / C/c", fen=registry.variant("chess").start)
    with pytest.raises(GGNError, match="move counters"):
        Game("chess", halfmove=-1)
    with pytest.raises(GGNError, match="no game 'go'"):
        Game("go")


def test_repetition_is_claimed_not_an_outcome() -> None:
    game = Game("chess")
    for move in KNIGHTS:
        game.push(move)
    assert game.claim() is None  # twice
    for move in KNIGHTS:
        game.push(move)
    assert game.claim() == Outcome(None, Ending.REPETITION)
    assert (game.outcome(), game.result()) == (None, "*")
    game.push("e2e4")
    assert game.claim() is None


def test_a_pawn_move_between_breaks_the_repetition() -> None:
    game = Game("chess")
    for move in [*KNIGHTS, *KNIGHTS[:2], "e2e3", "e7e6", *KNIGHTS[2:], *KNIGHTS]:
        game.push(move)
    # The start position stood three times, but a pawn moved since the second: twice now.
    assert game.claim() is None
    for move in KNIGHTS:
        game.push(move)
    assert game.claim() == Outcome(None, Ending.REPETITION)


def test_shogi_perpetual_check_loses() -> None:
    # The black rook checks at every move, the white king steps between i5 and i6.
    game = Game("shogi", fen="4k4/9/9/9/r7K/9/9/9/9[] w - - 0 1")
    for _ in range(2):
        for move in ["i5i6", "a5a6", "i6i5", "a6a5"]:
            game.push(move)
    assert game.claim() is None  # three times
    for move in ["i5i6", "a5a6", "i6i5", "a6a5"]:
        game.push(move)
    assert game.claim() == Outcome("first", Ending.PERPETUAL_CHECK)  # the fourth: the checker loses


def test_checkmate_is_an_outcome_and_no_claim_beats_it() -> None:
    game = Game("chess", fen="7k/5Q2/6K1/8/8/8/8/8 w - - 120 90")
    assert game.claim() == Outcome(None, Ending.MOVE_RULE)
    game.push("f7g7")
    assert game.outcome() == Outcome("first", Ending.CHECKMATE)
    assert (game.claim(), game.result(), game.legal_moves()) == (None, "1-0", [])


def test_a_generic_rule_system_has_no_history_rules() -> None:
    chess = rule_system("chess")
    generic = RuleSystem(chess.ruleset, registry.start("chess"), (8, 8))
    game = Game(generic)
    assert game.variant is None
    for move in KNIGHTS * 3:
        game.push(f"{'C:N' if len(game) % 2 == 0 else 'c:n'} {move[:2]}-{move[2:]}")
    assert game.claim() is None and len(game) == 12
    assert game.moves()[:2] == ["C:N g1-f3", "c:n g8-f6"]  # a document's own notation only
    with pytest.raises(GGNError, match="notation"):
        game.moves("san")
    with pytest.raises(GGNError, match="has no FEN"):
        game.fen()
    with pytest.raises(GGNError, match="has no FEN"):
        Game(generic, fen=registry.variant("chess").start)


INI = """
[rushed:chess]
nMoveRule = 2
nFoldRule = 2
nFoldValue = win
nFoldValueAbsolute = true

[patient:rushed]
nMoveRule = 0
"""


def test_a_variant_of_ini_text_plays_its_history_options() -> None:
    catalogue = Catalogue()
    catalogue.add_ini(INI, source="rushed.ini")
    game = Game(catalogue.rules("rushed"))
    assert game.variant is not None and game.variant.history.n_move_rule == 2
    for move in ["g1f3", "g8f6", "f3g1"]:
        game.push(move)
    assert game.claim() is None
    game.push("f6g8")  # four plies without a capture or a pawn's move; the start repeated once
    assert game.claim() == Outcome(None, Ending.MOVE_RULE)
    # With no n-move rule, the repetition: a win for the first player, whoever is to move.
    patient = Game(catalogue.rules("patient"))
    for move in KNIGHTS:
        patient.push(move)
    assert patient.claim() == Outcome("first", Ending.REPETITION)
    patient.push("b1c3")
    for move in ["b8c6", "c3b1", "c6b8"]:
        patient.push(move)
    assert patient.claim() == Outcome("first", Ending.REPETITION)  # second to move


def test_xiangqi_perpetual_chasing_loses() -> None:
    # The red chariot chases the black horse between b6 and c4 at every move; the fourth time
    # the position stands (xiangqi repeats three times), black may claim the win (pyffish agrees).
    moves = ["e6e10", "c4e4", "e10e6", "e4e6", "b6c4", "e6e4", "c4b6", "e4e6", "b6c4", "e6e4", "c4b6",
             "e4e6"]
    game = Game("xiangqi", fen="3k5/9/9/9/1n2r4/9/2R6/9/9/4K4 b - - 0 1")
    for move in moves[:-4]:
        game.push(move)
        assert game.claim() is None
    for move in moves[-4:]:
        game.push(move)
    assert game.claim() == Outcome("second", Ending.CHASING)
    # Manchu plays xiangqi's rules without the chasing rule: a draw.
    assert game.variant is not None and game.variant.history.chasing_rule == "axf"
    assert registry.variant("manchu").history.chasing_rule is None


def test_makruk_counts_as_fairy_stockfish_writes_them() -> None:
    # A lone king counts to 16 moves against a rook (32 plies), from 8 plies on.
    game = Game("makruk", fen="8/8/3k4/8/8/2K5/8/R3M3 w - - 0 40")
    game.push("a1a2")
    assert game.fen() == "8/8/3k4/8/8/2K5/R7/4M3 b - 32 8 40" and game.halfmove == 8
    again = Game("makruk", fen=game.fen())  # the count read back from the FEN
    assert (again.fen(), again.halfmove) == (game.fen(), 8)
    for _ in range(6):
        for move in ["d6d5", "a2a1", "d5d6", "a1a2"]:
            again.push(move)
    assert (again.halfmove, again.claim()) == (32, Outcome(None, Ending.REPETITION))
    assert Game("makruk", fen="8/8/3k4/8/8/2K5/R7/4M3 b - 32 33 53").claim() == Outcome(None, Ending.COUNTING)


def test_a_fen_s_counters_are_its_own_and_bounded() -> None:
    with pytest.raises(GGNError, match="reads its move counters from the FEN"):
        Game("chess", fen=registry.variant("chess").start, halfmove=3)
    with pytest.raises(GGNError, match=r"a count's limit is at most 2,147,483,647"):
        Game("makruk", fen="8/8/3k4/8/8/2K5/R7/4M3 b - 99999999999 8 40")
    with pytest.raises(GGNError, match="a move counter is at most"):
        Game("chess", fen="4k3/8/8/8/8/8/8/4K3 w - - 0 " + "9" * 5000)


def test_the_moves_in_every_notation_are_fairy_stockfish_s() -> None:
    """Game.moves writes each play from the position it was made in: pyffish's SAN of the same
    move list (get_san_moves), and the UCI strings the game was played with."""
    pyffish = pytest.importorskip("pyffish")
    for name, played in (("chess", ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5c6", "d7c6", "e1g1"]),
                         ("xiangqi", ["h3e3", "h10g8", "h1g3", "i10h10"]),
                         ("shogi", ["c3c4", "g7g6", "b2h8+", "g9h8"])):
        game = Game(name)
        for move in played:
            game.push(move)
        start = registry.variant(name).start
        assert game.moves() == pyffish.get_san_moves(name, start, played), name
        assert game.moves("uci") == played, name
        assert game.moves("ggn") == [str(play) for play in game.plays], name
        # Written as the game goes, undone with it: pushes, pops and other plays after them.
        game = Game(name)
        for ply, move in enumerate(played, 1):
            game.push(move)
            assert game.moves() == pyffish.get_san_moves(name, start, played[:ply]), (name, ply)
        game.pop()
        game.pop()
        assert game.moves() == pyffish.get_san_moves(name, start, played[:-2]), name
        other = game.legal_moves()[-1]
        game.push(other)
        uci = game.moves("uci")
        assert game.moves() == pyffish.get_san_moves(name, start, uci), name
        listed = game.moves()
        listed.append("changed by the caller")
        assert game.moves() != listed  # a new list each call
    with pytest.raises(GGNError, match="no notation 'sun'"):
        game.moves("sun")
    with pytest.raises(TypeError):
        game.moves(3)  # type: ignore[arg-type]
