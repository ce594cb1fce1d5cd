"""KIF and CSA (ggn.records.kif, ggn.records.csa) against readers and writers no one here wrote.

- ggn writes, python-shogi reads: along seeded random games of shogi (from shogi's start, from
  a handicap's, from a position in the middle of a game), python-shogi's KIF and CSA parsers,
  and cshogi's CSA parser, read ggn's records to the same moves and the same start.
- python-shogi and cshogi write, ggn reads: their KIF and CSA exporters' records of the same
  games are read and replayed by ggn to the same moves and result.
- Round trips: a game written and read back replays to the same plays; a record written back
  (``write_record``) is read to the same record, with its comments, times and variations.
- Real files written by Kifu for Windows (tests/data/shogi, their source named there) replay
  to the moves python-shogi and cshogi read in them.
- Hostile records (binary, truncated, deep variations, a 10 MB comment, illegal moves) are
  refused with RecordError naming the game, the ply and the move as written, in bounded time.

cshogi's KIF reader cannot read ``不成`` (a promotion declined), which Kifu for Windows and ggn
write: it is given ggn's KIF with ``不成`` taken out (the plain move, as python-shogi reads it),
from shogi's start and the handicaps' (it reads no board diagram).
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ggn import records
from ggn.errors import GGNError, RecordError
from ggn.game import Game
from ggn.notation import usi
from ggn.records import Record, csa, kif
from ggn.records._shogi import HANDICAPS
from ggn.variants import registry

pytestmark = pytest.mark.slow  # not in the README's quick run: random games against python-shogi and cshogi

shogi = pytest.importorskip("shogi")
cshogi = pytest.importorskip("cshogi")
shogi_kif = pytest.importorskip("shogi.KIF")
shogi_csa = pytest.importorskip("shogi.CSA")
cshogi_kif = pytest.importorskip("cshogi.KIF")
cshogi_csa = pytest.importorskip("cshogi.CSA")

SEED = 2026_1127
DATA = Path(__file__).parent / "data" / "shogi"
RULES = registry.rules("shogi")
MIDDLE = "lnsgk2nl/1r4gs1/p1pppp1pp/1p4p2/7P1/2P6/PP1PPPP1P/1SG4R1/LN2KGSNL w Bb 12"


def _game(seed: int, plies: int, start: str | None = None, name: str = "shogi") -> tuple[Game, list[str]]:
    """A random game (captures preferred: hands fill, pieces promote) and its USI moves."""
    rules = registry.rules(name)
    position = usi.from_sfen(rules, start)[0] if start else None
    game = Game(rules, position)
    rng = random.Random(seed)
    moves: list[str] = []
    for _ in range(plies):
        legal = usi.moves(rules, game.position)
        if not legal or game.outcome() is not None:
            break
        captures = [text for text, play in legal.items()
                    if "*" not in text and game.position.piece_at(play.destination) is not None]  # type: ignore[arg-type]
        move = rng.choice(sorted(captures) if captures and rng.random() < 0.5 else sorted(legal))
        game.push(legal[move])
        moves.append(move)
    return game, moves


def _starts() -> Iterator[str | None]:
    handicaps = [sfen for name, sfen in HANDICAPS.items() if name != "平手"]
    for number in range(100):
        yield (None, handicaps[number % len(handicaps)], MIDDLE)[number % 3]


def _full(first: int, last: int) -> list[object]:
    """Game numbers run only under ``pytest -m full``."""
    return [pytest.param(number, marks=pytest.mark.full) for number in range(first, last)]


def _replayed(record: Record) -> tuple[Game, list[str]]:
    """A record played with the module's parse_move: the game and its moves in USI."""
    module = kif if record.format == "kif" else csa
    game = Game(record.game, fen=record.fen)
    moves = []
    for ply, move in enumerate(record.moves, 1):
        position = game.position
        try:
            play = module.parse_move(game, move.text)
        except GGNError as error:  # as ggn.records.replay names it
            raise record.error(str(error), ply, move) from None
        moves.append(usi.write(game.rules, position, play))
        game.push(play)
    return game, moves


# --- ggn writes, python-shogi and cshogi read ----------------------------------------------------
@pytest.mark.parametrize("number", [*range(6), *_full(6, 60)])
def test_python_shogi_reads_ggn_kif(number: int) -> None:
    start = list(_starts())[number]
    game, moves = _game(SEED + number, 120, start)
    text = kif.write(game, {"先手": "A", "後手": "B"})
    parsed = shogi_kif.Parser.parse_str(text)[0]
    assert parsed["moves"] == moves
    assert usi.from_sfen(RULES, parsed["sfen"])[0] == game.start
    assert parsed["names"] == ["A", "B"]
    if start != MIDDLE:  # (cshogi's KIF reader reads no board diagram)
        # It does not read 不成 (a promotion declined: the plain move, as python-shogi reads it).
        fast = cshogi_kif.Parser.parse_str(text.replace("不成", ""))
        assert [cshogi.move_to_usi(move) for move in fast.moves] == moves
    record = next(kif.read(text))
    assert _replayed(record)[1] == moves


