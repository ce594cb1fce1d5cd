"""Playouts (``ggn.rules.playout``, ``ggn playout``): games played to their end with seeded
random moves, checked against independent oracles.

- chess games replayed in python-chess: every move legal, no end before the last ply, and the
  end ggn gives is python-chess's (checkmate, stalemate; the fifty-move rule and threefold
  repetition, which python-chess lets a player claim and a playout claims at once);
- shogi games replayed in python-shogi: every move legal, checkmate, and the fourfold
  repetition (lost by the player who checked at every move of it, else drawn);
- games of other variants replayed in pyffish: every move among its legal moves, no end
  (``is_immediate_game_end``, ``is_optional_game_end``, no legal move) before the last ply,
  and the last ply's end and winner as pyffish's;
- the specification of docs/DECISIONS.md ("Playouts"): splitmix64's published outputs, the
  canonical order, the same seed the same games, other seeds other games;
- where the native kernel plays playouts, the same games as the pure path for every game it
  covers;
- the command: its JSON, its text, its errors.
"""

from __future__ import annotations

import io
import json
import random
from collections.abc import Iterator

import pytest

from ggn.cell import Cell
from ggn.cli import run
from ggn.errors import GGNError
from ggn.game import Game
from ggn.notation import write
from ggn.position import Position
from ggn.rules import Ending, Play, Playouts, playout, rule_system
from ggn.rules._playout import MAX_GAMES, MAX_PLIES, SplitMix64, canonical, captures
from ggn.variants import registry


def _uci(name: str, found: Playouts) -> Iterator[list[str]]:
    """Each game's moves as Fairy-Stockfish's UCI strings, made from its own positions."""
    assert found.moves is not None
    rules = rule_system(name)
    for plays in found.moves:
        position = rules.position()
        moves = []
        for play in plays:
            moves.append(write(rules, position, play, "uci"))
            position = position.apply(play.transition)
        yield moves


