"""PGN records: the syntax read as python-chess reads it, written back, and hostile input.

The oracle is python-chess's PGN reader (``chess.pgn.read_game``), which no one here wrote: on
real files (tests/data/pgn, named in its README) and on PGN python-chess writes, ggn's records
have the same tags, the same moves as written, the same comments, NAGs and variations.
"""

from __future__ import annotations

import io
import time
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

from ggn.errors import GGNError, RecordError
from ggn.records import MAX_DEPTH, Record, RecordMove, decode, detect, read
from ggn.records.pgn import game_of, read_lines, variant_of, write_record

chess = pytest.importorskip("chess")
chess_pgn = pytest.importorskip("chess.pgn")

DATA = Path(__file__).parent / "data" / "pgn"
FILES = sorted(DATA.glob("*.pgn"))


# --- the shape python-chess reads ------------------------------------------------------------------
def _san(node: Any) -> str:
    return str(node.san())


def _line_of(node: Any) -> tuple[RecordMove, ...]:
    """python-chess's line from ``node`` on (its first variation followed), in ggn's shape: each
    move with its NAGs, its comment and the alternatives to it (its siblings after the first)."""
    moves = []
    while node is not None:
        parent = node.parent
        siblings = parent.variations[1:] if parent.variations[0] is node else []
        moves.append((_san(node), tuple(sorted(node.nags)), node.comment,
                      tuple(_line_of(sibling) for sibling in siblings)))
        node = node.variations[0] if node.variations else None
    return tuple(moves)  # type: ignore[arg-type]


def _line_ours(moves: tuple[RecordMove, ...]) -> tuple[Any, ...]:
    return tuple((_bare(move.text), tuple(sorted(move.nags)), " ".join(move.comments),
                  tuple(_line_ours(line) for line in move.variations)) for move in moves)


def _bare(text: str) -> str:
    # python-chess writes a pawn's drop without its letter (@g4), as SAN's pawn moves
    return text[1:] if text.startswith("P@") else text


def _theirs(text: str) -> list[Any]:
    games = []
    stream = io.StringIO(text)
    while (game := chess_pgn.read_game(stream)) is not None:
        games.append(game)
    return games


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.name)
def test_a_real_file_reads_as_python_chess_reads_it(path: Path) -> None:
    data = path.read_bytes()
    ours = list(read(data))
    theirs = _theirs(decode(data))
    assert len(ours) == len(theirs) > 0
    for record, game in zip(ours, theirs, strict=True):
        assert dict(record.headers) | {"Result": record.tag("Result") or "*"} == {
            key: value for key, value in game.headers.items() if key in record.headers or key == "Result"}
        assert record.tag("Result") == game.headers["Result"]
        if game.variations:
            assert _line_ours(record.moves) == _line_of(game.variations[0])
        else:
            assert record.moves == ()
        assert (record.comment or "") == game.comment


def test_the_files_tell_their_games_and_counts() -> None:
    found = {path.name: [(record.game, len(record.moves), record.result)
                         for record in read(path.read_bytes())] for path in FILES}
    assert found["cutechess-fischerrandom.pgn"] == [
        ("fischerandom", 120, "0-1"), ("fischerandom", 99, "1-0"), ("fischerandom", 70, "0-1"),
        ("fischerandom", 107, "1-0")]  # each the file's PlyCount
    assert found["knightvuillaume-jannlee-zh-lichess.pgn"] == [("crazyhouse", 48, "0-1")]
    assert [count for _, count, _ in found["kasparov-deep-blue-1997.pgn"]] == [89, 89, 95, 111, 98, 37]
    assert found["utf8-bom.pgn"] == [("chess", 0, "*"), ("chess", 0, "*")]


# --- the syntax --------------------------------------------------------------------------------------
SAMPLE = """[Event "Test"]
[White "A \\"quoted\\" name"]
[Variant "Crazyhouse"]

{start} 1. e4!? $14 {after e4} e5 (1... c5 {sicilian} (1... e6 2. d4) 2. Nf3) 2. Nf3 ; to the end
Nc6 3.Bb5 a6 1-0 [Event "next"] 1. d4 *
1. c4 {a comment
on two lines} c5
"""


def test_tags_comments_nags_variations_and_results_are_read() -> None:
    first, second, third = read(SAMPLE)
    assert first.tags == (("Event", "Test"), ("White", 'A "quoted" name'), ("Variant", "Crazyhouse"))
    assert (first.game, first.fen, first.comment, first.result, first.verdict) == (
        "crazyhouse", None, "start", "1-0", "1-0")
    e4, e5, nf3, *_ = first.moves
    assert (e4.text, e4.nags, e4.comments) == ("e4", (5, 14), ("after e4",))
    assert [move.text for move in e5.variations[0]] == ["c5", "Nf3"]
    assert e5.variations[0][0].comments == ("sicilian",)
    assert [move.text for move in e5.variations[0][0].variations[0]] == ["e6", "d4"]
    assert nf3.comments == ("to the end",)
    assert [move.text for move in first.moves] == ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]
    assert (second.number, second.tags, second.result, second.verdict) == (2, (("Event", "next"),), "*", None)
    assert (third.number, third.result, third.moves[0].comments) == (3, None, ("a comment on two lines",))
    assert first.depth() == 2 and second.depth() == 0


