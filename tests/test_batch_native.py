"""ggn.batch.legal through the native kernel against the pure path: the same Results, byte for
byte and in the same order, on lines of several games (FEN and FEEN of random games and random
placements, a chess960 FEN) mixed with malformed, blank and hostile lines, in every notation;
and against python-chess for chess lines. The seeds come from a fixed list drawn once from
os.urandom (not tuned on); GGN_BATCH_SEEDS=... overrides them for a fresh sweep by hand."""

from __future__ import annotations

import os
import pickle
import random
from array import array

import pytest

from ggn import batch
from ggn.errors import GGNError
from ggn.position import Position
from ggn.rules import _lines, _native, native_support, rule_system, use_native
from ggn.rules._system import RuleSystem
from ggn.variants import registry
from ggn.variants.fen import from_feen

SEEDS = tuple(int(seed) for seed in os.environ.get("GGN_BATCH_SEEDS", "60613,881245,317772").split(","))

pytestmark = pytest.mark.skipif(not _native.native_available(), reason="the C kernel is not built here")

HOSTILE = [
    "", "   ", "\t", "8/8 w", "x" * 300, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
    "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x - - 0 1", "🂡/8/8/8/8/8/8/8 w - - 0 1", "\x00\x01",
    "k7/8/8/8/8/8/8/7K w - - 0 1 extra", "8/8/8/8/8/8/8/8 w - - 0 1", "KK6/8/8/8/8/8/8/kk6 w - - 0 1",
    "+k^7/8/8/8/8/8/8/7K^ / C/c", "8/8/8/8/8/8/8/8 / C/c", "k^/8 / C/c", "[]", "/" * 40, "1" * 80,
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Qq] w KQkq - 0 1",
]


def _walk(rules: RuleSystem, seed: int, plies: int) -> list[Position]:
    chance = random.Random(seed)
    position = rules.position()
    seen = [position]
    with use_native(False):
        for _ in range(plies):
            plays = rules.legal_moves(position)
            if not plays:
                break
            position = position.apply(chance.choice(plays).transition)
            seen.append(position)
    return seen


def _placements(rules: RuleSystem, seed: int, count: int) -> list[Position]:
    chance = random.Random(seed)
    start = rules.position()
    found = []
    for _ in range(count):
        codes = list(start._codes)
        chance.shuffle(codes)
        hands = (dict(start._hands[0]), dict(start._hands[1]))
        found.append(Position._make(start._geometry, codes, hands, chance.choice(("first", "second")),
                                    start.styles))
    return found


def _lines_of(name: str, seed: int, plies: int = 40, placements: int = 8) -> list[str]:
    """FEEN and FEN lines of a random game and random placements, with hostile lines among them."""
    rules = rule_system(name)
    variant = registry.variant(name)
    chance = random.Random(seed)
    lines: list[str] = []
    for position in _walk(rules, seed, plies) + _placements(rules, seed + 1, placements):
        feen = position.to_feen()
        try:
            fen = from_feen(variant, position)
        except Exception:  # noqa: BLE001  (a position FEN cannot write: its FEEN only)
            fen = feen
        lines.append(chance.choice((feen, fen)))
    for hostile in HOSTILE:
        lines.insert(chance.randrange(len(lines) + 1), hostile)
    return lines


def _answers(name: str, lines: list[str], notation: str | None, native: bool) -> list[tuple[object, ...]]:
    with use_native(native):
        results = list(batch.legal(name, lines, notation=notation))  # type: ignore[arg-type]
    kernel = sum(1 for result in results if result[4] is not batch._UNREAD)
    assert bool(kernel) == (native and any(result.ok for result in results))  # the kernel answered
    return [(r.line, r.text, r.json, r.error) for r in results]


CASES = [("chess", "uci"), ("chess", None), ("chess", "san"), ("shogi", "usi"), ("shogi", "uci"),
         ("xiangqi", "uci"), ("crazyhouse", "uci"), ("crazyhouse", "ggn"), ("fischerandom", "uci"),
         ("makruk", "uci"), ("capablanca", "uci"), ("minishogi", "usi"), ("grand", "uci"),
         ("sittuyin", "uci"), ("atomic", "uci"), ("placement", "uci"), ("petrified", "uci")]


@pytest.mark.parametrize(("name", "notation"), CASES)
def test_the_kernel_answers_as_the_pure_path(name: str, notation: str | None) -> None:
    supported, reason = native_support(name)
    assert supported, reason
    seed = SEEDS[CASES.index((name, notation)) % len(SEEDS)]
    lines = _lines_of(name, seed)
    native = _answers(name, lines, notation, True)
    assert native == _answers(name, lines, notation, False)
    assert sum(1 for answer in native if answer[3] is None) > len(lines) // 2  # most lines are positions