@pytest.mark.parametrize("number", [*range(6), *_full(6, 60)])
def test_python_shogi_and_cshogi_read_ggn_csa(number: int) -> None:
    start = list(_starts())[number]
    game, moves = _game(SEED + 10 + number, 120, start)
    text = csa.write(game, {"White": "A", "Black": "B"})
    parsed = shogi_csa.Parser.parse_str(text)[0]
    assert parsed["moves"] == moves
    assert usi.from_sfen(RULES, parsed["sfen"])[0] == game.start
    assert parsed["names"] == ["A", "B"]
    fast = cshogi.Parser()
    fast.parse_csa_str(text)
    assert [cshogi.move_to_usi(move) for move in fast.moves] == moves
    assert usi.from_sfen(RULES, fast.sfen)[0] == game.start
    assert _replayed(next(csa.read(text)))[1] == moves


def test_a_resignation_and_a_mate_are_written_as_ends_python_shogi_reads() -> None:
    game = Game("shogi")
    for move in ("7g7f", "5c5d", "8h3c+", "5a6b", "3c4b"):
        game.push(usi.parse(game.rules, game.position, move))
    text = kif.write(game, {"Result": "1-0"})
    assert text.endswith("   6 投了\nまで5手で先手の勝ち\n")
    assert shogi_kif.Parser.parse_str(text)[0]["win"] == "b"
    assert next(kif.read(text)).verdict == "1-0"
    assert csa.write(game, {"Result": "1-0"}).endswith("\n%TORYO\n")
    assert shogi_csa.Parser.parse_str(csa.write(game, {"Result": "1-0"}))[0]["win"] == "b"
    mated, moves = _game(SEED + 101, 400)  # a random game that ends in mate
    assert str(mated.outcome()) == "second player wins by checkmate"
    text = kif.write(mated)
    assert text.endswith(f"{len(moves) + 1:>4} 詰み\nまで{len(moves)}手で後手の勝ち\n")
    assert shogi_kif.Parser.parse_str(text)[0]["win"] == "w"
    assert next(kif.read(text)).verdict == "0-1"
    assert csa.write(mated).endswith("\n%TSUMI\n")
    assert next(csa.read(csa.write(mated))).verdict == "0-1"


# --- python-shogi and cshogi write, ggn reads ----------------------------------------------------
@pytest.mark.parametrize("number", [*range(4), *_full(4, 40)])
def test_ggn_reads_cshogi_kif_and_csa(number: int, tmp_path: Path) -> None:
    start = list(_starts())[number]
    game, moves = _game(SEED + 20 + number, 120, start)
    board = cshogi.Board(usi.to_sfen(RULES, game.start))
    exporter = cshogi_kif.Exporter(str(tmp_path / "game.kifu"))
    exporter.header(["X", "Y"], handicap=None if start is None else "sfen " + usi.to_sfen(RULES, game.start))
    writer = cshogi_csa.Exporter(str(tmp_path / "game.csa"))
    writer.info(board, ["X", "Y"], version="V2.2")
    for move in moves:
        made = board.move_from_usi(move)
        exporter.move(made, 3, 3)
        writer.move(made, time=3, comment="a comment")
        board.push(made)
    exporter.end("resign")
    exporter.close()
    writer.endgame("%TORYO")
    writer.close()
    for path in (tmp_path / "game.kifu", tmp_path / "game.csa"):
        record = next(records.read(path.read_bytes()))
        played, read_moves = _replayed(record)
        assert read_moves == moves, path.name
        assert played.start == game.start
        loser = "first" if len(moves) % 2 == (0 if game.start.active == "first" else 1) else "second"
        assert record.verdict == ("0-1" if loser == "first" else "1-0"), path.name
    record = next(records.read((tmp_path / "game.csa").read_bytes()))
    assert all(move.clock == "T3" and move.comments == ("a comment",) for move in record.moves)


def test_ggn_reads_python_shogi_kif() -> None:
    _, moves = _game(SEED + 30, 150)
    text = shogi_kif.Exporter.kif({"names": ["X", "Y"], "sfen": shogi.STARTING_SFEN, "moves": moves,
                                   "win": "b" if len(moves) % 2 else "w"})
    record = next(records.read(text))
    assert _replayed(record)[1] == moves
    assert record.verdict == ("1-0" if len(moves) % 2 else "0-1")