def test_written_back_it_reads_the_same() -> None:
    for record in read(SAMPLE):
        again = next(read(write_record(record)))
        assert (again.moves, again.comment, again.game) == (record.moves, record.comment, record.game)
        assert again.result == (record.result or "*")


def test_the_real_files_round_trip_through_python_chess() -> None:
    # ggn writes each file back; python-chess reads what ggn wrote as it read the original.
    for path in FILES:
        for record in read(path.read_bytes()):
            written = write_record(record)
            assert all(len(line) <= 80 for line in written.splitlines() if "{" not in line), written
            theirs = _theirs(written)[0]
            ours = next(read(written))
            assert ours.moves == record.moves
            if theirs.variations:
                assert _line_ours(ours.moves) == _line_of(theirs.variations[0])


def test_move_numbers_follow_the_start_position() -> None:
    black = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 7"
    record = Record(tags=(("FEN", black), ("SetUp", "1")), fen=black,
                    moves=(RecordMove("e5", comments=("c",)), RecordMove("Nf3"), RecordMove("Nc6")))
    text = write_record(record)
    assert text.endswith("\n7... e5 { c } 8. Nf3 Nc6 *\n")


def test_detect_tells_the_formats_apart() -> None:
    assert detect(SAMPLE) == "pgn"
    assert detect("1.e4 e5 *") == "pgn"
    assert detect("V2.2\nN+sente\nN-gote\nPI\n+\n+7776FU\n") == "csa"
    assert detect("手合割：平手\n先手：a\n手数----指手---------消費時間--\n   1 ７六歩(77)\n") == "kif"  # noqa: RUF001
    assert detect("▲７六歩 △３四歩\n") == "kif"


@pytest.mark.parametrize(("written", "game"), [
    ("Standard", "chess"), ("From Position", "chess"), ("chess", "chess"), ("Chess960", "fischerandom"),
    ("fischerandom", "fischerandom"), ("Crazyhouse", "crazyhouse"), ("King of the Hill", "kingofthehill"),
    ("kingofthehill", "kingofthehill"), ("Racing Kings", "racingkings"), ("Horde", "horde"),
    ("Capablanca", "capablanca"), ("fox-and-hounds", "fox-and-hounds"), ("Shogi", "shogi"),
    ("Xiangqi", "xiangqi"), ("Makruk", "makruk"),
])
def test_variant_names_read_as_lichess_and_fairy_stockfish_write_them(written: str, game: str) -> None:
    assert game_of(written) == game
    assert next(read(f'[Variant "{written}"]\n*')).game == game


def test_variant_names_written_as_lichess_and_python_chess_read_them() -> None:
    for game, pgn_name in (("chess", None), ("fischerandom", "Chess960"), ("crazyhouse", "Crazyhouse"),
                           ("kingofthehill", "King of the Hill"), ("racingkings", "Racing Kings"),
                           ("horde", "Horde"), ("atomic", "Atomic"), ("antichess", "Antichess"),
                           ("capablanca", "capablanca")):
        assert variant_of(game) == pgn_name
        if pgn_name is not None and game != "capablanca":
            board = chess_pgn.read_game(io.StringIO(f'[Variant "{pgn_name}"]\n\n*')).board()
            assert board.uci_variant == {"fischerandom": "chess", "kingofthehill": "kingofthehill"}.get(
                game, game), game
    assert game_of("Atomic") == game_of("atomic chess") == "atomic"
    assert game_of("chaturaji") is None  # not a game ggn plays
    assert next(read('[Variant "Chaturaji"]\n*')).game == "Chaturaji"  # kept as written: replay refuses it
    assert (game_of("Anti"), game_of("Giveaway chess")) == ("antichess", "giveaway")  # python-chess's aliases


# --- hostile input -----------------------------------------------------------------------------------
def _error(text: str | bytes) -> tuple[list[Record], RecordError]:
    given: list[Record] = []
    with pytest.raises(RecordError) as caught:
        given.extend(read(text))
    return given, caught.value


GOOD = '[Event "one"]\n1. e4 e5 1-0\n\n'


@pytest.mark.parametrize(("bad", "message"), [
    ('[Event "two"]\n1. e4 {never closed\n', "game 2 (line 5): the comment opened at line 5 is not closed"),
    ('[Event "two"]\n1. e4 (1. d4 d5\n', "game 2 (line 5): the variation opened at line 5 is not closed"),
    ('[Event "two"]\n1. e4 e5 (1... c5) ) *\n', "game 2 (line 5): a ')' closes no variation"),
    ('[Event "two"]\n1. e4 (1. d4 1-0\n', "game 2 (line 5): the result '1-0' comes inside the variation"),
    ('[Event "two\n1. e4 *\n', 'game 2 (line 4): a tag pair is written [Name "value"]'),
    ('[Event "two"]\n$1 e4 *\n', "game 2 (line 5): the annotation '$1' comes before any move"),
    ('[Event "two"]\n( e4 ) *\n', "game 2 (line 5): a variation '(' comes before any move"),
    ('[Event "two"]\n1. e4 <b> *\n', "game 2 (line 5): '<b> *' is not PGN"),
])
def test_a_bad_game_is_an_error_with_its_number_after_the_games_before_it(bad: str, message: str) -> None:
    given, error = _error(GOOD + bad)
    assert [record.tag("Event") for record in given] == ["one"]
    assert str(error).startswith(message), str(error)
    assert isinstance(error, GGNError) and error.game == 2