def test_a_chess960_fen() -> None:
    lines = ["bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
             "1r2k1r1/8/8/8/8/8/8/R3K1R1 w GAg - 0 1", "rk5r/8/8/8/8/8/8/RK5R w AHah - 0 1",
             "2r1kr2/8/8/8/8/8/8/2R1KR2 b CFcf - 0 1"]
    for notation in ("uci", None):
        native = _answers("fischerandom", lines, notation, True)
        assert native == _answers("fischerandom", lines, notation, False)


def test_against_python_chess() -> None:
    chess = pytest.importorskip("chess")
    lines = [line for line in _lines_of("chess", SEEDS[0], plies=120, placements=30)
             if line.count("/") == 7 and not line.endswith("C/c")]
    checked = 0
    for result in batch.legal("chess", lines, notation="uci"):
        try:
            board = chess.Board(result.text)
        except ValueError:
            assert not result.ok or result.text.startswith("8/8/8/8/8/8/8/8")
            continue
        if not result.ok or not board.is_valid():
            continue
        assert sorted(result.value) == sorted(move.uci() for move in board.legal_moves), result.text
        checked += 1
    assert checked > 50


@pytest.mark.full
def test_every_built_in_game_the_kernel_plays() -> None:
    # Ten positions each, UCI (USI for the shogi family): the kernel's order and words are the pure path's.
    for number, name in enumerate(registry.names()):
        if not native_support(name)[0]:
            continue
        notation = "usi" if registry.variant(name).template == "shogi" else "uci"
        lines = [position.to_feen() for position in _walk(rule_system(name), SEEDS[number % len(SEEDS)], 9)]
        assert _answers(name, lines, notation, True) == _answers(name, lines, notation, False), name


def test_the_batch_s_sets_list_every_small_board_game_as_the_pure_path() -> None:
    # On a board of up to 64 squares the batch's listing finds the plain pieces' moves as sets of
    # squares and takes the calm ones at once (kernel.c, ggn_search_legal): every such game the
    # kernel plays, on a random game's positions and on shuffled placements (checks, pins and
    # pieces out of place among them), against the pure path, move by move and in its order.
    games = answered = 0
    for number, name in enumerate(registry.names()):
        rules = rule_system(name)
        if not native_support(name)[0] or len(rules.position()._codes) > 64:
            continue
        notation = "usi" if registry.variant(name).template == "shogi" else "uci"
        seed = SEEDS[number % len(SEEDS)]
        lines = [position.to_feen() for position in _walk(rules, seed, 5) + _placements(rules, seed, 3)]
        with use_native(True):
            native = list(batch.legal(name, lines, notation=notation))  # type: ignore[arg-type]
        with use_native(False):
            pure = list(batch.legal(name, lines, notation=notation))  # type: ignore[arg-type]
        assert [(r.line, r.text, r.json, r.error) for r in native] == \
            [(r.line, r.text, r.json, r.error) for r in pure], name
        games += 1
        answered += sum(1 for result in native if result[4] is not batch._UNREAD)  # by the kernel
    assert games > 40
    assert answered > 5 * games


def test_results_keep_their_value_and_json() -> None:
    results = list(batch.legal("chess", [registry.start("chess"), "8/8 w"], notation="uci"))
    first, bad = results
    value = first.value
    assert len(value) == 20 and value == first.value and value is not first.value
    value.append("mutated")
    assert len(first.value) == 20
    with use_native(False):
        pure = next(iter(batch.legal("chess", [registry.start("chess")], notation="uci")))
    assert first == pure and hash(first) == hash(pure) and repr(first) == repr(pure)
    assert first.json == pure.json
    assert pickle.loads(pickle.dumps(first)) == first
    assert pickle.loads(pickle.dumps(bad)) == bad and not bad.ok
    with pytest.raises(AttributeError):
        setattr(first, "line", 3)  # noqa: B010
    assert batch.Result(1, "x", "[]", None).value == []


