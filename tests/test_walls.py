"""Walls: squares walled off during play (Fairy-Stockfish's ``wallingRule``, ``wallingRegion``,
``petrifyOnCaptureTypes``), against pyffish where it has an answer.

The built-in games with walls (duck, amazons, isolation, isolation7x7, joust, snailtrail,
petrified) are played against pyffish by ``tests/test_variants_fsf.py`` and
``tests/test_notation_fsf.py``. This file adds what those do not reach:

- sections of its own, loaded into both pyffish and ggn and played against each other along
  seeded random games (legal-move sets, the FEN after every move, the ends): the edge rule, walls
  in a game with a king that can be checked (castling, en passant, promotion, pins), arrows shot
  by chess pieces, pieces of a chess army that turn into walls, walling regions per side;
- the wall in FEEN and in Fairy-Stockfish's FEN, both ways exactly; the wall in the GGN document;
  a walling play's ``wall``, its GGN text and its UCI and SAN strings;
- what the ini reader refuses, with the line and what ggn lacks.
"""

from __future__ import annotations

import random

import pytest

from ggn.cell import Cell
from ggn.errors import NotationError, VariantError
from ggn.notation import parse, write
from ggn.rules import Play, perft
from ggn.variants import registry
from ggn.variants.document import layout
from ggn.variants.registry import Catalogue
from support import loaded_in_both

pytestmark = pytest.mark.slow  # random games against pyffish

sf = pytest.importorskip("pyffish")

from test_variants_fsf import _Game, _play  # noqa: E402

SEED = 20261127

OWN = """\
# Isolation whose walls go on the board's edge or beside another wall.
[ggn-edgewalls:isolation]
wallingRule = edge

# Chess with a wall after every move, on any empty square: the wall never shields the king.
[ggn-wallchess:chess]
wallingRule = static

# Chess whose pieces shoot an arrow, as they move, from where they land.
[ggn-arrowchess:chess]
wallingRule = arrow

# Chess whose knights, bishops and queens turn into walls where they capture.
[ggn-petrichess:chess]
petrifyOnCaptureTypes = nbq

# Duck chess whose duck stays in the mover's own half of the board.
[ggn-halfduck:duck]
wallingRegionWhite = *1 *2 *3 *4
wallingRegionBlack = *5 *6 *7 *8
"""
NAMES = ("ggn-edgewalls", "ggn-wallchess", "ggn-arrowchess", "ggn-petrichess", "ggn-halfduck")


def _catalogue() -> Catalogue:
    catalogue, names = loaded_in_both(OWN, "test_walls.py")
    assert names == NAMES
    return catalogue


@pytest.mark.parametrize("name", NAMES)
def test_sections_with_walls_play_as_pyffish(name: str) -> None:
    game = _Game(name, _catalogue().entry(name))
    rng = random.Random(f"{SEED}:{name}")
    played = 0
    for _ in range(3):
        count, _ = _play(game, sf.start_fen(name), 50, rng)
        played += count
    assert played >= 3


@pytest.mark.parametrize(("name", "depth"), [("ggn-edgewalls", 2), ("ggn-petrichess", 3), ("joust", 4)])
def test_perft_against_pyffish(name: str, depth: int) -> None:
    entry = _catalogue().entry(name) if name in NAMES else registry.entry(name)
    fen = sf.start_fen(name)

    def count(moves: list[str], left: int) -> int:
        legal = sf.legal_moves(name, fen, moves)
        if left == 1:
            return len(legal)
        return sum(count([*moves, move], left - 1) for move in legal)

    assert perft(entry.rules, depth, entry.rules.position(entry.to_feen(fen))) == count([], depth)


# --- the wall in FEEN and FEN -------------------------------------------------------------------
def test_a_wall_is_the_second_players_piece_written_star_in_fen() -> None:
    entry = registry.entry("duck")
    fen = "rnbqkbnr/pppppppp/8/8/8/P7/*PPPPPPP/RNBQKBNR b KQkq - 0 1"
    feen = entry.to_feen(fen)
    assert feen == "+rnbq+kbn+r/pppppppp/8/8/8/P7/wPPPPPPP/+RNBQ+KBN+R / d/D"
    assert entry.from_feen(feen, fullmove=1) == fen
    assert layout(entry.variant).wall_token() == "d:w"
    amazons = registry.entry("amazons")
    fen = "3q*1q3/4Q5/10/q8q/10/10/Q9/10/10/3Q2Q3 b - - 1 1"
    assert amazons.from_feen(amazons.to_feen(fen), halfmove=1) == fen