def test_a_truncated_file_gives_its_last_game_without_a_result() -> None:
    text = GOOD + '[Event "two"]\n1. e4 e5 2. Nf3 Nc'
    records = list(read(text))
    assert [record.result for record in records] == ["1-0", None]
    assert records[1].moves[-1].text == "Nc"  # replay refuses it, at that move


def test_binary_input_is_refused_clearly() -> None:
    with pytest.raises(RecordError, match=r"^game 1 \(line 1\): this is not the text of a record"):
        list(read(bytes(range(256)) * 40))
    with pytest.raises(RecordError, match="NUL"):
        list(read(io.StringIO("1. e4\0 *")))


def test_a_ten_megabyte_comment_is_read_in_bounded_time_and_memory() -> None:
    comment = "x" * (10 * 1024 * 1024)
    text = f"1. e4 {{{comment}}} e5 *\n\n1. d4 {{{'word ' * 200_000}\n{'more ' * 200_000}}} *\n"
    tracemalloc.start()
    try:
        records = list(read(io.StringIO(text)))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(records[0].moves[0].comments[0]) == len(comment)
    assert records[1].moves[0].comments[0].startswith("word word")
    assert peak < 12 * len(text)  # a few copies of the text, not a quadratic pile


def test_a_game_longer_than_the_bound_is_refused_by_number() -> None:
    from ggn.records import MAX_GAME_CHARS  # noqa: PLC0415

    line = "{" + "y" * 1_000_000 + "}\n"
    lines = iter([GOOD, '[Event "two"]\n', *([line] * (MAX_GAME_CHARS // len(line) + 2))])
    given: list[Record] = []
    with pytest.raises(RecordError, match=r"^game 2 .*longer than 33,554,432 characters"):
        given.extend(read_lines(lines))
    assert len(given) == 1


def test_deeply_nested_variations_are_refused_without_a_recursion_error() -> None:
    deep = "1. e4 " + "(1. d4 " * 100_000 + ")" * 100_000 + " *"
    given, error = _error(GOOD + deep)
    assert len(given) == 1 and f"nest deeper than {MAX_DEPTH} levels" in str(error)
    just = "1. e4 " + "(1. d4 " * MAX_DEPTH + ")" * MAX_DEPTH + " *"
    record = next(read(just))
    assert record.depth() == MAX_DEPTH
    assert next(read(write_record(record))).moves == record.moves  # compared, written, read


def test_many_games_stream_in_bounded_time() -> None:
    text = "".join(f'[Round "{n}"]\n1. e4 e5 2. Nf3 Nc6 1/2-1/2\n\n' for n in range(20_000))
    start = time.perf_counter()
    count = sum(1 for _ in read(io.StringIO(text)))
    elapsed = time.perf_counter() - start
    assert count == 20_000
    assert elapsed < 60  # a bound against a quadratic reader, far above the few seconds it takes


def test_wrong_types_are_type_errors() -> None:
    with pytest.raises(TypeError, match="source must be"):
        list(read(5))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="format must be"):
        list(read("*", format=5))  # type: ignore[arg-type]
    with pytest.raises(GGNError, match="a record format is one of pgn, kif, csa, not 'xml'"):
        list(read("*", format="xml"))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="record must be a Record"):
        write_record("1. e4 *")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"RecordMove.text must be a str"):
        RecordMove(5)  # type: ignore[arg-type]


def test_a_comment_holding_a_closing_brace_is_written_after_a_semicolon() -> None:
    record = next(read("1. e4 ; a { brace } here\ne5 {plain} *"))
    assert record.moves[0].comments == ("a { brace } here",)
    text = write_record(record)
    assert "1. e4 ; a { brace } here\n1... e5 { plain } *" in text
    assert next(read(text)).moves == record.moves
    theirs = chess_pgn.read_game(io.StringIO(text))  # python-chess skips ';' comments, and reads on
    assert [move.uci() for move in theirs.mainline_moves()] == ["e2e4", "e7e5"]
    assert theirs.next().next().comment == "plain"


@pytest.mark.parametrize("text", ["*?", "1-0!", "1/2-1/2!?"])
def test_a_result_with_an_annotation_is_no_move(text: str) -> None:
    # found by tests/test_fuzz_records.py: '*?' was read as a move '*' annotated '?'
    given, error = _error(text)
    assert [record.result for record in given] == [text.rstrip("!?")]
    assert "comes before any move it could annotate" in str(error)
