"""The command line speaks as players do (issue 17, items 2 and 5): ``ggn play`` reads moves in
any notation without a flag (SAN, UCI, USI, GGN's) and writes them in the game's own notation,
the position in the game's FEN, and how the game ended or may end; ``ggn legal`` and ``ggn
perft --divide`` write SAN by default and any notation with ``--notation``.

Checked end to end through :func:`ggn.cli.run` against libraries no one here wrote: python-chess
(SAN, FEN, the ends of a chess game), python-shogi (USI) and pyffish (its FEN, its ``get_san``
in each notation, ``is_immediate_game_end`` and ``is_optional_game_end``)."""

from __future__ import annotations

import io
import json
import random
import re

import chess
import pytest
import shogi.CSA
import shogi.KIF

from ggn.cli import run
from ggn.cli._arguments import NOTATIONS

sf = pytest.importorskip("pyffish")

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def split(ci: list[object], full: list[object]) -> list[object]:
    """Parameters of a test: those the default run takes, then those only the full run adds."""
    return [*ci, *(pytest.param(value, marks=pytest.mark.full) for value in full)]


def call(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = run(list(argv), out, err)
    return status, out.getvalue(), err.getvalue()


def played(*argv: str) -> dict[str, object]:
    status, out, err = call("play", *argv, "--format", "json")
    assert (status, err) == (0, ""), argv
    answer: dict[str, object] = json.loads(out)
    return answer


def random_board(rng: random.Random, plies: int) -> chess.Board:
    board = chess.Board()
    for _ in range(plies):
        if board.is_game_over(claim_draw=False):
            break
        board.push(rng.choice(list(board.legal_moves)))
    return board


def test_the_parser_names_every_notation_of_ggn_notation() -> None:
    from ggn.notation import NAMES  # noqa: PLC0415

    assert sorted(NOTATIONS) == sorted(NAMES)


# --- chess, against python-chess ----------------------------------------------------------------
@pytest.mark.parametrize("seed", split(list(range(3)), list(range(3, 40))))
def test_play_of_a_random_games_san_gives_python_chess_fen(seed: int) -> None:
    rng = random.Random(f"play san {seed}")
    board = random_board(rng, rng.randrange(20, 120))
    sans = []
    replay = chess.Board()
    for move in board.move_stack:
        sans.append(replay.san(move))
        replay.push(move)
    answer = played("chess", *sans)
    assert answer["fen"] == board.fen()
    assert answer["moves"] == sans
    # The same game given in UCI, and in SAN without its check marks, plays the same.
    assert played("chess", *(move.uci() for move in board.move_stack))["moves"] == sans
    assert played("chess", *(san.rstrip("+#") for san in sans))["fen"] == board.fen()
    ended = board.outcome(claim_draw=False)
    if ended is not None and ended.termination in (chess.Termination.CHECKMATE, chess.Termination.STALEMATE):
        assert answer["outcome"] == {"result": ended.result(), "reason": ended.termination.name.lower()}
    elif ended is None:
        assert answer["outcome"] is None


def test_play_text_shows_fen_and_san_and_the_seeds_forms_are_one_flag_away() -> None:
    status, out, err = call("play", "chess", "e4", "e5", "Nf3")
    board = chess.Board()
    for san in ("e4", "e5", "Nf3"):
        board.push_san(san)
    assert (status, out, err) == (0, f"{board.fen()}\ne4 e5 Nf3\n", "")
    status, out, _ = call("play", "chess", "e4", "e5", "Nf3", "--notation", "ggn", "--to", "feen")
    assert out == ("+rnbq+k^bn+r/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/+RNBQ+K^B1+R / c/C\n"
                   "C:P e2-e4, c:p e7-e5, C:N g1-f3\n")
    answer = played("chess", "e4", "e5", "Nf3")
    assert (answer["fen"], answer["feen"]) == (board.fen(), "+rnbq+k^bn+r/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/"
                                                            "+RNBQ+K^B1+R / c/C")
    assert played("chess", "e4", "e5", "Nf3", "--notation", "uci")["moves"] == ["e2e4", "e7e5", "g1f3"]
    assert played("chess", "e4", "e5", "Nf3", "--notation", "lan")["moves"] == ["e2-e4", "e7-e5", "Ng1-f3"]
    # Tolerant reading, as python-chess's parse_san: castling with zeros, a promotion without
    # '=', a fully disambiguated piece move, check marks.
    tolerant = played("chess", "--fen", "r3k3/1P6/8/8/8/8/8/R3K2R w KQq - 0 1", "0-0", "Kd8", "b8Q")
    board = chess.Board("r3k3/1P6/8/8/8/8/8/R3K2R w KQq - 0 1")
    for san in ("O-O", "Kd8", "b8=Q+"):
        board.push_san(san)
    assert (tolerant["moves"], tolerant["fen"]) == (["O-O", "Kd8", "b8=Q+"], board.fen())
    assert played("chess", "Ng1f3", "Ng8-f6")["moves"] == ["Nf3", "Nf6"]


@pytest.mark.parametrize("seed", split(list(range(3)), list(range(3, 30))))
def test_legal_and_divide_in_san_equal_python_chess(seed: int) -> None:
    board = random_board(random.Random(f"legal san {seed}"), 30 + 10 * seed)
    expected = sorted(board.san(move) for move in board.legal_moves)
    status, out, _ = call("legal", "chess", "--fen", board.fen(), "--notation", "san", "--format", "json")
    assert (status, sorted(json.loads(out))) == (0, expected)
    status, out, _ = call("legal", "chess", "--fen", board.fen())
    assert sorted(out.split()) == expected  # SAN, the default
    status, out, _ = call("legal", "chess", "--fen", board.fen(), "--format", "json")
    listed = json.loads(out)
    assert sorted(move["san"] for move in listed) == expected
    assert sorted(move["uci"] for move in listed) == sorted(move.uci() for move in board.legal_moves)
    status, out, _ = call("perft", "chess", "2", "--fen", board.fen(), "--divide", "--format", "json")
    divided = json.loads(out)["divide"]
    assert sorted(divided) == expected
    for move in board.legal_moves:
        san = board.san(move)
        board.push(move)
        assert divided[san] == board.legal_moves.count(), san
        board.pop()


def test_a_game_ends_by_checkmate_and_by_stalemate() -> None:
    mate = played("chess", "f3", "e5", "g4", "Qh4#")
    assert mate["outcome"] == {"result": "0-1", "reason": "checkmate"} and mate["claim"] is None
    # Sam Loyd's ten-move stalemate.
    loyd = ["e3", "a5", "Qh5", "Ra6", "Qxa5", "h5", "h4", "Rah6", "Qxc7", "f6", "Qxd7+", "Kf7", "Qxb7", "Qd3",
            "Qxb8", "Qh7", "Qxc8", "Kg6", "Qe6"]
    board = chess.Board()
    for san in loyd:
        board.push_san(san)
    assert board.is_stalemate()
    answer = played("chess", *loyd)
    assert (answer["fen"], answer["outcome"]) == (board.fen(), {"result": "1/2-1/2", "reason": "stalemate"})
    status, out, _ = call("play", "chess", *loyd)
    assert out.splitlines()[-1] == "1/2-1/2 draw by stalemate"
    status, _, err = call("play", "chess", *loyd, "Kh5")
    assert (status, err) == (1, "ggn play: move 20, 'Kh5', comes after the end of the game (draw by "
                                "stalemate)\n")


def test_a_repetition_and_the_n_move_rule_may_be_claimed() -> None:
    shuffle = ["Nf3", "Nf6", "Ng1", "Ng8"] * 2
    board = chess.Board()
    for san in shuffle:
        board.push_san(san)
    assert board.is_repetition(3)
    answer = played("chess", *shuffle)
    assert answer["outcome"] is None
    assert answer["claim"] == {"result": "1/2-1/2", "reason": "repetition"}
    assert played("chess", *shuffle[:-1])["claim"] is None
    _, out, _ = call("play", "chess", *shuffle)
    assert out.splitlines()[-1] == "the player to move may claim: 1/2-1/2 draw by repetition"
    # The fifty-move rule: a hundredth halfmove without a capture or a pawn's move.
    fen = "4k3/8/8/8/8/8/8/R3K3 w Q - 99 80"
    board = chess.Board(fen)
    board.push_san("Ra7")
    assert board.can_claim_fifty_moves()
    answer = played("chess", "--fen", fen, "Ra7")
    assert (answer["fen"], answer["outcome"]) == (board.fen(), None)
    assert answer["claim"] == {"result": "1/2-1/2", "reason": "the n-move rule"}
    assert played("chess", "--fen", fen, "Kd1")["claim"] is not None
    assert played("chess", "--fen", fen.replace(" 99 ", " 98 "), "Ra7")["claim"] is None


def _reverse(move: str) -> str:
    source, destination = re.fullmatch(r"([a-z][0-9]+)([a-z][0-9]+)", move).groups()  # type: ignore[union-attr]
    return destination + source


def _cycle(variant: str, start: str, moves: list[str]) -> list[str] | None:
    """Four plain moves (no drop, no promotion) that bring the position back: a move of each
    side, and each one back."""
    plain = re.compile(r"[a-z][0-9]+[a-z][0-9]+")
    for first in sorted(sf.legal_moves(variant, start, moves)):
        if not plain.fullmatch(first):
            continue
        for second in sorted(sf.legal_moves(variant, start, [*moves, first])):
            if not plain.fullmatch(second):
                continue
            cycle = [first, second, _reverse(first), _reverse(second)]
            if all(cycle[ply] in sf.legal_moves(variant, start, [*moves, *cycle[:ply]]) for ply in (2, 3)):
                return cycle
    return None


def _result(value: int, moves: list[str], variant: str, start: str) -> str:
    """pyffish's game value (for the player to move) as a result."""
    if value == 0:
        return "1/2-1/2"
    first_to_move = sf.get_fen(variant, start, moves).split(" ")[1] == "w"
    return "1-0" if (value > 0) == first_to_move else "0-1"


@pytest.mark.parametrize("variant", split(["chess", "shogi"], [
    "xiangqi", "makruk", "crazyhouse", "capablanca", "minishogi", "shatranj", "minixiangqi"]))
def test_the_ends_equal_pyffishs_in_a_game_driven_into_repetition(variant: str) -> None:
    """A random opening, then four moves that bring the position back, again and again: at
    each ply, play's outcome and claim say what pyffish's is_immediate_game_end and
    is_optional_game_end say, with the same result."""
    rng = random.Random(f"repetition {variant}")
    start = sf.start_fen(variant)
    moves: list[str] = []
    for _ in range(6):
        moves.append(rng.choice(sorted(sf.legal_moves(variant, start, moves))))
    cycle = _cycle(variant, start, moves)
    assert cycle is not None
    ended = 0
    for ply in range(4 * 4):
        moves.append(cycle[ply % 4])
        answer = played(variant, *moves, "--notation", "uci")
        immediate, value = sf.is_immediate_game_end(variant, start, moves)
        optional, claimed = sf.is_optional_game_end(variant, start, moves)
        outcome, claim = answer["outcome"], answer["claim"]
        assert (outcome is not None) == immediate, moves
        if immediate:
            assert isinstance(outcome, dict) and outcome["result"] == _result(value, moves, variant, start)
            ended += 1
            break
        assert (claim is not None) == optional, moves
        if optional:
            assert isinstance(claim, dict) and claim["result"] == _result(claimed, moves, variant, start)
            ended += 1
    assert ended, moves  # the game was driven to an end


def test_illegal_and_ambiguous_san_are_invalid_input_naming_the_candidates() -> None:
    status, out, err = call("play", "chess", "e4", "Ke2", "e5")
    assert (status, out) == (1, "")
    assert err.startswith("ggn play: move 2: 'Ke2' is not a legal move of chess")
    assert "legal moves: " in err and "Nc6" in err and err.count("\n") == 1
    status, _, err = call("play", "chess", "--fen", "k7/8/8/8/8/8/8/1N1K1N2 w - - 0 1", "Nd2")
    assert status == 1 and err.startswith("ggn play: move 1: 'Nd2' is ambiguous")
    assert "Nbd2" in err and "Nfd2" in err
    assert played("chess", "--fen", "k7/8/8/8/8/8/8/1N1K1N2 w - - 0 1", "Nfd2")["moves"] == ["Nfd2"]
    status, _, err = call("play", "chess", "Nf6")
    assert status == 1 and "'Nf6' is not a legal move" in err


# --- shogi, xiangqi: USI and Fairy-Stockfish's named notations -----------------------------------
def usi_to_uci(move: str) -> str:
    """A USI move as Fairy-Stockfish's UCI writes it (written here from the two definitions: USI
    numbers files 9 to 1 from the first player's left and letters ranks a to i from the far
    side; Fairy-Stockfish letters files a to i and numbers ranks 1 to 9 from the near side)."""
    def square(text: str) -> str:
        return "abcdefghi"[9 - int(text[0])] + str(9 - "abcdefghi".index(text[1]))
    if move[1] == "*":
        return f"{move[0]}@{square(move[2:4])}"
    return square(move[:2]) + square(move[2:4]) + move[4:]


def test_play_shogi_in_usi() -> None:
    answer = played("shogi", "7g7f", "3c3d")
    uci = [usi_to_uci(move) for move in ("7g7f", "3c3d")]
    start = sf.start_fen("shogi")
    assert answer["fen"] == sf.get_fen("shogi", start, uci)
    assert answer["moves"] == [sf.get_san("shogi", sf.get_fen("shogi", start, uci[:ply]), move)
                               for ply, move in enumerate(uci)]
    assert answer["moves"] == ["P-76", "P-34"]


@pytest.mark.parametrize("seed", split([0], list(range(1, 20))))
def test_a_random_shogi_game_in_usi_equals_python_shogi_and_pyffish(seed: int) -> None:
    rng = random.Random(f"usi {seed}")
    board = shogi.Board()
    usi: list[str] = []
    for _ in range(rng.randrange(30, 90)):
        if board.is_game_over():
            break
        move = rng.choice(sorted(board.legal_moves, key=str))
        usi.append(move.usi())
        board.push(move)
    uci = [usi_to_uci(move) for move in usi]
    start = sf.start_fen("shogi")
    answer = played("shogi", *usi, "--notation", "usi")
    assert answer["moves"] == usi
    assert answer["fen"] == sf.get_fen("shogi", start, uci)
    written = played("shogi", *usi)["moves"]
    assert written == [sf.get_san("shogi", sf.get_fen("shogi", start, uci[:ply]), move)
                       for ply, move in enumerate(uci)]


@pytest.mark.parametrize(("variant", "notation", "named"), [
    ("xiangqi", "wxf", "NOTATION_XIANGQI_WXF"), ("makruk", "thai-san", "NOTATION_THAI_SAN"),
    ("shogi", "shogi-hosking", "NOTATION_SHOGI_HOSKING"),
    *(pytest.param(*named, marks=pytest.mark.full) for named in (
        ("xiangqi", "janggi", "NOTATION_JANGGI"), ("capablanca", "lan", "NOTATION_LAN"),
        ("makruk", "thai-lan", "NOTATION_THAI_LAN"), ("shogi", "shogi-hodges", "NOTATION_SHOGI_HODGES"),
        ("minishogi", "shogi-hodges-number", "NOTATION_SHOGI_HODGES_NUMBER"),
        ("crazyhouse", "san", "NOTATION_SAN"), ("shatranj", "san", "NOTATION_SAN")))])
def test_a_random_game_in_a_named_notation_equals_pyffish(variant: str, notation: str, named: str) -> None:
    rng = random.Random(f"{variant} {notation}")
    start = sf.start_fen(variant)
    moves: list[str] = []
    for _ in range(40):
        legal = sf.legal_moves(variant, start, moves)
        if not legal or sf.is_immediate_game_end(variant, start, moves)[0]:
            break
        moves.append(rng.choice(sorted(legal)))
    expected = [sf.get_san(variant, sf.get_fen(variant, start, moves[:ply]), move, False, getattr(sf, named))
                for ply, move in enumerate(moves)]
    answer = played(variant, *moves, "--notation", notation)
    assert answer["moves"] == expected
    # What is written is read back: the game replayed from its moves in that notation.
    assert played(variant, *expected)["fen"] == answer["fen"] == sf.get_fen(variant, start, moves)


def test_a_notation_a_document_lacks_is_a_usage_error() -> None:
    rook = "tests/vectors/ggn/valid/spec-11.2-move-or-capture.json"
    status, _, err = call("play", rook, "r7/8/8/8/8/8/8/R7 / C/c", "C:R a1-a4", "--notation", "san")
    assert status == 2 and "--notation san writes a built-in game's moves" in err
    status, out, _ = call("play", rook, "r7/8/8/8/8/8/8/R7 / C/c", "C:R a1-a4", "--format", "json")
    assert json.loads(out)["moves"] == ["C:R a1-a4"] and json.loads(out)["fen"] is None


# --- play --record: the game as a record, read by other libraries ---------------------------------
@pytest.mark.parametrize("seed", range(2))
def test_play_record_pgn_is_read_by_python_chess(seed: int) -> None:
    import chess.pgn  # noqa: PLC0415

    board = random_board(random.Random(f"record pgn {seed}"), 80)
    status, out, err = call("play", "chess", *(move.uci() for move in board.move_stack), "--record", "pgn")
    assert (status, err) == (0, "")
    read = chess.pgn.read_game(io.StringIO(out))
    assert read is not None and not read.errors
    assert list(read.mainline_moves()) == board.move_stack
    assert read.end().board().fen() == board.fen()
    ended = board.outcome(claim_draw=False)
    decided = ended is not None and ended.termination in (chess.Termination.CHECKMATE,
                                                          chess.Termination.STALEMATE)
    assert read.headers["Result"] == (ended.result() if decided and ended is not None else "*")


@pytest.mark.parametrize("form", ["kif", "csa"])
def test_play_record_kif_and_csa_are_read_by_python_shogi(form: str) -> None:
    rng = random.Random(f"record {form}")
    board = shogi.Board()
    usi: list[str] = []
    for _ in range(60):
        if board.is_game_over():
            break
        move = rng.choice(sorted(board.legal_moves, key=str))
        usi.append(move.usi())
        board.push(move)
    status, out, err = call("play", "shogi", *usi, "--record", form)
    assert (status, err) == (0, "")
    parser = shogi.KIF.Parser if form == "kif" else shogi.CSA.Parser
    (read,) = parser.parse_str(out)
    assert read["moves"] == usi
    replay = shogi.Board(read["sfen"])
    for move in read["moves"]:
        replay.push_usi(move)
    assert replay.sfen() == board.sfen()


def test_play_record_is_refused_where_it_cannot_be_written() -> None:
    status, _, err = call("play", "chess", "e4", "--record", "pgn", "--format", "json")
    assert (status, err) == (2, "ggn play: --record prints the game as a record, not JSON: give --record or "
                                "--format json\n")
    rook = "tests/vectors/ggn/valid/spec-11.2-move-or-capture.json"
    status, _, err = call("play", rook, "r7/8/8/8/8/8/8/R7 / C/c", "C:R a1-a4", "--record", "pgn")
    assert status == 2 and err.startswith("ggn play: --record pgn writes a built-in game's moves")
    status, _, err = call("play", "chess", "e4", "--record", "kif")
    assert status == 1 and "KIF and CSA record games of shogi's pieces" in err