# --- round trips ---------------------------------------------------------------------------------
SAMPLE = """\
# ---- a sample of ggn's tests ----
開始日時：2024/01/01 10:00:00
手合割：平手
先手：A
後手：B
*before the first move
手数----指手---------消費時間--
   1 ７六歩(77)   ( 0:01/00:00:01)
*a comment on move 1
   2 ３四歩(33)   ( 0:02/00:00:02)+
   3 ２二角成(88)   ( 0:03/00:00:04)
   4 同　銀(31)   ( 0:01/00:00:03)+
   5 投了
まで4手で後手の勝ち

変化：4手
   4 同　飛(82)
*the rook takes instead
   5 同　飛(28)

変化：2手
   2 ８四歩(83)
   3 ２六歩(27)+

変化：3手
   3 ６八銀(79)
"""


def test_a_kif_record_is_read_with_its_comments_times_and_variations() -> None:
    record = next(records.read(SAMPLE))
    assert record.format == "kif" and record.game == "shogi" and record.fen is None
    assert record.comment == "before the first move"
    assert [move.text for move in record.moves] == ["７六歩(77)", "３四歩(33)", "２二角成(88)", "同　銀(31)"]
    assert record.moves[0].comments == ("a comment on move 1",)
    assert record.moves[0].clock == "( 0:01/00:00:01)"
    fourth = record.moves[3].variations
    assert [[move.text for move in line] for line in fourth] == [["同　飛(82)", "同　飛(28)"]]
    assert record.moves[3].variations[0][0].comments == ("the rook takes instead",)
    second = record.moves[1].variations
    assert [[move.text for move in line] for line in second] == [["８四歩(83)", "２六歩(27)"]]
    assert [[move.text for move in line] for line in second[0][1].variations] == [["６八銀(79)"]]
    assert (record.result, record.verdict) == ("投了", "0-1")
    assert kif.write_record(record) == SAMPLE.replace("# ---- a sample of ggn's tests ----\n", "")
    assert next(kif.read(kif.write_record(record))) == record


def test_a_game_written_and_read_back_replays_to_the_same_plays() -> None:
    for number, start in zip(range(6), _starts(), strict=False):
        game, _ = _game(SEED + 40 + number, 100, start)
        for module in (kif, csa):
            record = next(module.read(module.write(game)))
            played, _ = _replayed(record)
            assert played.plays == game.plays and played.start == game.start
            assert next(module.read(module.write_record(record))) == record


@pytest.mark.parametrize("name", ["minishogi", "judkins", "gorogoro"])
def test_the_shogi_family_on_smaller_boards_in_kif(name: str) -> None:
    game, moves = _game(SEED + 50, 80, name=name)
    text = kif.write(game)
    record = next(kif.read(text))
    assert record.game == name and record.fen is None
    assert _replayed(record)[1] == moves
    if name == "minishogi":
        assert text.startswith("手合割：5五将棋\n")
    else:
        assert text.startswith("後手の持駒：なし\n")  # a board diagram: the game is told by its size
    with pytest.raises(GGNError, match="CSA records shogi's games, not"):
        csa.write(game)


# --- real files ----------------------------------------------------------------------------------
@pytest.mark.parametrize("path", sorted(DATA.glob("*.k*")) + sorted(DATA.glob("*.csa")),
                         ids=lambda path: path.name)
def test_real_files_replay_to_the_moves_python_shogi_and_cshogi_read(path: Path) -> None:
    data = path.read_bytes()
    record = next(records.read(data))
    _, moves = _replayed(record)
    text = records.decode(data).lstrip("\ufeff")
    if record.format == "kif":
        assert moves == shogi_kif.Parser.parse_str(text)[0]["moves"]
        assert moves == [cshogi.move_to_usi(move) for move in cshogi_kif.Parser.parse_str(text).moves]
    else:
        assert moves == shogi_csa.Parser.parse_str(text)[0]["moves"]
        fast = cshogi.Parser()
        fast.parse_csa_str(text)
        assert moves == [cshogi.move_to_usi(move) for move in fast.moves]
    assert len(moves) > 5


# --- hostile and broken records ------------------------------------------------------------------
def _error(text: str | bytes) -> RecordError:
    def replay_all() -> None:
        for record in records.read(text):
            _replayed(record)

    with pytest.raises(RecordError) as caught:
        replay_all()
    return caught.value


