"""PGN against python-chess, which no one here wrote, both ways, and real files replayed.

- ggn writes the PGN of random games (seeded) of chess and of each variant both python-chess and
  ggn play (crazyhouse, king of the hill, horde, racing kings, atomic, Chess960, antichess,
  giveaway; python-chess's suicide castles where Fairy-Stockfish's does not): python-chess's
  ``chess.pgn.read_game`` reads it, with the variant's board from ``[Variant]``, without an
  error, and gets the same moves (as UCI) and the same end.
- python-chess writes the PGN of random games of the same games: ggn reads and replays it and
  gets the same moves, and the result python-chess states checked against ggn's end.
- the real files of tests/data/pgn (their source in its README) replay, every move checked,
  their stated results too.
"""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import Any

import pytest

from ggn import records
from ggn.game import Game
from ggn.records import RecordError
from ggn.records.pgn import write
from ggn.variants import uci

pytestmark = pytest.mark.slow  # not in the README's quick run: hundreds of random games written and replayed

chess = pytest.importorskip("chess")
chess_pgn = pytest.importorskip("chess.pgn")
chess_variant = pytest.importorskip("chess.variant")

DATA = Path(__file__).parent / "data" / "pgn"

# ggn's game -> python-chess's board class (and whether it is Chess960)
BOARDS: dict[str, tuple[Any, bool]] = {
    "chess": (chess.Board, False),
    "fischerandom": (chess.Board, True),
    "crazyhouse": (chess_variant.CrazyhouseBoard, False),
    "kingofthehill": (chess_variant.KingOfTheHillBoard, False),
    "horde": (chess_variant.HordeBoard, False),
    "racingkings": (chess_variant.RacingKingsBoard, False),
    "atomic": (chess_variant.AtomicBoard, False),
    "antichess": (chess_variant.AntichessBoard, False),
    "giveaway": (chess_variant.GiveawayBoard, False),
}
SEEDS = [*range(3), *(pytest.param(seed, marks=pytest.mark.full) for seed in range(3, 20))]
PLIES = 120


def _start(name: str, seed: int) -> str | None:
    """A start position: the usual one, or for Chess960 one of the 960 (python-chess's FEN)."""
    if name != "fischerandom":
        return None
    return str(chess.Board.from_chess960_pos(random.Random(seed).randrange(960)).fen())


def _ggn_game(name: str, seed: int) -> Game:
    """A random game played by ggn, to its end or PLIES plies."""
    pick = random.Random(f"{name}:{seed}")
    fen = _start(name, seed)
    game = Game(name) if fen is None else Game(name, fen=fen)
    for _ in range(PLIES):
        if game.outcome() is not None:
            break
        legal = game.legal_moves()
        if not legal:
            break
        game.push(pick.choice(legal))
    return game


def _uci_of(game: Game) -> list[str]:
    variant = game.variant
    assert variant is not None
    return [uci.write(variant, play, position=game.position_at(ply)) for ply, play in enumerate(game.plays)]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", sorted(BOARDS))
def test_python_chess_reads_the_moves_of_ggns_pgn(name: str, seed: int) -> None:
    game = _ggn_game(name, seed)
    text = write(game, {"Event": f"seed {seed}"})
    theirs = chess_pgn.read_game(io.StringIO(text))
    assert theirs is not None and not theirs.errors, (text, theirs.errors if theirs else None)
    board = theirs.board()
    kind, chess960 = BOARDS[name]
    assert type(board) is kind and board.chess960 == chess960
    assert [move.uci() for move in theirs.mainline_moves()] == _uci_of(game)
    final = theirs.end().board()
    if game.outcome() is not None:
        assert final.is_game_over() and final.result() == game.result(), text
    # ggn reads back what it wrote: the same moves, the same game
    again = records.replay(next(records.read(text)))
    assert again.plays == game.plays and again.fen() == game.fen()


def _their_game(name: str, seed: int) -> Any:
    """A random game played by python-chess, written as python-chess writes it."""
    pick = random.Random(f"python-chess:{name}:{seed}")
    kind, chess960 = BOARDS[name]
    fen = _start(name, seed)
    board = kind(fen, chess960=True) if chess960 else kind()
    for _ in range(PLIES):
        if board.is_game_over():
            break
        board.push(pick.choice(sorted(board.legal_moves, key=lambda move: move.uci())))
    game = chess_pgn.Game.from_board(board)
    game.headers["Result"] = board.result()
    return game, board


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", sorted(BOARDS))
def test_ggn_reads_the_moves_of_python_chess_pgn(name: str, seed: int) -> None:
    theirs, board = _their_game(name, seed)
    text = str(theirs)
    record = next(records.read(text))
    assert record.game == name
    game = records.replay(record)  # every move checked, and python-chess's result against ggn's end
    assert _uci_of(game) == [move.uci() for move in board.move_stack]
    if board.is_checkmate() or board.is_variant_end():
        assert game.result() == board.result()


REAL = sorted(DATA.glob("*.pgn"))


@pytest.mark.parametrize("path", REAL, ids=lambda path: path.name)
def test_real_files_replay(path: Path) -> None:
    played = 0
    for record in records.read(path.read_bytes()):
        game = records.replay(record)
        assert len(game) == len(record.moves)
        count = record.tag("PlyCount")
        if count is not None:
            assert len(game) == int(count)
        played += 1
    assert played > 0