def test_results_are_read_in_c_once_the_kernel_answers_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    # Result.ok and Result.value read by the kernel's C functions from the first batch its reader
    # answers on (ggn.batch._read_in_c), for every Result: the same answers as the Python ones.
    for name, function in (("ok", batch._ok), ("value", batch._value)):  # (as a process begins)
        monkeypatch.setattr(batch.Result, name, property(function, doc=batch.Result.__dict__[name].__doc__))
    made = [batch.Result(1, "x", '[{"a": 1}]', None), batch.Result(2, "y", None, "no"),
            batch._answered(3, "z", ["e2e4", "d2d4"]), batch._answered(4, "w", [{"uci": "e2e4"}]),
            batch._answered(5, "v", [])]
    before = [(result.ok, result.value if result.ok else None) for result in made]
    assert batch.Result.__dict__["value"].fget is batch._value  # (the Python function, at first)
    list(batch.legal("chess", [registry.start("chess")], notation="uci"))
    assert batch.Result.__dict__["ok"].fget is not batch._ok
    assert batch.Result.__dict__["value"].fget is not batch._value
    assert [(result.ok, result.value if result.ok else None) for result in made] == before
    for result in made[:1] + made[2:]:  # a new object at each read, an object's own copy
        assert result.value is not result.value
    objects = made[3].value
    objects[0]["uci"] = "changed"
    assert made[3].value == [{"uci": "e2e4"}]
    with pytest.raises(GGNError, match="line 2: no"):
        _ = made[1].value
    with pytest.raises(TypeError):
        batch.Result.__dict__["ok"].fget("not a result")
    assert batch.Result.ok.__doc__ == "Whether the line was answered."