def test_an_illegal_move_names_the_game_the_ply_and_the_move() -> None:
    error = _error("手合割：平手\n   1 ７六歩(77)\n   2 ７六歩(73)\n")
    assert (error.game, error.ply, error.move, error.line) == (1, 2, "７六歩(73)", 3)
    assert str(error).startswith("game 1, ply 2 '７六歩(73)' (line 3): '７六歩(73)' (7c7f in USI) is not "
                                 "legal "
                                 "here: legal moves: 7c7d, ")
    error = _error("手合割：平手\n   1 ７六歩(77)\n   2 ７五金(73)\n")
    assert str(error).endswith("'７五金(73)': the piece on 73 is 歩, not 金")
    error = _error("手合割：平手\n   1 同　歩(77)\n")
    assert str(error).endswith("同 (the last move's square) at the first move")


def test_broken_kif_lines_are_errors_naming_the_line() -> None:
    cases = {
        "手合割：平手\n   1 ７六歩(77)\n   3 ３四歩(33)\n": "move number 3 where 2 was expected",
        "手合割：平手\n   1 ７六犬(77)\n": "is no KIF move",
        "手合割：平手\n▲７六歩\n": "this is KI2",
        "手合割：九枚落ち\n": "the handicap '九枚落ち'",
        "手合割：平手\n   1 ７六歩(77)\n変化：5手\n   5 ７五歩(76)\n": "変化：5手 branches from no move",
        "手合割：平手\nhello\n": "'hello' is no KIF line",
        "手合割：平手\n   1 ７六歩(77)\n変化：" + "9" * 5000 + "手\n": "branches from no move",
        "|v香v桂|一\n": "the diagram is 2 squares wide",
        "手合割：平手\n   1 投了\n   2 ７六歩(77)\n": "a move after the end",
    }
    for text, message in cases.items():
        with pytest.raises(RecordError, match=message) as caught:
            list(kif.read(text))
        assert caught.value.line is not None


def test_a_csa_file_of_several_games_gives_those_before_a_broken_one() -> None:
    text = "V2.2\nPI\n+\n+7776FU\n%TORYO\n/\nV2.2\nPI\n+\n+7776FU\n-3334FU\n/\nPI\n+\n+7776XX\n"
    read = records.read(text)
    first, second = next(read), next(read)
    assert (first.number, first.verdict, second.number, second.result) == (1, "1-0", 2, None)
    with pytest.raises(RecordError, match=r"^game 3, ply 1 '\+7776XX' \(line 15\): '\+7776XX' is no CSA"):
        next(read)


def test_broken_csa_moves_are_refused_when_replayed() -> None:
    for text, message in {
        "PI\n+\n-3334FU\n": "is a move of the second player",
        "PI\n+\n+7775FU\n": r"'\+7775FU' \(7g7e in USI\) is not legal here",
        "PI\n+\n+7776KI\n": "holds FU, which cannot move as KI",
        "PI\n+\n+0055KA\n": "not legal here",
    }.items():
        with pytest.raises(GGNError, match=message):
            _replayed(next(csa.read(text)))
    with pytest.raises(RecordError, match="a move before the start position"):
        list(csa.read("+7776FU\n"))
    with pytest.raises(RecordError, match="no such piece there to take off"):
        list(csa.read("PI82KA\n+\n"))


def test_csa_positions_with_hands_and_all_the_rest() -> None:
    empty = " * " * 9
    ranks = "".join(f"P{rank}{empty}\n" for rank in range(2, 9))
    text = f"P1{' * ' * 8}-OU\n{ranks}P9{' * ' * 8}+OU\nP+00HI\nP-00AL\n+\n+0012HI\n"
    record = next(csa.read(text))
    assert record.fen == "8k/9/9/9/9/9/9/9/8K[Rrbbggggssssnnnnllllpppppppppppppppppp] w 0 1"
    assert _replayed(record)[1] == ["R*1b"]


def test_hostile_records_are_refused_in_bounded_time() -> None:
    assert "binary" in str(_error(b"\x00\x01\x02" * 1000))
    deep = "手合割：平手\n   1 ７六歩(77)\n" + "変化：1手\n   1 ７六歩(77)\n" * 200
    read = next(kif.read(deep))  # alternatives to one move are siblings, not nested
    assert len(read.moves[0].variations) == 200
    nested = "手合割：平手\n   1 ７六歩(77)\n" + "".join(
        f"変化：{ply}手\n{ply:>4} ７六歩(77)\n{ply + 1:>4} ３四歩(33)\n" for ply in range(2, 210))
    with pytest.raises(RecordError):
        list(kif.read(nested))
    huge = "手合割：平手\n   1 ７六歩(77)\n*" + "x" * 10_000_000 + "\n   2 ３四歩(33)\n"
    record = next(kif.read(huge))
    assert len(record.moves[0].comments[0]) == 10_000_000
    truncated = SAMPLE[: SAMPLE.index("同　銀") + 2]
    with pytest.raises(RecordError, match="is no KIF move"):
        list(kif.read(truncated))
    with pytest.raises(RecordError, match=r"1,000,000 pieces|no piece in hand"):
        list(kif.read("後手の持駒：歩百万\n"))