def test_the_real_games_end_as_their_records_say() -> None:
    molinari = records.replay(next(records.read((DATA / "molinari-bordais-1979.pgn").read_bytes())))
    assert (str(molinari.outcome()), molinari.result()) == ("second player wins by checkmate", "0-1")
    lichess_pgn = (DATA / "knightvuillaume-jannlee-zh-lichess.pgn").read_bytes()
    lichess = records.replay(next(records.read(lichess_pgn)))
    assert (lichess.rules.name, lichess.result()) == ("crazyhouse", "0-1")


def test_an_illegal_move_names_the_game_the_ply_and_the_move() -> None:
    text = "1. e4 e5 1-0\n\n1. d4 d5 2. Ke3 *\n\n1. c4 *\n"
    given = []

    def replay_all() -> None:
        for record in records.read(text):
            records.replay(record)
            given.append(record.number)

    with pytest.raises(RecordError) as caught:
        replay_all()
    assert given == [1]
    error = caught.value
    assert (error.game, error.ply, error.move, error.line) == (2, 3, "Ke3", 3)
    assert str(error).startswith("game 2, ply 3 'Ke3' (line 3): ")


def test_an_ambiguous_move_is_refused_naming_the_candidates() -> None:
    records.replay(next(records.read('[FEN "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1"]\n1. Nc3 *')))  # one knight
    ambiguous = next(records.read('[FEN "4k3/8/8/8/8/8/8/1N1NK3 w - - 0 1"]\n1. Nc3 *'))
    with pytest.raises(RecordError, match=r"^game 1, ply 1 'Nc3' \(line 2\): .*Nbc3.*Ndc3|Ndc3.*Nbc3"):
        records.replay(ambiguous)


def test_a_result_the_game_contradicts_is_refused() -> None:
    with pytest.raises(RecordError, match=r"^game 1 \(line 1\): the record's result '1-0' says the first "
                                          r"player won, but the game ended in 0-1: second player wins by "
                                          r"checkmate"):
        records.replay(next(records.read("1. f3 e5 2. g4 Qh4# 1-0")))
    with pytest.raises(RecordError, match=r"^game 1, ply 5 'a3' \(line 1\): the game has already ended"):
        records.replay(next(records.read("1. f3 e5 2. g4 Qh4# 3. a3 0-1")))
    # a decided result where the game has not ended: a resignation, taken as written
    assert records.replay(next(records.read("1. e4 1-0"))).result() == "*"


def test_an_unknown_variant_is_refused_by_name() -> None:
    with pytest.raises(RecordError, match=r"^game 1 \(line 1\): its game 'Chaturaji' is not one ggn plays"):
        records.replay(next(records.read('[Variant "Chaturaji"]\n1. e4 *')))


def test_a_truncated_game_fails_at_its_cut_move() -> None:
    record = list(records.read("1. e4 e5 2. Nf3 Nc6 *\n\n1. e4 e5 2. Nf3 N"))[1]
    with pytest.raises(RecordError, match=r"^game 2, ply 4 'N' \(line 3\): "):
        records.replay(record)


def test_write_of_a_record_in_another_format_replays_it() -> None:
    record = next(records.read('[White "Tal"]\n1. e4 {a comment} e5 *'))
    text = records.write(record, "pgn", {"Black": "Botvinnik"})
    assert '[White "Tal"]' in text and '[Black "Botvinnik"]' in text and "{ a comment }" in text


# --- every game: ggn's PGN holds Fairy-Stockfish's SAN, and reads back ----------------------------
# By default a game of each family; under -m full, every game of the registry.
QUICK = ("chess", "normal", "crazyhouse", "shogi", "minishogi", "xiangqi", "makruk", "capablanca", "grand",
         "shako", "clobber", "fox-and-hounds", "janus", "manchu", "torishogi", "horde")


def _every_game() -> list[Any]:
    from ggn.variants import registry  # noqa: PLC0415

    return [name if name in QUICK else pytest.param(name, marks=pytest.mark.full)
            for name in registry.names()]


@pytest.mark.parametrize("name", _every_game())
def test_the_pgn_of_every_game_holds_fairy_stockfishs_san_and_replays(name: str) -> None:
    sf = pytest.importorskip("pyffish")
    pick = random.Random(f"every:{name}")
    game = Game(name)
    for _ in range(40):
        legal = game.legal_moves()
        if game.outcome() is not None or not legal:
            break
        game.push(pick.choice(legal))
    text = write(game)
    record = next(records.read(text))
    moves = _uci_of(game)
    is960 = name in ("fischerandom", "caparandom")
    assert [move.text for move in record.moves] == sf.get_san_moves(name, game.fen(0), moves, is960), text
    again = records.replay(record)  # normal is written as chess (no [Variant]): the same game
    assert _uci_of(again) == moves and again.result() == game.result()


def test_a_bad_move_in_a_variation_is_an_error_unless_variations_are_left_out() -> None:
    record = next(records.read("1. e4 e5 (1... c5 2. Nf3 (2. Ke3) d6) 2. Nf3 *"))
    with pytest.raises(RecordError, match=r"^game 1, ply 3 'Ke3' \(line 1\): in a variation: 'Ke3' is not "):
        records.replay(record)
    game = records.replay(record, variations=False)
    assert _uci_of(game) == ["e2e4", "e7e5", "g1f3"]
    # a good variation is played and taken back: the main line goes on from where it was
    good = records.replay(next(records.read("1. e4 e5 (1... c5 2. Nf3 (2. c3) d6) 2. Nf3 *")))
    assert _uci_of(good) == ["e2e4", "e7e5", "g1f3"]
