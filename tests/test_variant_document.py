"""GGN documents made from variant descriptions (ggn.variants.document).

The descriptions are tests/variant_records.py's (Fairy-Stockfish's variants written by hand).
The documents must be the games' own where a game had one (chess, shogi, xiangqi, makruk are
made the same way now: the records of tests and of ggn.games agree), and write the conventions
of the FEN module: the royal piece's ``^``, castling rights and their castling moves, double
steps and en passant, shogi-style promoted forms, pieces promoted from pawns where captures
go to hand, drops, holes. What the pieces do on a board is checked against Fairy-Stockfish by
tests/test_variant_rules.py.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from ggn.errors import GGNError
from ggn.games import chess, makruk, shogi, xiangqi
from ggn.variants.betza import parse
from ggn.variants.description import Castling, DoubleStep, Drops, PieceType, Promotion, Variant
from ggn.variants.document import build, layout, pin, style, token
from variant_records import RECORDS


@pytest.mark.parametrize(("name", "module"), [("chess", chess), ("shogi", shogi), ("xiangqi", xiangqi),
                                              ("makruk", makruk)])
def test_the_games_are_their_descriptions(name: str, module: object) -> None:
    assert build(RECORDS[name]) == module.document()  # type: ignore[attr-defined]


def test_castling_and_en_passant_on_a_wider_board() -> None:
    made = build(RECORDS["capablanca"])
    assert list(made["C:+K^"]) == ["f1"] and list(made["C:+R"]) == ["a1", "j1"]
    assert made["C:+K^"]["f1"]["i1"] == [
        {"must": {"g1": "empty", "h1": "empty", "i1": "empty", "j1": "C:+R"}}]
    assert made["c:+k^"]["f8"]["c8"] == [
        {"must": {"e8": "empty", "d8": "empty", "c8": "empty", "b8": "empty", "a8": "c:+r"}}]
    assert "i1" not in made["C:K^"]["f1"]
    assert made["C:P"]["e5"]["f6"] == [{"must": {"f6": "enemy"}}, {"must": {"f6": "empty", "f5": "c:-p"}}]
    assert made["C:-P"] == made["C:P"]
    # No en passant where no double step could have passed.
    assert made["C:P"]["e4"]["f5"] == [{"must": {"f5": "enemy"}}]


def test_pieces_promoted_from_pawns_and_drops() -> None:
    made = build(RECORDS["crazyhouse"])
    assert [piece for piece in made if piece.startswith("C:-")] == ["C:-P", "C:-Q", "C:-R", "C:-B", "C:-N"]
    assert made["C:-Q"] == {square: ways for square, ways in made["C:Q"].items() if square != "*"}
    # Pawns are dropped on neither the first nor the last rank; the king is never dropped.
    assert {square[1] for square in made["C:P"]["*"]} == set("234567")
    assert {square[1] for square in made["c:p"]["*"]} == set("234567")
    assert len(made["C:Q"]["*"]) == 64 and "*" not in made["C:K^"] and "*" not in made["C:-Q"]
    assert made["C:N"]["*"]["a1"] == [{"must": {"a1": "empty"}}]
    # In chessgi (loop chess, where a promoted piece is the piece itself, with no mark) a pawn
    # may be dropped on the first rank.
    chessgi = build(RECORDS["chessgi"])
    assert {square[1] for square in chessgi["C:P"]["*"]} == set("1234567")
    assert not [piece for piece in chessgi if piece.startswith("C:-") and piece != "C:-P"]


def test_shogi_style_forms_no_doubled_pawns_and_immobility() -> None:
    made = build(RECORDS["minishogi"])
    assert [piece for piece in made if piece.startswith("M:+")] == ["M:+R", "M:+B", "M:+S", "M:+P"]
    assert made["M:+S"] == {square: ways for square, ways in made["M:G"].items() if square != "*"}
    assert made["M:P"]["*"]["c2"] == [{"must": {"c2": "empty"},
                                       "deny": {"c1": "M:P", "c3": "M:P", "c4": "M:P", "c5": "M:P"}}]
    # A pawn never stands nor is dropped on its last rank, but it moves there (to promote).
    assert {square[1] for square in made["M:P"] if square != "*"} == set("1234")
    assert made["M:P"]["a4"] == {"a5": [{"must": {"a5": "empty"}}, {"must": {"a5": "enemy"}}]}
    # Tori shogi's swallows: a drop on a file of two swallows is the rule system's, not a deny.
    assert build(RECORDS["torishogi"])["T:S"]["*"]["d4"] == [{"must": {"d4": "empty"}}]


def test_regions_and_the_flying_general() -> None:
    made = build(RECORDS["xiangqi"])
    # The general's capture of the other general along an open file, onto its palace only.
    assert {square for square, ways in made["X:G^"]["e2"].items()
            if any(way["must"].get(square) == "x:g^" for way in ways)} == {"e8", "e9", "e10"}
    assert made["X:G^"]["e2"]["e10"][0]["must"] == {f"e{rank}": "empty" for rank in range(3, 10)} | {
        "e10": "x:g^"}
    palace = [f"{file}{rank}" for file in "def" for rank in (1, 2, 3)]
    assert sorted(made["X:A"]) == sorted(made["X:G^"]) == palace
    assert sorted(made["X:A"]["e2"]) == ["d1", "d3", "f1", "f3"] and sorted(made["X:A"]["d1"]) == ["e2"]
    assert sorted(made["x:e"]["c10"]) == ["a8", "e8"]
    # The soldier steps aside only past the river.
    assert sorted(made["X:P"]["e5"]) == ["e6"] and sorted(made["X:P"]["e6"]) == ["d6", "e7", "f6"]


def test_holes_are_no_squares() -> None:
    rook, king = PieceType("r", parse("R")), PieceType("k", parse("K"))
    holed = Variant("holed", 3, 3, (king, rook), "k2/1*1/R1K w - - 0 1", holes=frozenset({(1, 1)}))
    made = build(holed)
    assert "b2" not in made["H:R"] and "b2" not in made["H:K^"]["a1"]
    assert sorted(made["H:R"]["b1"]) == ["a1", "c1"]  # the hole stops the rook
    assert layout(holed).squares == frozenset((f, r) for f in range(3) for r in range(3)) - {(1, 1)}


def test_initial_moves_mark_the_piece_and_open_it_to_en_passant() -> None:
    pawn = PieceType("p", parse("mfFcfeWimfnA", initial=frozenset((f, 1) for f in range(8))))
    king = PieceType("k", parse("K"))
    berolina = Variant("berolina", 8, 8, (king, pawn), "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1",
                       double_step=DoubleStep((frozenset((f, 1) for f in range(8)),
                                               frozenset((f, 6) for f in range(8))),
                                              types=frozenset(), initial_movers=frozenset("p")))
    made = build(berolina)
    # A black pawn on e4 takes straight ahead onto e3, which a white pawn's d2-f4 or f2-d4
    # passed over: that pawn is taken where it stands, marked '-' from d2 (it passed over an
    # earlier file than its own), '+' from f2 (a later one).
    assert made["b:p"]["e4"]["e3"] == [{"must": {"e3": "enemy"}}, {"must": {"e3": "empty", "f4": "B:-P"}},
                                       {"must": {"e3": "empty", "d4": "B:+P"}}]
    assert list(made) == ["B:K^", "B:P", "B:-P", "B:+P", "b:k^", "b:p", "b:-p", "b:+p"]
    assert layout(berolina).passing_mark("p", (6, 6), (4, 4)) == "crossed"  # g7-e5, over f6
    assert layout(berolina).passing_mark("p", (2, 6), (4, 4)) == "dashed"  # c7-e5, over d6
    # A type passing squares straight and diagonally by its initial moves: two marks are too few.
    both = PieceType("p", parse("mfFcfeWimfnAimfnD", initial=frozenset((f, 1) for f in range(8))))
    with pytest.raises(GGNError, match="both straight and diagonally"):
        layout(replace(berolina, pieces=(king, both)))


def test_tokens_and_the_errors_of_a_description() -> None:
    variant = RECORDS["xiangqi"]
    assert style(variant) == "X" and pin(variant, "k") == "G" and pin(variant, "N") == "H"
    assert token(variant, "k", "first") == "X:G^" and token(variant, "b", "second") == "x:e"
    assert token(RECORDS["chess"], "r", "first", "castling") == "C:+R"
    assert token(RECORDS["shogi"], "p", "second", "promoted") == "s:+p"
    assert style(replace(variant, name="3check", style=None)) == "C"
    with pytest.raises(GGNError, match="'z' is not a piece letter of xiangqi"):
        token(variant, "z", "first")
    with pytest.raises(TypeError, match="letter"):
        token(variant, 3, "first")  # type: ignore[arg-type]
    king, rook = PieceType("k", parse("K")), PieceType("r", parse("R"))
    both = Variant("both", 8, 8, (king, rook), "8/8/8/8/8/8/8/R3K3 w Q - 0 1", castling=Castling(),
                   promotion=Promotion((frozenset(), frozenset()), pawn_types=(frozenset(), frozenset()),
                                       choices=((), ()), promoted=(("r", "k"),)))
    with pytest.raises(GGNError, match="'r' would need '\\+' both for castling and for its promoted form"):
        build(both)
    pawn, queen = PieceType("p", parse("fmWfcF")), PieceType("q", parse("Q"))
    minus = Variant("minus", 8, 8, (king, queen, pawn), "8/8/8/8/8/8/8/4K3[] w - - 0 1",
                    promotion=Promotion((frozenset(), frozenset()), choices=(("p",), ("p",))),
                    double_step=DoubleStep((frozenset(), frozenset())), drops=Drops(captures_to_hand=True))
    with pytest.raises(GGNError, match="'p' would need '-' both"):
        build(minus)
    with pytest.raises(GGNError, match="two piece types have the letter 'k'"):
        build(Variant("twice", 8, 8, (king, king), "8/8/8/8/8/8/8/8 w - - 0 1"))
    with pytest.raises(GGNError, match="the same PIN letter 'K'"):
        build(Variant("pins", 8, 8, (king, replace(rook, pin="K")), "8/8/8/8/8/8/8/8 w - - 0 1"))