# --- any text: records or a RecordError, nothing else ----------------------------------------------
_KIF_PARTS = ["手合割：平手\n", "手合割：香落ち\n", "先手：A\n", "   1 ７六歩(77)\n", "   2 ３四歩(33)\n",
              "   2 同　歩(23)\n", "   3 ２二角成(88)+\n", "変化：2手\n", "変化：1手\n", "*note\n",
              "   3 投了\n",
              "まで2手で後手の勝ち\n", "後手番\n", "|v香 ・|一\n", "+------+\n", "先手の持駒：歩二\n",
              "  ９ ８\n", "手数＝3\n", "#x\n", "   1 ５五角打\n", "   1 ７六歩\n", "\x00", "(", "：", "同"]
_CSA_PARTS = ["V2.2\n", "PI\n", "PI82HI\n", "+\n", "-\n", "+7776FU\n", "-3334FU\n", "T12\n",
              "%TORYO\n", "'c\n", "/\n", "N+A\n", "$EVENT:e\n", "P1-KY\n", "P+00AL\n", "P-00FU\n",
              "+7776FU,T1\n", "+00\n",
              "%\n", ","]


@given(st.lists(st.sampled_from(_KIF_PARTS) | st.text(max_size=8), max_size=12))
@settings(max_examples=200, deadline=None)
def test_any_kif_text_is_records_or_a_record_error(parts: list[str]) -> None:
    _records_or_error("".join(parts), kif.read)


@given(st.lists(st.sampled_from(_CSA_PARTS) | st.text(max_size=8), max_size=12))
@settings(max_examples=200, deadline=None)
def test_any_csa_text_is_records_or_a_record_error(parts: list[str]) -> None:
    _records_or_error("".join(parts), csa.read)


def _records_or_error(text: str, read: Callable[[str], Iterator[Record]]) -> None:
    try:
        found = list(read(text))
    except RecordError:
        return
    for record in found:
        with contextlib.suppress(RecordError):
            _replayed(record)
        module = kif if record.format == "kif" else csa
        assert next(module.read(module.write_record(record))).moves == record.moves


def test_a_repetition_is_written_as_sennichite() -> None:
    game = Game("shogi")
    for _ in range(3):
        for move in ("2h3h", "8b7b", "3h2h", "7b8b"):
            game.push(usi.parse(game.rules, game.position, move))
    assert game.claim() is not None and game.claim().winner is None  # type: ignore[union-attr]
    text = kif.write(game)
    assert text.endswith("  13 千日手\nまで12手で千日手\n")
    assert next(kif.read(text)).verdict == "1/2-1/2"
    assert csa.write(game).endswith("\n%SENNICHITE\n")
    assert next(csa.read(csa.write(game))).verdict == "1/2-1/2"
    assert shogi_csa.Parser.parse_str(csa.write(game))[0]["win"] == "-"


def test_records_replay_and_convert_kif_and_csa_through_pgn() -> None:
    texts = [path.read_bytes() for path in sorted(DATA.glob("*.k*")) + sorted(DATA.glob("*.csa"))]
    game, _ = _game(SEED + 60, 60, HANDICAPS["香落ち"])
    texts += [kif.write(game).encode(), csa.write(game).encode()]
    for text in texts:
        record = next(records.read(text))
        played = records.replay(record)
        assert played.plays == _replayed(record)[0].plays
        pgn = next(records.read(records.write(record, "pgn")))
        assert records.replay(pgn).plays == played.plays
        for back in ("kif", "csa"):
            again = next(records.read(records.write(pgn, back)))
            assert records.replay(again).plays == played.plays, back


def test_replay_checks_the_stated_result() -> None:
    mated, moves = _game(SEED + 101, 400)
    text = kif.write(mated).replace("後手の勝ち", "先手の勝ち")
    assert records.replay(next(records.read(text))).result() == "0-1"  # the 詰み line decides
    wrong = kif.write(mated).replace(f"{len(moves) + 1:>4} 詰み\n", f"{len(moves) + 1:>4} 反則勝ち\n")
    with pytest.raises(RecordError, match="the record's result '反則勝ち' says the first player won"):
        records.replay(next(records.read(wrong)))