def call(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = run(list(argv), out, err)
    return status, out.getvalue(), err.getvalue()


# --- the specification ------------------------------------------------------------------------
def test_splitmix64_gives_its_published_outputs() -> None:
    # The reference outputs of splitmix64 seeded with 1234567, as Rosetta Code publishes them
    # ("Pseudo-random numbers/Splitmix64"), and its first output seeded with 0.
    assert SplitMix64(0).next() == 0xE220A8397B1DCDAF
    generator = SplitMix64(1234567)
    assert [generator.next() for _ in range(5)] == [
        6457827717110365317, 3203168211198807973, 9817491932198370423, 4593380528125082431,
        16408922859458223821]


def test_each_game_has_its_own_stream_from_the_seed() -> None:
    master = SplitMix64(42)
    states = [master.next() for _ in range(4)]
    assert [SplitMix64.of_game(42, number).state for number in range(4)] == states
    last = (1 << 64) - 1
    assert SplitMix64.of_game(last, 3).state == SplitMix64(last + 3 * 0x9E3779B97F4A7C15).next()


def test_an_index_is_the_high_bits_scaled() -> None:
    generator = SplitMix64(9)
    value = SplitMix64(9).next()
    assert generator.below(37) == ((value >> 32) * 37) >> 32


def test_the_canonical_order_is_by_source_destination_and_piece() -> None:
    rules = rule_system("crazyhouse")
    position = rules.position("+r^3+k^3/8/8/8/8/8/8/+R3+K^3 NP/p C/c".replace("+r^", "+r"))
    plays = canonical(position, rules.legal_moves(position))
    index = position._geometry.index
    size = len(position._codes)

    def key(play: Play) -> tuple[int, int, str]:
        source = index[play.source] if isinstance(play.source, Cell) else size
        destination = index[play.destination] if isinstance(play.destination, Cell) else size
        return source, destination, str(play.piece)

    keys = [key(play) for play in plays]
    assert keys == sorted(keys)
    drops = [play for play in plays if not isinstance(play.source, Cell)]
    assert {str(play.piece) for play in drops} == {"C:N", "C:P"}
    # The drops come last, each destination's knight before its pawn.
    assert plays[-len(drops):] == drops
    pieces: dict[object, list[str]] = {}
    for play in drops:
        pieces.setdefault(play.destination, []).append(str(play.piece))
    assert ["C:N", "C:P"] in pieces.values()
    assert all(found in (["C:N", "C:P"], ["C:N"]) for found in pieces.values())


def test_a_promotion_s_plays_keep_the_rule_system_s_order() -> None:
    rules = rule_system("chess")
    position = rules.position("4k^3/1P6/8/8/8/8/8/4K^3 / C/c")
    listed = [play for play in rules.legal_moves(position) if str(play.piece) == "C:P"]
    ordered = [play for play in canonical(position, rules.legal_moves(position)) if str(play.piece) == "C:P"]
    assert ordered == listed
    assert len(ordered) == 4  # the four choices of b7-b8, in the rule system's order


def test_captures_are_read_from_the_play_s_changes() -> None:
    rules = rule_system("chess")
    position = rules.position("4k^3/8/8/3pP3/8/8/8/4K^3 / C/c".replace("3pP3", "3-pP3"))
    found = {str(play): captures(position, play) for play in rules.legal_moves(position)}
    assert found["C:P e5-d6"] is True  # en passant: its change on d5
    assert found["C:P e5-e6"] is False


def test_the_same_seed_gives_the_same_games() -> None:
    first = playout("chess", games=3, seed=11, max_plies=60, moves=True)
    again = playout("chess", games=3, seed=11, max_plies=60, moves=True)
    assert first == again
    assert first.moves == again.moves
    # A game is its seed's and its number's, whatever the number of games played.
    alone = playout("chess", games=1, seed=11, max_plies=60, moves=True)
    assert first.moves is not None and alone.moves is not None
    assert alone.moves[0] == first.moves[0]


def test_other_seeds_give_other_games() -> None:
    found = [playout("chess", games=2, seed=seed, max_plies=30, moves=True).moves for seed in (1, 2, 3)]
    assert len(set(found)) == 3
    one = found[0]
    assert one is not None and one[0] != one[1]


def test_the_captures_policy_takes_whenever_it_can() -> None:
    found = playout("chess", games=2, seed=5, max_plies=80, policy="captures", moves=True)
    assert found.moves is not None
    rules = rule_system("chess")
    taken = 0
    for plays in found.moves:
        position = rules.position()
        for play in plays:
            legal = rules.legal_moves(position)
            if any(captures(position, other) for other in legal):
                assert captures(position, play)
                taken += 1
            position = position.apply(play.transition)
    assert taken > 10


def test_a_capped_game_is_unfinished() -> None:
    found = playout("chess", games=2, seed=3, max_plies=7)
    assert found.results == ("*", "*") and found.lengths == (7, 7) and found.endings == (None, None)
    assert found.totals() == {"1-0": 0, "0-1": 0, "1/2-1/2": 0, "*": 2}
    assert found.to_json() == {"game": "chess", "games": 2, "plies": 14, "results": found.totals(), "seed": 3,
                               "policy": "uniform", "max_plies": 7, "engine": found.engine}


def test_a_game_already_over_plays_no_ply() -> None:
    mate = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
    found = playout("chess", games=2, seed=1, fen=mate)
    assert found.results == ("0-1", "0-1") and found.lengths == (0, 0)
    assert found.endings == (Ending.CHECKMATE, Ending.CHECKMATE)


def test_a_fen_s_halfmove_clock_counts() -> None:
    # 99 plies without capture or pawn move: the first move that is neither ends the game.
    found = playout("chess", games=4, seed=2, fen="4k3/8/8/8/8/8/8/R3K3 w Q - 99 80", moves=True)
    assert found.moves is not None
    for plays, length, result in zip(found.moves, found.lengths, found.results, strict=True):
        assert length == 1 and result == "1/2-1/2", plays


@pytest.mark.parametrize(("keywords", "message"), [
    ({"games": -1}, "0 to"), ({"games": MAX_GAMES + 1}, "0 to"), ({"seed": -1}, r"2\^64"),
    ({"seed": 1 << 64}, r"2\^64"), ({"policy": "best"}, "no playout policy 'best'"),
    ({"max_plies": MAX_PLIES + 1}, "max_plies"), ({"max_plies": -1}, "max_plies"),
])
def test_bad_arguments_are_errors(keywords: dict[str, object], message: str) -> None:
    arguments: dict[str, object] = {"games": 1, "seed": 0, **keywords}
    with pytest.raises(GGNError, match=message):
        playout("chess", **arguments)  # type: ignore[arg-type]


def test_wrong_types_are_type_errors() -> None:
    with pytest.raises(TypeError, match="games must be an int"):
        playout("chess", games="2", seed=0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="seed must be an int"):
        playout("chess", games=2, seed=True)


# --- chess against python-chess ---------------------------------------------------------------
def _check_chess(found: Playouts, start: str | None = None) -> set[str]:
    chess = pytest.importorskip("chess")
    endings = set()
    games = zip(_uci("chess", found), found.results, found.endings, found.lengths, strict=True)
    for moves, result, ending, length in games:
        assert len(moves) == length
        board = chess.Board() if start is None else chess.Board(start)
        for ply, move in enumerate(moves):
            # No end before the last ply: no mate, no stalemate, nothing to claim.
            assert board.outcome() is None or board.is_insufficient_material(), (ply, board.fen())
            assert board.halfmove_clock < 100 and not board.is_repetition(3), (ply, board.fen())
            assert chess.Move.from_uci(move) in board.legal_moves, (ply, move, board.fen())
            board.push_uci(move)
        if ending is None:
            assert result == "*" and length == found.max_plies
            assert not board.is_game_over(claim_draw=True) or board.is_insufficient_material()
        elif ending is Ending.CHECKMATE:
            assert board.is_checkmate()
            assert result == ("0-1" if board.turn == chess.WHITE else "1-0")
        elif ending is Ending.STALEMATE:
            assert board.is_stalemate() and result == "1/2-1/2"
        elif ending is Ending.MOVE_RULE:
            assert board.is_fifty_moves() and not board.is_checkmate() and result == "1/2-1/2"
        elif ending is Ending.REPETITION:
            assert board.is_repetition(3) and result == "1/2-1/2"
        else:
            raise AssertionError(f"chess ended by {ending}")
        endings.add(ending.name if ending is not None else "*")
    return endings


def test_chess_playouts_against_python_chess() -> None:
    found = playout("chess", games=6, seed=2026, policy="captures", moves=True)
    endings = _check_chess(found)
    assert endings - {"*"}, endings


def test_chess_endgame_playouts_against_python_chess() -> None:
    # Few pieces: mates, stalemates, fifty moves and repetitions all come.
    endings: set[str] = set()
    for number, fen in enumerate(("8/8/8/4k3/8/8/8/R3K3 w Q - 0 1", "8/8/3k4/8/8/3K4/3Q4/8 w - - 0 1",
                                  "8/5k2/8/8/8/8/2K5/1R6 b - - 0 1", "8/8/8/8/8/2k5/1p6/1K6 w - - 0 1",
                                  "7k/8/6K1/8/8/8/8/QQ6 w - - 0 1")):
        found = playout("chess", games=6, seed=number, fen=fen, max_plies=300, moves=True)
        endings |= _check_chess_from(found, fen)
    assert {"CHECKMATE", "STALEMATE", "MOVE_RULE", "REPETITION"} <= endings, endings


def _check_chess_from(found: Playouts, fen: str) -> set[str]:
    chess = pytest.importorskip("chess")
    rules = rule_system("chess")
    start = Game("chess", fen=fen).start
    assert found.moves is not None
    endings = set()
    for plays, result, ending in zip(found.moves, found.results, found.endings, strict=True):
        board = chess.Board(fen)
        position = start
        for ply, play in enumerate(plays):
            assert board.outcome() is None or board.is_insufficient_material(), (ply, board.fen())
            assert board.halfmove_clock < 100 and not board.is_repetition(3), (ply, board.fen())
            move = write(rules, position, play, "uci")
            assert chess.Move.from_uci(move) in board.legal_moves, (ply, move, board.fen())
            board.push_uci(move)
            position = position.apply(play.transition)
        if ending is Ending.CHECKMATE:
            assert board.is_checkmate() and result == ("0-1" if board.turn == chess.WHITE else "1-0")
        elif ending is Ending.STALEMATE:
            assert board.is_stalemate() and result == "1/2-1/2"
        elif ending is Ending.MOVE_RULE:
            assert board.is_fifty_moves() and result == "1/2-1/2"
        elif ending is Ending.REPETITION:
            assert board.is_repetition(3) and result == "1/2-1/2"
        else:
            assert ending is None and result == "*" and len(plays) == found.max_plies
        endings.add(ending.name if ending is not None else "*")
    return endings


# --- shogi against python-shogi ---------------------------------------------------------------
def test_shogi_playouts_against_python_shogi() -> None:
    shogi = pytest.importorskip("shogi")
    found = playout("shogi", games=4, seed=7, policy="captures", max_plies=250, moves=True)
    rules = rule_system("shogi")
    assert found.moves is not None
    ended = 0
    for plays, result, ending in zip(found.moves, found.results, found.endings, strict=True):
        board = shogi.Board()
        position = rules.position()
        for ply, play in enumerate(plays):
            assert not board.is_game_over(), (ply, board.sfen())
            move = write(rules, position, play, "usi")
            assert shogi.Move.from_usi(move) in board.legal_moves, (ply, move, board.sfen())
            board.push_usi(move)
            position = position.apply(play.transition)
        if ending is Ending.CHECKMATE:
            assert board.is_checkmate()
            assert result == ("0-1" if board.turn == shogi.BLACK else "1-0")  # BLACK: sente, moving first
            ended += 1
        elif ending is Ending.NO_LEGAL_MOVE:  # shogi's stalemate loses
            assert board.is_game_over() and not board.is_check()
            assert result == ("0-1" if board.turn == shogi.BLACK else "1-0")
            ended += 1
        elif ending in (Ending.REPETITION, Ending.PERPETUAL_CHECK):
            assert board.is_fourfold_repetition()
            ended += 1
        else:
            assert ending is None and result == "*" and len(plays) == found.max_plies
            assert not board.is_game_over()
    assert ended, found.results


# --- other variants against pyffish -----------------------------------------------------------
def _winner(fen: str, value: int) -> str:
    if value == 0:
        return "1/2-1/2"
    white = fen.split(" ")[1] == "w"
    return "1-0" if (value > 0) == white else "0-1"


@pytest.mark.parametrize("name", ["crazyhouse", "minishogi", "capablanca", "xiangqi", "3check", "atomic",
                                  "kingofthehill", "antichess", "makruk", "grand"])
def test_variant_playouts_against_pyffish(name: str) -> None:
    sf = pytest.importorskip("pyffish")
    found = playout(name, games=2, seed=len(name), policy="captures", max_plies=150, moves=True)
    start = sf.start_fen(name)
    for moves, result, ending in zip(_uci(name, found), found.results, found.endings, strict=True):
        for ply, move in enumerate(moves):
            before = moves[:ply]
            legal = sf.legal_moves(name, start, before)
            assert move in legal, (name, ply, move)
            assert not sf.is_immediate_game_end(name, start, before)[0], (name, ply)
            assert not sf.is_optional_game_end(name, start, before)[0], (name, ply)
        fen = sf.get_fen(name, start, moves)
        immediate, value = sf.is_immediate_game_end(name, start, moves)
        optional, claimed = sf.is_optional_game_end(name, start, moves)
        if ending is None:
            assert result == "*" and not immediate and not optional and sf.legal_moves(name, start, moves)
            continue
        if immediate:
            assert result == _winner(fen, value), (name, ending, value)
        elif not sf.legal_moves(name, start, moves):
            assert result == _winner(fen, sf.game_result(name, start, moves)), (name, ending)
        else:
            assert optional, (name, ending)
            assert result == _winner(fen, claimed), (name, ending, claimed)


# --- the kernel and the pure path -------------------------------------------------------------
def _native() -> object:
    native = pytest.importorskip("ggn.rules._native")
    if not getattr(native, "native_available", lambda: False)() or not hasattr(native, "playout"):
        pytest.skip("the native kernel plays no playouts here")
    return native


@pytest.mark.parametrize("name", registry.names())
def test_the_kernel_plays_the_pure_path_s_games(name: str) -> None:
    native = _native()
    supported, _ = native.native_support(name)  # type: ignore[attr-defined]
    if not supported:
        pytest.skip(f"{name}: played by the pure path")
    for policy in ("uniform", "captures"):
        fast = playout(name, games=3, seed=99, policy=policy, max_plies=120, moves=True)
        with native.use_native(False):  # type: ignore[attr-defined]
            slow = playout(name, games=3, seed=99, policy=policy, max_plies=120, moves=True)
        assert slow.engine == "pure"
        assert fast == slow, (name, policy)


# --- the command --------------------------------------------------------------------------------
def test_the_command_prints_json() -> None:
    status, out, err = call("playout", "chess", "--games", "3", "--seed", "4", "--max-plies", "12",
                            "--format", "json")
    assert status == 0, err
    value = json.loads(out)
    assert value == {"game": "chess", "games": 3, "plies": 36,
                     "results": {"1-0": 0, "0-1": 0, "1/2-1/2": 0, "*": 3}, "seed": 4,
                     "policy": "uniform", "max_plies": 12, "engine": value["engine"]}
    assert value["engine"] in ("native", "pure")
    assert value["plies"] == playout("chess", games=3, seed=4, max_plies=12).plies


def test_the_command_prints_text() -> None:
    fen = "8/8/8/8/8/2k5/1p6/1K6 w - - 0 1"
    status, out, _ = call("playout", "chess", fen, "--games", "5", "--seed", "1")
    assert status == 0
    found = playout("chess", games=5, seed=1, fen=fen)
    assert out.startswith("chess: 5 games from the position given, seed 1, policy uniform, at most 1,000 "
                          "plies")
    for result, count in found.totals().items():
        assert any(line.split()[:2] == [result, str(count)] for line in out.splitlines()), out
    assert f"plies    {found.plies:>9,}" in out


def test_the_command_reads_a_feen() -> None:
    feen = "+r3+k^2+r/8/8/8/8/8/8/+R3+K^2+R / C/c"
    status, out, _ = call("playout", "chess", feen, "--games", "2", "--max-plies", "5", "--format", "json")
    assert status == 0
    found = playout("chess", Position.from_feen(feen), games=2, seed=0, max_plies=5)
    assert json.loads(out)["plies"] == found.plies


@pytest.mark.parametrize(("argv", "status", "message"), [
    (("--games", "-1"), 2, "-1 is out of range"),
    (("--seed", "18446744073709551616"), 2, "out of range"),
    (("--policy", "best"), 2, "invalid choice: 'best'"),
    (("--max-plies", "1000001"), 2, "out of range"),
    (("--feen", "8/8/8/8/8/8/8/8 / C/c", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"), 2, "give the position once"),
    (("not a fen",), 1, "ggn playout: "),
])
def test_the_command_s_errors(argv: tuple[str, ...], status: int, message: str) -> None:
    code, out, err = call("playout", "chess", *argv)
    assert code == status and out == "" and message in err, err


def test_the_command_names_an_unknown_game() -> None:
    code, _, err = call("playout", "chesss", "--games", "1")
    assert code == 2 and "no game 'chesss'" in err and "did you mean chess" in err


def test_the_command_s_bounds_are_the_library_s() -> None:
    from ggn.cli import _playout  # noqa: PLC0415

    assert (_playout.MAX_PLIES, _playout.MAX_GAMES) == (MAX_PLIES, MAX_GAMES)


def test_random_starts_are_reproducible() -> None:
    rng = random.Random(5)
    seed = rng.randrange(1 << 64)
    assert playout("minishogi", games=2, seed=seed, max_plies=40) == playout("minishogi", games=2, seed=seed,
                                                                              max_plies=40)