def test_a_star_off_the_holes_is_refused_where_the_game_has_no_walls() -> None:
    with pytest.raises(NotationError, match="not a hole"):
        registry.entry("chess").to_feen("rnbqkbnr/pppppppp/8/8/8/*7/PPPPPPPP/RNBQKBNR w KQkq - 0 1")


def test_a_wall_of_the_wrong_side_is_refused_in_feen() -> None:
    entry = registry.entry("duck")
    with pytest.raises(NotationError, match="a wall of duck is d:w"):
        entry.from_feen("+rnbq+kbn+r/pppppppp/8/8/8/P7/WPPPPPPP/+RNBQ+KBN+R / d/D")


def test_a_walls_letter_is_one_no_piece_type_has() -> None:
    catalogue = Catalogue()
    catalogue.add_ini("[ggn-wazirwalls:isolation]\ncustomPiece2 = w:W\n", source="walls.ini")
    assert layout(catalogue.entry("ggn-wazirwalls").variant).wall == "Z"


def test_the_document_denies_the_wall_to_every_capture_of_the_first_player() -> None:
    document = registry.entry("duck").rules.ruleset
    pawn = document.to_value()["D:P"]["e4"]
    assert pawn["d5"] == [{"must": {"d5": "enemy"}, "deny": {"d5": "d:w"}}]
    assert "deny" not in document.to_value()["d:p"]["e5"]["d4"][0]


# --- walling plays --------------------------------------------------------------------------------
def test_a_walling_play_names_its_wall_in_every_notation() -> None:
    rules = registry.rules("duck")
    start = rules.position()
    play = parse(rules, start, "e2e4,e4d5")
    assert play.wall == Cell.parse("d5")
    assert str(play) == "D:P e2-e4,d5"
    assert [write(rules, start, play, name) for name in ("san", "lan", "uci", "ggn")] == [
        "e4,d5", "e2-e4,d5", "e2e4,e4d5", "D:P e2-e4,d5"]
    assert parse(rules, start, "e4,d5") == parse(rules, start, "D:P e2-e4,d5") == play
    assert play.__reduce__()[1][-1] == Cell.parse("d5")
    made = Play(play.piece, play.source, play.destination, None, play.transition, play.move, Cell.parse("d5"))
    assert made == play and str(made) == str(play)
    with pytest.raises(TypeError, match="wall must be a Cell or None"):
        Play(play.piece, play.source, play.destination, None, play.transition, play.move, "d5")  # type: ignore[arg-type]


def test_the_duck_moves_and_a_double_step_behind_a_wall_gives_no_en_passant() -> None:
    entry = registry.entry("duck")
    rules = entry.rules
    fen = "rnbqkbnr/ppp1pppp/8/8/3p4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    moves = ["e2e4,e4e3", "a7a6,a6h3"]
    position = rules.position(entry.to_feen(fen))
    for move in moves:
        position = rules.play(position, parse(rules, position, move, "uci"))
    written = entry.from_feen(position)
    assert written.split(" ")[:4] == sf.get_fen("duck", fen, moves).split(" ")[:4]
    assert written.split(" ")[0].count("*") == 1


def test_isolation_ends_when_a_player_cannot_move() -> None:
    entry = registry.entry("isolation")
    fen = "3p2/6/6/6/6/6/**4/P*4 w - - 0 1"
    position = entry.rules.position(entry.to_feen(fen))
    assert entry.rules.count(position) == 0
    outcome = entry.rules.outcome(position)
    assert outcome is not None and outcome.winner == "second"
    assert sf.game_result("isolation", fen, []) < 0


# --- what the ini reader refuses -------------------------------------------------------------
@pytest.mark.parametrize(("text", "line", "says"), [
    ("[x:chess]\nwallingRule = edge\nwallOrMove = true\n", 3, "a wall placed instead of a move"),
    ("[x:crazyhouse]\nwallingRule = static\n", 2, "walls and drops together"),
    ("[x:petrified]\nwallingRule = duck\n", 2, "walls with pseudo-royal pieces"),
    ("[x:atomic]\npetrifyOnCaptureTypes = n\npetrifyBlastPieces = true\n", 3,
     "pieces an explosion turns into walls"),
])
def test_what_walls_cannot_say_yet_is_refused_with_its_line(text: str, line: int, says: str) -> None:
    with pytest.raises(VariantError, match=says) as caught:
        Catalogue().add_ini(text, source="walls.ini")
    assert caught.value.line == line and caught.value.source == "walls.ini"