def test_emission_order_of_generators() -> None:
    # Every generator of chess and xiangqi has one order its runs keep.
    for name in ("chess", "xiangqi"):
        rules = rule_system(name)
        start = rules.position()
        lister = _lines.lister(rules, start, "uci", None)
        assert lister is not None
        for number in range(len(lister.game.places) // 3):
            if lister.ranks[number] < 0:
                assert lister._rank(number)
        assert not lister.failed
    assert _lines.emission_order(None) == []


def test_spread_chunks_use_the_kernel_too() -> None:
    lines = _lines_of("chess", SEEDS[1], plies=30, placements=4)
    spread = [(r.line, r.text, r.json, r.error)
              for r in batch.legal("chess", lines, notation="uci", jobs=2, chunk=8)]
    assert spread == _answers("chess", lines, "uci", False)


def _python_reading(name: str, text: str, lister: _lines.Lister) -> tuple[bytes, bytes] | None:
    """The kernel's position and hand order of a FEN line as the Python reader reads it, or
    None where it refuses the line."""
    from array import array  # noqa: PLC0415

    from ggn.position import code_of  # noqa: PLC0415
    from ggn.variants.fen import is_feen, to_feen  # noqa: PLC0415

    rules = rule_system(name)
    try:
        position = rules.position(text if is_feen(text) else to_feen(registry.variant(name), text))
    except GGNError:
        return None
    encoded = _native._encode(lister.game, position)
    if encoded is None:
        return None
    hands = array("i", [-1]) * len(lister.game.kind_of)
    for place, piece in enumerate(position._hands[0 if position.active == "first" else 1]):
        hands[lister.game.kind_of[code_of(piece)]] = place
    return encoded.tobytes(), hands.tobytes()


@pytest.mark.parametrize("name", ["chess", "fischerandom", "crazyhouse", "shogi", "xiangqi", "capablanca",
                                  "berolina", "makruk", "grand", "minishogi"])
def test_the_c_reader_reads_as_the_python_reader(name: str) -> None:
    # Every FEN line the C reader reads (random games, placements, and those lines mutated a
    # character at a time) is the position the Python reader makes of it; a line it leaves is
    # one the Python reader refuses or one it does not handle.
    supported, reason = native_support(name)
    assert supported, reason
    rules = rule_system(name)
    lister = _lines.lister(rules, rules.position(), "uci", None)
    assert lister is not None and lister.fen is not None
    variant = registry.variant(name)
    chance = random.Random(SEEDS[2] + len(name))
    lines = []
    positions = _walk(rules, chance.randrange(1 << 30), 60) + _placements(rules, chance.randrange(1 << 30), 8)
    for position in positions:
        try:
            lines.append(from_feen(variant, position))
        except Exception:  # noqa: BLE001  (a position FEN cannot write)
            continue
    alphabet = "0123456789/+~[]-wbKQkqabcdefghAHpPnNrRsSgGlL *"
    mutated = []
    for line in lines:
        for _ in range(3):
            at = chance.randrange(len(line))
            mutated.append(line[:at] + chance.choice(alphabet) + line[at + 1:])
            mutated.append(line[:at] + line[at + 1:])
    read = 0
    for text in lines + mutated:
        got = lister.kernel.read_listed(lister.search, lister.fen, text, lister.ranks, lister.bases,
                                        lister.strings, lister.position, lister.hands)
        expected = _python_reading(name, text, lister)
        if got is None:
            continue
        read += 1
        assert expected is not None, text
        assert (lister.position.tobytes(), lister.hands.tobytes()) == expected, text
    assert read > len(lines) // 2


def test_lines_of_every_kind_walked_in_c_as_the_pure_path() -> None:
    # The kernel's reader walks a batch's lines in C (Reader.answers): a str of ASCII it reads
    # becomes its Result there (the white space str.strip strips taken off), any other line
    # (bytes, other text, blank, too long, FEEN, an error) is numbered and answered in Python:
    # the same Results, line numbers and order, as the pure path's, from a list or a generator.
    fens = [line for line in _lines_of("chess", SEEDS[1], plies=30, placements=6) if line.count(" ") > 2]
    chance = random.Random(SEEDS[2])
    wrapped: list[str | bytes] = [
        " \t" + fens[0] + "\x1c\x1f ", "\x0b" + fens[1], fens[2] + "\r", "\u3000" + fens[3] + "\u2003",
        fens[4].encode(), (fens[5] + "\r\n").encode(), b"\xff\xfe" + fens[6].encode(), "", "\x1c\x1d\x1e",
        "x" * (batch.MAX_LINE + 1), b"y" * (batch.MAX_LINE + 2), "é" + fens[7]]
    lines: list[str | bytes] = list(fens)
    for line in wrapped:
        lines.insert(chance.randrange(len(lines) + 1), line)
    for notation in ("uci", "san"):
        native = _answers("chess", lines, notation, True)  # type: ignore[arg-type]
        assert native == _answers("chess", lines, notation, False), notation  # type: ignore[arg-type]
        with use_native(True):
            walked = [(r.line, r.text, r.json, r.error)
                      for r in batch.legal("chess", iter(lines), notation=notation)]
        assert walked == native
    for switch in (True, False):
        with use_native(switch):
            answers = batch.legal("chess", [fens[0], "", fens[1], 3], notation="uci")  # type: ignore[list-item]
            assert [result.line for result in (next(answers), next(answers))] == [1, 3]
            with pytest.raises(TypeError, match=r"not int \(line 4\)"):
                next(answers)


@pytest.mark.parametrize("name", ["chess", "crazyhouse"])
def test_the_fen_reader_s_table_is_checked_value_by_value(name: str) -> None:
    # The C FEN reader trusts no value of its table (ggn.rules._lines.fen_table makes it): each
    # value set to -2, -1, 0, 27, 10**6 or 2**31 - 1, or the table cut there, is refused ("does
    # not fit the game") or read, never out of bounds. A board of a million files was taken
    # (a failed check of its size said "fits") and overran the reader's stack.
    line = ("r3k2r/pppq1ppp/2n5/3pP3/8/8/PPP2PPP/R3K2R[Nn] w KQkq d6 0 12" if name == "crazyhouse"
            else "r3k2r/pppq1ppp/2n5/3pP3/8/8/PPP2PPP/R3K2R w KQkq d6 0 12")
    # (a batch's first line ranks the moves' groups and writes their strings, in its lister)
    assert next(batch.legal(name, [line], notation="uci")).ok
    rules = rule_system(name)
    lister = _lines.lister(rules, rules.position(), "uci", None)
    assert lister is not None and lister.fen is not None
    kernel, table = lister.kernel, lister.fen

    def read(words: array[int]) -> list[str] | None:
        got = kernel.read_listed(lister.search, words, line, lister.ranks, lister.bases, lister.strings,
                                 lister.position, lister.hands)
        assert got is None or type(got) in (list, int, bytes)
        return got if type(got) is list else None

    expected = read(table)
    assert expected is not None and "e1g1" in expected and "e5d6" in expected
    refused = 0
    for at in range(len(table)):
        for value in (-2, -1, 0, 27, 10**6, 2**31 - 1):
            patched = array("i", table)
            patched[at] = value
            try:
                read(patched)
            except ValueError as error:
                assert str(error) == "the FEN reader's table does not fit the game"
                refused += 1
        with pytest.raises(ValueError, match="does not fit the game"):
            read(table[:at])
    # Every value of the head is checked (the magic, the board's size, the kinds' count...).
    assert refused > 11 * 3
    with pytest.raises(ValueError, match="does not fit the game"):
        kernel.reader(lister.search, array("i", [table[0], 10**6, 10**6]) + table[3:], lister.ranks,
                      lister.bases, lister.strings, lister.position, lister.hands, lambda text, got: None)
