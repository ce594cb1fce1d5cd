"""Fairy-Stockfish's variants.ini read into descriptions (ggn.variants.ini).

The syntax and the semantics are Fairy-Stockfish's (src/variant.cpp's reader, src/parser.cpp's
options): where a test states a fact of Fairy-Stockfish, pyffish checks it (the section loaded
into both with ``pyffish.load_variant_config``). Each error names its source, line and option.
The sections of Fairy-Stockfish's own ``variants.ini`` that use only options the description
supports are loaded, and each piece's moves on a board holding only the royal pieces equal
pyffish's; the sections it cannot say fail on the option that says why.
"""

from __future__ import annotations

import io
import pickle
import random
import re
import tracemalloc
from collections.abc import Callable
from functools import partial
from itertools import count
from pathlib import Path

import pytest

from ggn.cli import run
from ggn.errors import GGNError, NotFoundError, VariantError
from ggn.rules.variant import VariantRules
from ggn.variants import betza, ini, registry, uci
from ggn.variants import fen as fens
from ggn.variants.betza import PREDEFINED
from ggn.variants.description import History, Variant
from ggn.variants.pieces import View, destinations
from oracle_boards import placement

pyffish = pytest.importorskip("pyffish")

SEED = 20261123
SQUARES = 8  # squares per piece type where its moves are compared with pyffish's
FULL_SQUARES = 200  # under -m full: every square of the boards here

# Fairy-Stockfish's built-in chess as a section, for the texts below to inherit from: a section
# without a parent starts with no piece types and no promotion choices (a test checks it).
CHESS = """
[chess]
pawn = p
knight = n
bishop = b
rook = r
queen = q
king = k
promotionPieceTypes = nbrq
"""
GARDNER = """
[gardner:chess]
maxRank = 5
maxFile = 5
startFen = rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1
promotionRegionWhite = *5
promotionRegionBlack = *1
doubleStep = false
castling = false
"""
KNOWN = {section.name: section for section in ini.sections(CHESS + GARDNER, source="known.ini")}
_NAMES = count()


def _fsf(text: str) -> dict[str, str]:
    """Load the sections of ``text`` into pyffish under fresh names (its variants are global and
    never replaced); return our name -> pyffish's name. Parents named in KNOWN are pyffish's
    built-ins of the same name."""
    renamed: dict[str, str] = {}

    def rename(match: re.Match[str]) -> str:
        child, parent = match.group(1), match.group(2)
        renamed[child] = f"ggnini{next(_NAMES)}{child}"
        if parent:
            parent = renamed.get(parent, parent)
            return f"[{renamed[child]}:{parent}]"
        return f"[{renamed[child]}]"

    pyffish.load_variant_config(re.sub(r"^\[([^:\]]+)(?::([^\]]+))?\]", rename, text, flags=re.MULTILINE))
    return renamed


def _load(text: str, source: str = "test.ini") -> dict[str, Variant]:
    return ini.load(text, source=source, known=KNOWN)


def _error(text: str, source: str = "test.ini") -> VariantError:
    with pytest.raises(VariantError) as caught:
        _load(text, source)
    return caught.value


# --- syntax ------------------------------------------------------------------------------------
def test_sections_read_names_parents_options_and_lines() -> None:
    text = "# leading comment\n\n[one]\nmaxRank = 6\n ; indented comment\n[two:one]\r\nmaxFile=5\r\n"
    one, two = ini.sections(text, source="s.ini")
    assert (one.name, one.parent, one.line, one.source) == ("one", None, 3, "s.ini")
    assert one.options == (ini.Option("maxRank", "6", 4),)
    assert (two.name, two.parent, two.line) == ("two", "one", 6)
    assert two.options == (ini.Option("maxFile", "5", 7),)


def test_an_option_written_twice_counts_as_the_last_as_in_fairy_stockfish() -> None:
    text = ("[twice:chess]\nstartFen = 4k3/8/8/8/8/8/8/4K3 w - - 0 1\n"
            "startFen = 4k3/8/8/8/8/8/8/R3K3 w Q - 0 1\n")
    (section,) = ini.sections(text)
    assert [option.line for option in section.options] == [2, 3]
    assert section.get("startFen") == section.options[1]
    assert section.values()["startFen"].line == 3
    names = _fsf(text)
    assert _load(text)["twice"].start == pyffish.start_fen(names["twice"]) == "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"


@pytest.mark.parametrize(("text", "line", "message"), [
    ("[a\nmaxRank = 6", 1, "a section header ends with ']'"),
    ("[a] b\n", 1, "text after the section header: 'b'"),
    ("[]\n", 1, "a section name is letters"),
    ("[a b]\n", 1, "a section name is letters"),
    ("[a:]\n", 1, "the parent of [a] is a name"),
    ("[a:b:c]\n", 1, "the parent of [a] is a name"),
    ("maxRank = 6\n[a]", 1, "the option 'maxRank' comes before any [section]"),
    ("[a]\n\nmaxRank 6\n", 3, "expected 'option = value', '[name]' or a comment, got 'maxRank 6'"),
    ("[a]\n= 6\n", 2, "no option name before '='"),
    ("[a]\nmaxRank =\n", 2, "the option 'maxRank' has no value"),
])
def test_syntax_errors_name_source_and_line(text: str, line: int, message: str) -> None:
    with pytest.raises(VariantError) as caught:
        ini.sections(text, source="bad.ini")
    error = caught.value
    assert (error.source, error.line) == ("bad.ini", line)
    assert str(error).startswith(f"bad.ini:{line}: {message}")


def test_a_header_may_carry_a_comment_and_wrong_types_are_type_errors() -> None:
    assert ini.sections("[a:b] # comment\n")[0].parent == "b"
    # Values are stripped: Fairy-Stockfish's own mounted has a blank after a Betza text.
    assert ini.sections("[a]\ncustomPiece1 = a:mBcpB \t\n")[0].options[0].value == "a:mBcpB"
    with pytest.raises(TypeError, match="text must be a str"):
        ini.sections(b"[a]")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="source must be a str"):
        ini.load("[a]", source=1)  # type: ignore[arg-type]


def test_load_sections_makes_what_load_makes_from_the_text_and_names_its_source() -> None:
    text = ("[one:chess]\nmaxRank = 6\nstartFen = rnbqkbnr/pppppppp/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"
            "[two:one]\n")
    found = ini.sections(text, source="two.ini")
    made = ini.load_sections(found, known=KNOWN)
    assert made == _load(text, source="two.ini")
    assert [(name, variant.files, variant.ranks) for name, variant in made.items()] == [
        ("one", 8, 6), ("two", 8, 6)]
    with pytest.raises(VariantError) as caught:
        ini.load_sections(ini.sections("[a:nothing]\n", source="x.ini"), known=KNOWN)
    assert (caught.value.source, caught.value.line) == ("x.ini", 1)
    with pytest.raises(TypeError, match="found must be a list of sections, got str"):
        ini.load_sections(text)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="found must be a list of sections, got str"):
        ini.load_sections(["[a]"])  # type: ignore[list-item]


def test_a_variant_error_says_where_and_pickles() -> None:
    error = _error("[a:chess]\nmaxRank = 11\n", source="mine.ini")
    assert (error.source, error.line, error.option) == ("mine.ini", 2, "maxRank")
    assert str(error) == "mine.ini:2: [a] maxRank = '11': expected a rank, a number from 1 to 10"
    again = pickle.loads(pickle.dumps(error))
    assert (str(again), again.source, again.line, again.option) == (str(error), "mine.ini", 2, "maxRank")
    assert isinstance(error, GGNError) and isinstance(error, ValueError)


# --- inheritance -------------------------------------------------------------------------------
def test_a_section_without_parent_has_no_pieces_and_no_promotion_choices() -> None:
    text = "[bare]\npawn = p\nking = k\nstartFen = 4k3/P7/8/8/8/8/8/4K3 w - - 0 1\n"
    bare = _load(text)["bare"]
    assert [piece.letter for piece in bare.pieces] == ["p", "k"]
    assert bare.promotion is not None and bare.promotion.choices == ((), ())
    assert bare.promotion.mandatory_pawn
    # Fairy-Stockfish agrees: a pawn on the seventh rank has no move (it must promote, to nothing).
    names = _fsf(text)
    assert not [move for move in pyffish.legal_moves(names["bare"], pyffish.start_fen(names["bare"]), [])
                if move.startswith("a7")]


def test_inheritance_is_option_by_option_along_a_chain() -> None:
    text = """
[base:chess]
maxFile = 10
startFen = rnbqkbnrrr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQKBNRRR w - - 0 1
castling = false
[middle:base]
archbishop = a
promotionPieceTypes = qa
[leaf:middle]
maxRank = 6
startFen = rnbqkbnrra/pppppppppp/10/10/PPPPPPPPPP/RNBQKBNRRA w - - 0 1
promotionRegionWhite = *6
"""
    variants = _load(text)
    assert list(variants) == ["base", "middle", "leaf"]
    leaf = variants["leaf"]
    assert (leaf.files, leaf.ranks, leaf.castling) == (10, 6, None)
    assert leaf.promotion is not None
    assert leaf.promotion.choices == (("q", "a"), ("q", "a"))
    assert leaf.promotion.regions[0] == frozenset((file, 5) for file in range(10))
    assert leaf.promotion.regions[1] == frozenset((file, 0) for file in range(10))  # chess's *1, kept
    assert variants["middle"].ranks == 8


def test_a_parent_must_exist_and_come_first() -> None:
    error = _error("[a:nowhere]\n")
    assert (error.line, str(error)) == (1, "test.ini:1: [a:nowhere]: no variant 'nowhere' to inherit from")
    error = _error("[a:b]\n\n[b:chess]\n")
    assert error.line == 1 and "it comes later: a parent must come first" in str(error)


def test_connection_rules_are_read() -> None:
    ends = _load("[c:chess]\nconnectN = 4\nconnectPieceTypes = pn\nconnectDiagonal = false\n"
                 "connectRegion1White = a*\nconnectRegion2White = h*\nconnectValue = loss\n")["c"].ends
    assert (ends.connect_n, ends.connect_types, ends.connect_lines, ends.connect_value) == (
        4, frozenset("pn"), frozenset(("horizontal", "vertical")), "loss")
    assert ends.connect_regions[0][1] == frozenset((7, rank) for rank in range(8))
    assert ends.connect_regions[1] == (frozenset(), frozenset())
    assert "'none' is no result" in str(_error("[c:chess]\nconnectN = 4\nconnectValue = none\n"))


def test_a_parent_fairy_stockfish_has_and_ggn_not_is_named_as_such() -> None:
    missing = sorted(ini._FAIRY_STOCKFISH - set(registry.names()))
    if not missing:
        pytest.skip("ggn plays every built-in variant of Fairy-Stockfish")
    with pytest.raises(VariantError) as caught:
        registry.Catalogue().add_ini(f"[a:{missing[0]}]\n", source="test.ini")
    name = missing[0]
    assert str(caught.value) == (f"test.ini:1: [a:{name}]: no variant {name!r} to inherit from: {name!r} "
                                 "is a built-in variant of Fairy-Stockfish that ggn does not play yet "
                                 "(docs/VARIANTS.md says what it lacks)")


def test_a_section_is_defined_once_and_not_over_a_known_one() -> None:
    assert "defined twice (first at line 1)" in str(_error("[a:chess]\n[a:chess]\n"))
    error = _error("[x:chess]\n[chess]\nking = k\n")
    assert error.line == 2 and "[chess] is already a variant" in str(error)


def test_resolve_looks_parents_up_by_name_and_finds_cycles() -> None:
    found = {section.name: section for section in ini.sections("[b:a]\nmaxRank = 6\n[a:b]\n")}
    with pytest.raises(VariantError, match="inherits from itself"):
        ini.resolve("b", found)
    with pytest.raises(NotFoundError, match="no variant 'c'; there are: a, b"):
        ini.resolve("c", found)
    found = {**KNOWN, **{s.name: s for s in ini.sections("[six:chess]\nmaxRank = 6\n"
                                                          "startFen = k7/8/8/8/8/K7 w - - 0 1\n")}}
    assert ini.resolve("six", found).ranks == 6


def test_nothing_is_loaded_when_one_section_fails() -> None:
    text = "[good:chess]\n[bad:chess]\ncastlingWins = q\n[later:good]\n"
    error = _error(text)
    assert (error.line, error.option) == (3, "castlingWins")


def test_piece_sets_name_types_not_letters() -> None:
    # A custom piece given the rook's letter removes the rook; castlingRookPieces still names the
    # rook type (gone), so nobody castles, until the option names the new type.
    text = "[noc:chess]\ncustomPiece1 = r:RK\nstartFen = 4k3/8/8/8/8/8/8/R3K2R w - - 0 1\n" \
           "[yesc:noc]\ncastlingRookPieces = r\n"
    variants = _load(text)
    assert variants["noc"].castling is None
    castling = variants["yesc"].castling
    assert castling is not None and castling.rooks == frozenset("r")
    names = _fsf(text)
    fen = "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"
    assert "e1g1" not in pyffish.legal_moves(names["noc"], fen, [])
    assert "e1g1" in pyffish.legal_moves(names["yesc"], fen, [])


def test_options_apply_in_fairy_stockfish_order_not_the_lines() -> None:
    # promotionPawnTypes is read after pawnTypes whatever the order of the lines; Fairy-Stockfish's
    # pawn promotes whatever it says.
    text = "[order:chess]\npromotionPawnTypes = n\npawnTypes = p\n"
    promotion = _load(text)["order"].promotion
    assert promotion is not None and promotion.pawn_types == (frozenset("np"), frozenset("np"))
    names = _fsf(text)
    moves = pyffish.legal_moves(names["order"], "4k3/PN6/8/8/8/8/8/4K3 w - - 0 1", [])
    assert {"b7d8q", "b7d8n", "a7a8q"} <= set(moves) and "a7a8" not in moves


def test_the_pawn_takes_en_passant_whatever_en_passant_types_say() -> None:
    text = "[ep:chess]\nenPassantTypes = n\n"
    double = _load(text)["ep"].double_step
    assert double is not None and double.en_passant == frozenset("np")
    names = _fsf(text)
    assert "e5d6" in pyffish.legal_moves(names["ep"], "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", [])


def test_a_removed_piece_leaves_the_promotion_choices_and_a_letter_taken_removes_its_type() -> None:
    text = "[noqueen:chess]\nqueen = -\n" \
           "startFen = rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1\n" \
           "[commoners:chess]\ncommoner = k\n" \
           "startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1\n"
    variants = _load(text)
    promotion = variants["noqueen"].promotion
    assert promotion is not None and promotion.choices[0] == ("n", "b", "r")
    commoners = variants["commoners"]
    assert commoners.king is None and "k" in {piece.letter for piece in commoners.pieces}
    assert next(piece.name for piece in commoners.pieces if piece.letter == "k") == "commoner"
    names = _fsf(text)
    moves = pyffish.legal_moves(names["noqueen"], "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", [])
    assert {move[4:] for move in moves if move.startswith("a7")} == {"n", "b", "r"}


# --- options -----------------------------------------------------------------------------------
def test_pieces_custom_royal_and_betza() -> None:
    text = "[custom:chess]\nking = k:KN\ncustomPiece2 = z:mWcF\nfers = f\nbishop = -\n" \
           "startFen = rnfqkfnr/pppppppp/8/8/8/8/PPPPPPPP/RNFQKFNR w KQkq - 0 1\n"
    custom = _load(text)["custom"]
    pieces = {piece.letter: piece for piece in custom.pieces}
    assert [piece.name for piece in custom.pieces] == [
        "pawn", "knight", "rook", "queen", "fers", "customPiece2", "king"]
    assert (pieces["k"].betza, pieces["z"].betza, pieces["f"].betza, pieces["p"].betza) == \
        ("KN", "mWcF", "F", "fmWfceF")
    assert custom.king == "k"


@pytest.mark.parametrize(("value", "message"), [
    ("z", "a custom piece needs its movement in Betza"),
    ("z:fjN", "the movement is not one Fairy-Stockfish plays: 'j' means nothing"),
    ("zz:N", "expected a letter, or a letter, ':' and a Betza movement"),
    ("3:N", "expected a piece letter, or '-'"),
])
def test_bad_custom_pieces(value: str, message: str) -> None:
    error = _error(f"[bad:chess]\n\ncustomPiece1 = {value}\n")
    assert (error.line, error.option) == (3, "customPiece1")
    assert message in str(error)


def test_only_custom_pieces_and_the_king_take_a_movement() -> None:
    assert "only custom pieces and the king take a movement" in str(_error("[bad:chess]\nknight = n:W\n"))


def test_an_e_in_a_custom_betza_lets_the_piece_take_en_passant() -> None:
    text = "[wide:chess]\ncustomPiece1 = w:mfWfceFifmnD\nstartFen = 4k3/8/8/8/8/8/W7/4K3 w - - 0 1\n"
    double = _load(text)["wide"].double_step
    assert double is not None
    assert double.en_passant == frozenset({"p", "w"}) and double.initial_movers == frozenset("w")
    assert double.types == frozenset("p")


def test_board_size_holes_and_start() -> None:
    text = "[holes:chess]\nmaxFile = 10\nmaxRank = 6\nstartFen = k*8/10/10/10/10/8*K w - - 0 1\n" \
           "castling = false\n"
    holes = _load(text)["holes"]
    assert (holes.files, holes.ranks, holes.holes) == (10, 6, frozenset({(1, 5), (8, 0)}))
    assert holes.start == "k*8/10/10/10/10/8*K w - - 0 1"
    names = _fsf(text)
    assert pyffish.start_fen(names["holes"]) == holes.start


def test_a_start_that_does_not_fit_is_an_error_at_its_line() -> None:
    error = _error("[fit:chess]\nmaxFile = 6\ncastling = false\nstartFen = 6/6/6/6/6/6/6/Z4K w - - 0 1\n")
    assert (error.line, error.option) == (4, "startFen")
    assert "the start position does not fit the variant" in str(error)
    # A start inherited unchanged is named where it was set (here: Fairy-Stockfish's default).
    error = _error("[narrow:chess]\nmaxFile = 6\ncastling = false\n")
    assert error.line == 1 and "the start position does not fit" in str(error)


def test_promotion_options() -> None:
    text = """
[promo:chess]
promotionRegionWhite = *7 *8
promotionRegionBlack = *1 *2
promotionPieceTypesBlack = rq
mandatoryPawnPromotion = false
promotionLimit = q:1 r:2
[shoji:chess]
gold = g
promotedPieceType = n:g b:g
piecePromotionOnCapture = true
mandatoryPiecePromotion = true
pieceDemotion = true
"""
    variants = _load(text)
    promotion = variants["promo"].promotion
    assert promotion is not None
    assert promotion.choices == (("n", "b", "r", "q"), ("r", "q"))
    assert promotion.regions[0] == frozenset((f, r) for f in range(8) for r in (6, 7))
    assert not promotion.mandatory_pawn and promotion.limits == (("q", 1), ("r", 2))
    shoji = variants["shoji"].promotion
    assert shoji is not None and shoji.promoted == (("n", "g"), ("b", "g"))
    assert shoji.on_capture and shoji.mandatory_piece and shoji.demotion


def test_castling_options() -> None:
    text = """
[castles:chess]
maxFile = 10
startFen = rnbqkcabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQKCABNR w KQkq - 0 1
chancellor = c
archbishop = a
castlingKingsideFile = i
castlingQueensideFile = 2
castlingRookKingsideFile = 10
[high:chess]
castlingRank = 2
startFen = 8/rnbqkbnr/8/8/8/8/RNBQKBNR/8 w KQkq - 0 1
[random:chess]
chess960 = true
"""
    variants = _load(text)
    castling = variants["castles"].castling
    assert castling is not None
    assert (castling.king_file, castling.kingside_file, castling.queenside_file) == (4, 8, 1)
    assert castling.rook_files == (None, 0) and castling.rank == 0
    high = variants["high"].castling
    assert high is not None and high.rank == 1
    assert variants["random"].chess960
    names = _fsf(text)
    assert "e2g2" in pyffish.legal_moves(names["high"], "8/4k3/8/8/8/8/4K2R/8 w K - 0 1", [])


def test_the_castling_king_file_is_where_the_start_puts_it() -> None:
    text = "[kingf:chess]\nmaxFile = 10\nstartFen = rnbqbkcnar/pppppppppp/10/10/10/10/PPPPPPPPPP/" \
           "RNBQBKCNAR w KQkq - 0 1\nchancellor = c\narchbishop = a\ncastlingKingsideFile = i\n"
    castling = _load(text)["kingf"].castling
    assert castling is not None and castling.king_file == 5


def test_the_castling_rooks_are_the_first_met_from_the_edge() -> None:
    # Fairy-Stockfish looks for each castling rook from its file toward the king: gustav3's
    # rooks stand inside its amazons (b1 and i1), omicron's on c2 and j2 beside its holes. With
    # the corners kept instead, those rooks had no move along their files.
    text = "[inner:chess]\nmaxFile = 10\namazon = a\ncastlingKingsideFile = h\ncastlingQueensideFile = d\n" \
           "startFen = arnbqkbnra/*pppppppp*/*8*/*8*/*8*/*8*/*PPPPPPPP*/ARNBQKBNRA w KQkq - 0 1\n"
    castling = _load(text)["inner"].castling
    assert castling is not None and castling.rook_files == (8, 1)
    corner = _load("[corner:chess]\n")["corner"].castling
    assert corner is not None and corner.rook_files == (None, 0)
    pyffish = pytest.importorskip("pyffish")
    fen = "arnbqkbnra/*ppppppp1*/*8*/*8*/*8*/*3P4*/*PPP1PPPP*/ARN1QKBNRA b KQkq - 0 2"
    assert {"i8i7", "i8i6"} <= set(pyffish.legal_moves("gustav3", fen, []))
    rules = registry.rules("gustav3")
    position = rules.position(fens.to_feen(registry.variant("gustav3"), fen))
    assert {uci.write(registry.variant("gustav3"), play) for play in rules.legal_moves(position)} == set(
        pyffish.legal_moves("gustav3", fen, []))


def test_double_steps_and_en_passant() -> None:
    text = """
[steps:chess]
doubleStepRegionWhite = *2 *3
doubleStepRegionBlack = *7 *6
enPassantRegion = *3 *6
[none:chess]
doubleStep = false
[old:chess]
doubleStepRank = 3
doubleStepRankMin = 2
"""
    variants = _load(text)
    steps = variants["steps"].double_step
    assert steps is not None
    assert steps.regions[0] == frozenset((f, r) for f in range(8) for r in (1, 2))
    assert steps.passant_regions == (frozenset((f, r) for f in range(8) for r in (2, 5)),) * 2
    assert variants["none"].double_step is None
    old = variants["old"].double_step
    assert old is not None and old.regions == steps.regions


def test_drops() -> None:
    text = """
[house:chess]
pieceDrops = true
capturesToHand = true
dropLoop = true
firstRankPawnDrops = true
promotionZonePawnDrops = true
dropRegionWhite = *1 *2 *3 *4
dropNoDoubled = p
dropNoDoubledCount = 2
shogiPawnDropMateIllegal = true
dropChecks = false
startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1
"""
    drops = _load(text)["house"].drops
    assert drops is not None
    assert drops.captures_to_hand and drops.loop and drops.first_rank_pawn_drops
    assert drops.promotion_zone_pawn_drops and drops.pawn_drop_mate_illegal and not drops.checks
    assert drops.regions == (frozenset((f, r) for f in range(8) for r in range(4)), None)
    assert (drops.no_doubled, drops.no_doubled_count) == ("p", 2)


def test_ends() -> None:
    text = """
[ends:chess]
checkmateValue = win
stalemateValue = loss
extinctionValue = loss
extinctionPieceTypes = *
extinctionPieceCount = 1
extinctionOpponentPieceCount = 2
extinctionClaim = true
extinctionPseudoRoyal = true
flagPiece = k
flagRegion = d4 e4 d5 e5
flagMove = true
[anyflag:chess]
flagRegionWhite = *8
flagPieceBlack = q
[noflag:chess]
flagPieceWhite = q
"""
    variants = _load(text)
    ends = variants["ends"].ends
    assert (ends.checkmate, ends.stalemate, ends.extinction) == ("win", "loss", "loss")
    assert ends.extinction_types == frozenset("*")
    assert (ends.extinction_count, ends.extinction_opponent_count) == (1, 2)
    assert ends.extinction_claim and ends.extinction_pseudo_royal and ends.flag_move
    centre = frozenset({(3, 3), (4, 3), (3, 4), (4, 4)})
    assert ends.flag_pieces == frozenset("k") and ends.flag_regions == (centre, centre)
    # Only the side with a flag region has a flag piece: white's is any piece ('*').
    anyflag = variants["anyflag"].ends
    assert anyflag.flag_pieces == frozenset("pnbrqk") and anyflag.flag_regions[1] == frozenset()
    assert variants["noflag"].ends.flag_pieces == frozenset()


def test_other_rules() -> None:
    text = "[rules:chess]\nflyingGeneral = true\nchecking = false\nimmobilityIllegal = true\n"
    rules = _load(text)["rules"]
    assert rules.flying_general and not rules.checking and rules.immobility_illegal
    assert not rules.must_capture and not rules.ends.stalemate_piece_count
    text = "[capture:chess]\nmustCapture = true\nstalematePieceCount = true\n"
    rules = _load(text)["capture"]
    assert rules.must_capture and rules.ends.stalemate_piece_count


def test_deprecated_options_are_read_as_fairy_stockfish_still_reads_them() -> None:
    text = """
[old:chess]
promotionRank = 7
whiteFlag = a8
blackFlag = a1
castlingRookPiece = q
whiteDropRegion = *1
pieceDrops = true
startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w - - 0 1
"""
    old = _load(text)["old"]
    assert old.promotion is not None
    assert old.promotion.regions == (frozenset((f, r) for f in range(8) for r in (6, 7)),
                                     frozenset((f, r) for f in range(8) for r in (0, 1)))
    assert old.ends.flag_regions == (frozenset({(0, 7)}), frozenset({(0, 0)}))
    assert old.castling is not None and old.castling.rooks == frozenset("q")
    assert old.drops is not None and old.drops.regions[0] == frozenset((f, 0) for f in range(8))


def test_the_soldier_steps_sideways_from_its_promotion_rank() -> None:
    text = "[soldiers:chess]\nsoldier = s\nsoldierPromotionRank = 5\n" \
           "startFen = rnbqkbnr/pppppppp/8/8/8/8/SSSSSSSS/RNBQKBNR w KQkq - 0 1\n"
    soldier = next(piece for piece in _load(text)["soldiers"].pieces if piece.letter == "s")
    ahead, aside = soldier.movements
    assert ahead.vectors == ((0, 1),) and ahead.sources is None
    assert set(aside.vectors) == {(1, 0), (-1, 0)}
    assert aside.sources == frozenset((f, r) for f in range(8) for r in range(4, 8))
    names = _fsf(text)
    moves = set(pyffish.legal_moves(names["soldiers"], "4k3/8/8/3S4/4S3/8/8/4K3 w - - 0 1", []))
    assert {"d5c5", "d5e5", "d5d6"} <= moves and "e4d4" not in moves and "e4f4" not in moves


def test_mobility_regions_are_one_region_in_the_movers_frame() -> None:
    text = """
[palace:chess]
mobilityRegionWhiteKing = d1 e1 f1 d2 e2 f2
mobilityRegionBlackKing = c8 d8 e8 c7 d7 e7
"""
    king = next(piece for piece in _load(text)["palace"].pieces if piece.letter == "k")
    assert king.stands == frozenset((f, r) for f in (3, 4, 5) for r in (0, 1))
    # The second side's region is the first's turned half a circle (Fairy-Stockfish's frame for
    # the second side's moves): a1 b1 and a8 b8 are not the same region seen from each side, and
    # a region given for one side only leaves the other side's pieces free: each side's is kept.
    text = ("[half:chess]\nmobilityRegionWhiteKing = a1 b1\nmobilityRegionBlackKing = a8 b8\n"
            "startFen = k7/8/8/8/8/8/8/K7 w - - 0 1\n"
            "[one:chess]\n\nmobilityRegionWhiteQueen = *1 *2 *3\n"
            "startFen = 4k3/8/8/3q4/8/8/8/3QK3 w - - 0 1\n")
    variants, names = _load(text), _fsf(text)
    king = next(piece for piece in variants["half"].pieces if piece.letter == "k")
    assert king.stands is None
    assert king.stands_each == (frozenset({(0, 0), (1, 0)}), frozenset({(7, 0), (6, 0)}))
    queen = next(piece for piece in variants["one"].pieces if piece.letter == "q")
    assert queen.stands_each == (frozenset((f, r) for f in range(8) for r in range(3)), None)
    for name, fen in (("half", "k7/8/8/8/8/8/8/K7 w - - 0 1"), ("half", "k7/8/8/8/8/8/8/K7 b - - 0 1"),
                      ("one", "4k3/8/8/3q4/8/8/8/3QK3 w - - 0 1"),
                      ("one", "4k3/8/8/3q4/8/8/8/3QK3 b - - 0 1")):
        rules = VariantRules(variants[name])
        found = uci.moves(rules, rules.position(fens.to_feen(variants[name], fen)), variant=variants[name])
        assert set(found) == set(pyffish.legal_moves(names[name], fen, [])), (name, fen)


def test_initial_moves_take_the_double_step_region_in_the_movers_frame() -> None:
    text = "[initial:chess]\ncustomPiece1 = p:fmWfceFifmnD\npawnTypes = p\n"
    pawn = next(piece for piece in _load(text)["initial"].pieces if piece.letter == "p")
    initial = [movement for movement in pawn.movements if movement.sources is not None]
    assert initial and all(m.sources == frozenset((f, 1) for f in range(8)) for m in initial)
    error = _error("[skew:chess]\ncustomPiece1 = p:fmWfceFifmnD\ndoubleStepRegionBlack = *6\n")
    assert (error.line, error.option) == (3, "doubleStepRegionBlack")
    assert "initial moves" in str(error)
    # No double steps: the initial moves have no squares to start from.
    off = _load("[off:chess]\ncustomPiece1 = p:fmWfceFifmnD\ndoubleStep = false\n")["off"]
    pawn = next(piece for piece in off.pieces if piece.letter == "p")
    assert any(movement.sources == frozenset() for movement in pawn.movements)


@pytest.mark.parametrize(("option", "value", "message"), [
    ("castlingKingPieceWhite", "q", "castle with different piece types"),
    ("castlingRookPiecesBlack", "b", "castle with different rook types"),
    ("enPassantTypesWhite", "pn", "en passant types differ"),
])
def test_per_side_options_the_description_keeps_once(option: str, value: str, message: str) -> None:
    error = _error(f"[sides:chess]\n{option} = {value}\n")
    assert (error.line, error.option) == (2, option) and message in str(error)
    error = _error("[flags:chess]\nflagRegion = *4\nflagPieceWhite = q\n")
    assert "flag pieces differ" in str(error)


def test_xboard_options_are_recorded_as_unapplied_and_history_rules_read() -> None:
    text = """
[recorded:chess]
pieceToCharTable = PNBRQ.....Kpnbrq.....k
pocketSize = 3
variantTemplate = shogi
pieceValueMg = p:150 n:800
nMoveRule = 70
nMoveRuleTypes = pn
nFoldRule = 4
nFoldValue = loss
nFoldValueAbsolute = true
perpetualCheckIllegal = true
moveRepetitionIllegal = true
chasingRule = axf
countingRule = makruk
materialCounting = janggi
adjudicateFullBoard = true
[child:recorded]
"""
    variants = _load(text)
    unapplied = dict(variants["child"].unapplied)
    assert set(unapplied) == {"pieceToCharTable", "pocketSize", "pieceValueMg"}
    assert "XBoard" in unapplied["pocketSize"]
    assert variants["child"].history == History(
        n_move_rule=70, n_move_types=(frozenset("pn"), frozenset("pn")), n_fold_rule=4, n_fold_value="loss",
        n_fold_value_absolute=True, perpetual_check_illegal=True, move_repetition_illegal=True,
        chasing_rule="axf", counting_rule="makruk", material_counting="janggi", adjudicate_full_board=True)
    # variantTemplate picks Fairy-Stockfish's default move notation (ggn.notation): kept, inherited.
    assert variants["child"].template == "shogi" and variants["recorded"].template == "shogi"
    assert _load(CHESS.replace("[chess]", "[plain]"), source="x.ini")["plain"].unapplied == ()
    assert _load(CHESS.replace("[chess]", "[plain]"), source="x.ini")["plain"].history == History()


def test_history_rules_per_colour_and_pawn_types() -> None:
    text = "[sides:chess]\nnMoveRuleTypesWhite = n\nnMoveRuleTypesBlack = -\n[pawns:chess]\npawnTypes = pn\n"
    variants = _load(text)
    assert variants["sides"].history.n_move_types == (frozenset("n"), frozenset())
    # pawnTypes sets the n-move rule's types too, as in Fairy-Stockfish's parser.
    assert variants["pawns"].history.n_move_types == (frozenset("pn"), frozenset("pn"))
    error = _error("[none:chess]\nnFoldValue = none\n")
    assert (error.line, error.option) == (2, "nFoldValue") and "'none' is no result" in str(error)


@pytest.mark.parametrize(("line", "feature"), [
    ("petrifyBlastPieces = true", "pieces an explosion turns into walls"),
    ("gating = true", "gating"),
    ("seirawanGating = true", "gating"),
    ("wallOrMove = true", "a wall placed instead of a move"),
    ("passOnStalemateWhite = true", "passing a move"),
    ("flipEnclosedPieces = reversi", "flipping enclosed pieces"),
    ("twoBoards = true", "two boards without drops"),
    ("tripleStepRegionWhite = *2", "pawn triple steps"),
    ("castlingWins = q", "castling as a way to win"),
    ("capturesToHand = true", "captured pieces held in hand without drops"),
])
def test_rules_the_description_cannot_say_are_errors_naming_them(line: str, feature: str) -> None:
    error = _error(f"[no:chess]\n# a comment\n{line}\n")
    option = line.split(" ", maxsplit=1)[0]
    assert (error.line, error.option) == (3, option)
    assert f"[no] {option} = " in str(error) and feature in str(error) and "cannot say yet" in str(error)


def test_drop_promoted_is_read_into_the_drops() -> None:
    text = "[kyoto:chess]\npieceDrops = true\ncapturesToHand = true\ndropPromoted = true\n"
    variants = _load(text + "[off:kyoto]\ndropPromoted = false\n")
    drops = variants["kyoto"].drops
    assert drops is not None and drops.promoted
    off = variants["off"].drops
    assert off is not None and not off.promoted


def test_explosions_are_read_and_refused_where_fairy_stockfish_cannot_play_them() -> None:
    atomic = ("[boom:chess]\nking = -\ncommoner = k\ncastlingKingPiece = k\nextinctionValue = loss\n"
              "extinctionPieceTypes = k\nblastOnCapture = true\n")
    variants = _load(f"{atomic}blastImmuneTypes = k\n[kings:boom]\nblastImmuneTypes = -\n"
                     "mutuallyImmuneTypes = kq\n")
    assert variants["boom"].blast_on_capture and variants["boom"].blast_immune_types == frozenset("k")
    kings = variants["kings"]
    assert kings.mutually_immune_types == frozenset("kq") and not kings.blast_immune_types
    # Fairy-Stockfish warns that it cannot use a royal king with explosions, nor royal or
    # pseudo-royal pieces with immune types.
    error = _error("[royal:chess]\n\nblastOnCapture = true\n")
    assert (error.line, error.option) == (3, "blastOnCapture") and "Can not use kings" in str(error)
    error = _error(f"{atomic}extinctionPseudoRoyal = true\nblastImmuneTypes = k\n")
    assert (error.line, error.option) == (9, "blastImmuneTypes") and "pseudo-royal" in str(error)
    error = _error("[royal:chess]\nmutuallyImmuneTypes = q\n")
    assert (error.line, error.option) == (2, "mutuallyImmuneTypes") and "Can not use kings" in str(error)
    error = _error(f"{atomic}pieceDrops = true\ncapturesToHand = true\n")
    assert (error.line, error.option) == (9, "capturesToHand") and "cannot say yet" in str(error)


def test_two_boards_and_a_safe_flag_are_read() -> None:
    text = ("[house:chess]\npieceDrops = true\ntwoBoards = true\n"
            "[hill:chess]\nflagPiece = k\nflagRegionWhite = d4 e4\nflagRegionBlack = d5 e5\n"
            "flagPieceSafe = true\n")
    variants = _load(text)
    drops = variants["house"].drops
    assert drops is not None and drops.two_boards and not drops.captures_to_hand
    assert variants["hill"].ends.flag_safe and not variants["hill"].ends.flag_move




def test_sittuyin_promotion_to_a_rider_is_refused() -> None:
    error = _error("[burmese:chess]\nsittuyinPromotion = true\n")
    assert (error.line, error.option) == (2, "sittuyinPromotion") and "single steps" in str(error)


def test_an_unsupported_rule_inherited_is_named_where_it_was_written() -> None:
    text = "[parent:chess]\ncastlingWins = q\n[child:parent]\n"
    with pytest.raises(VariantError) as caught:
        ini.load(text, source="p.ini", known=KNOWN)
    assert caught.value.line == 2  # the parent fails first, at its own line
    known = {**KNOWN, **{s.name: s for s in ini.sections(text, source="p.ini")}}
    with pytest.raises(VariantError) as caught:
        ini.load("[mine:child]\n", source="mine.ini", known=known)
    error = caught.value
    assert (error.source, error.line) == ("p.ini", 2) and "(in [parent])" in str(error)


def test_an_unsupported_option_at_its_default_says_nothing_and_is_accepted() -> None:
    text = "[defaults:chess]\nmustCapture = false\npass = false\nenclosingDrop = none\nconnectN = 0\n"
    assert _load(text)["defaults"].castling is not None


@pytest.mark.parametrize(("line", "message"), [
    ("castling = yes", "expected true or false"),
    ("maxRank = 0", "expected a rank, a number from 1 to 10"),
    ("maxFile = m", "expected a file, a letter from a to l or a number from 1 to 12"),
    ("maxFile = 13", "expected a file"),
    ("promotionRegionWhite = *11", "is not a square (a1), a file (a*) or a rank (*1)"),
    ("promotionRegionWhite = m1", "is off Fairy-Stockfish's largest board"),
    ("promotionRegionWhite = a", "is not a square"),
    ("promotionRegionWhite = m*", "no file 'm'"),
    ("promotionPieceTypes = qx", "'x' is not the letter of a piece type of the variant"),
    ("stalemateValue = lose", "expected win, loss, draw or none"),
    ("checkmateValue = none", "'none' is no result"),
    ("nMoveRule = -1", "expected a whole number"),
    ("nMoveRule = 9" * 20, "expected a whole number"),
    ("chasingRule = always", "expected one of axf, none"),
    ("promotionLimit = q1", "is not 'letter:value'"),
    ("promotionLimit = q:x", "is not a count"),
    ("promotedPieceType = p:qq", "is not one piece letter"),
    ("pieceValueMg = p:x", "is not a piece value"),
    ("castlingWins = X", "is not a castling right"),
    ("promotionPieceTypes = *", "'*' (every piece type) means nothing here"),
])
def test_bad_values_are_errors_at_their_line(line: str, message: str) -> None:
    error = _error(f"[values:chess]\n{line}\n")
    assert (error.line, error.option) == (2, line.split(" ", maxsplit=1)[0]) and message in str(error)


def test_an_unknown_option_is_an_error_with_a_suggestion() -> None:
    error = _error("[typo:chess]\nmaxrank = 6\n")
    assert (error.line, error.option) == (2, "maxrank")
    assert str(error) == ("test.ini:2: [typo] 'maxrank' is not an option Fairy-Stockfish knows "
                          "(did you mean 'maxRank'?)")
    assert "customPiece26" in str(_error("[slots:chess]\ncustomPiece26 = z:W\n"))


def test_pin_and_synonym_are_this_librarys_own_letters() -> None:
    text = "[letters:chess]\nknight = h\npin = h:n k:g\nsynonym = h:n\n" \
           "startFen = rhbqkbhr/pppppppp/8/8/8/8/PPPPPPPP/RHBQKBHR w KQkq - 0 1\n"
    pieces = {piece.letter: piece for piece in _load(text)["letters"].pieces}
    assert (pieces["h"].pin, pieces["h"].synonym, pieces["k"].pin) == ("N", "n", "G")
    assert "'x' is not the letter of a piece type" in str(_error("[bad:chess]\npin = x:y\n"))


# --- Fairy-Stockfish's own examples --------------------------------------------------------------
# Sections of Fairy-Stockfish's src/variants.ini that use only what the description says (their
# rules, without the comments). Each loads, and each piece moves as pyffish moves it.
EXAMPLES = """
[allwayspawns:chess]
customPiece1 = p:mWfceFifmnD
pawnTypes = p

[centaurking:chess]
king = k:KN

[maharajah]
pawn = p
knight = n
bishop = b
rook = r
queen = q
king = k
amazon = m
pieceToCharTable = PNBRQ.............MKpnbrq.............mk
startFen = rnbqkbnr/pppppppp/8/8/8/8/8/4M3 w kq - 0 1
extinctionValue = loss
extinctionPieceTypes = m
extinctionPseudoRoyal = true

[maharajah2:maharajah]
amazon = -
customPiece1 = m:QNAD
startFen = 3mm3/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1
extinctionPieceTypes = m

[indiangreat]
pawn = p
knight = n
bishop = b
rook = r
queen = q
king = k
archbishop = v
chancellor = w
amazon = g
maxRank = 10
maxFile = 10
startFen = rnbqkgvbnr/ppppwwpppp/4pp4/10/10/10/10/4PP4/PPPPWWPPPP/RNBVGKQBNR w - - 0 1
promotionRegionWhite = *10
promotionRegionBlack = *1
promotionPieceTypes = q
doubleStep = false
castling = false

[semitorpedo:chess]
doubleStepRegionWhite = *2 *3
doubleStepRegionBlack = *7 *6

[pawnsonly]
pawn = p
queen = q
startFen = 8/pppppppp/8/8/8/8/PPPPPPPP/8 w - - 0 1
promotionPieceTypes = q
castling = false
stalemateValue = loss
flagPiece = q
flagRegionWhite = *8
flagRegionBlack = *1

[pawnsking:pawnsonly]
commoner = k
flagPiece = *
startFen = 4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1
extinctionValue = loss
extinctionPieceTypes = k
stalemateValue = draw

[4x5chess:gardner]
maxRank = 5
maxFile = d
startFen = rnbk/pppp/4/PPPP/RNBK w - - 0 1

[active:chess]
maxFile = i
startFen = rnbkqbnrq/ppppppppp/9/9/9/9/PPPPPPPPP/RNBKQBNRQ w KQkq - 0 1

[empire:chess]
customPiece1 = e:mQcN
customPiece2 = c:mQcB
customPiece3 = t:mQcR
customPiece4 = d:mQcK
soldier = s
promotionPieceTypes = q
startFen = rnbqkbnr/pppppppp/8/8/8/PPPSSPPP/8/TECDKCET w kq - 0 1
stalemateValue = loss
nFoldValue = loss
flagPiece = k
flagRegionWhite = *8
flagRegionBlack = *1
flyingGeneral = true

[crossderby:chess]
queen = -
rook = -
bishop = -
startFen = n*nnnn*k/**pppp**/pp4pp/8/8/PP4PP/**PPPP**/K*NNNN*N w - - 0 1
stalemateValue = loss

[chak]
maxRank = 9
maxFile = 9
rook = r
knight = v
centaur = j
immobile = o
customPiece1 = s:FvW
customPiece2 = q:pQ
customPiece3 = d:mQ2cQ2
customPiece4 = p:fsmWfceF
customPiece5 = k:WF
customPiece6 = w:FvW
startFen = rvsqkjsvr/4o4/p1p1p1p1p/9/9/9/P1P1P1P1P/4O4/RVSJKQSVR w - - 0 1
mobilityRegionWhiteCustomPiece6 = *5 *6 *7 *8 *9
mobilityRegionWhiteCustomPiece3 = *5 *6 *7 *8 *9
mobilityRegionBlackCustomPiece6 = *1 *2 *3 *4 *5
mobilityRegionBlackCustomPiece3 = *1 *2 *3 *4 *5
promotionRegionWhite = *5 *6 *7 *8 *9
promotionRegionBlack = *5 *4 *3 *2 *1
promotionPieceTypes = -
mandatoryPiecePromotion = true
promotedPieceType = p:w k:d
extinctionValue = loss
extinctionPieceTypes = kd
extinctionPseudoRoyal = true
flagPiece = d
flagRegionWhite = e8
flagRegionBlack = e2
nMoveRule = 50
nFoldRule = 3
nFoldValue = draw
stalemateValue = loss

[mounted]
maxRank = 7
maxFile = 7
pieceDrops = true
capturesToHand = true
stalemateValue = loss
nFoldValue = loss
extinctionValue = loss
extinctionPseudoRoyal = true
extinctionPieceTypes = k
flagPiece = k
flagRegionWhite = *7
flagRegionBlack = *1
centaur = k
bishop = b
rook = r
cannon = c
customPiece1 = a:mBcpB
customPiece2 = s:FsfW
startFen = 1cbkra1/2s1s2/7/7/7/2S1S2/1CBKRA1 w - - 0 1

[racingchess:chess]
flagPiece = k
flagRegionWhite = *8
flagRegionBlack = *1
flagMove = true
checking = false

[twokings2:chess]
king = -
commoner = k
extinctionValue = loss
extinctionPseudoRoyal = true
extinctionPieceTypes = k
extinctionPieceCount = 1
startFen = rnbkkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w - - 0 1

[chessvshp:chess]
soldier = s
king = k
bishop = b
knight = n
rook = r
promotionPieceTypes = -
knibis = i
biskni = j
promotionPieceTypes = nbrqij
startFen = rijqkjir/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1

[forward:chess]
castling = false
startFen = lesfgsel/pppppppp/8/8/8/8/PPPPPPPP/LESFGSEL w KQkq - 0 1
lance = l
customPiece1 = g:fFfW
customPiece2 = e:ffNfsN
customPiece3 = s:fB
customPiece4 = f:fBfR
promotedPieceType = l:r e:n s:b f:q g:k
extinctionValue = loss
extinctionPieceTypes = kg
extinctionPseudoRoyal = true

[hexapawn]
maxRank = 3
maxFile = c
startFen = ppp/3/PPP w
flagPiece = p
flagRegionWhite = *3
flagRegionBlack = *1
customPiece1 = p:mfWcfF
stalemateValue = loss

[dragon-chess:chess]
customPiece1 = b:BK
customPiece2 = n:NK
customPiece3 = p:KifmnD
customPiece4 = r:RK
castlingRookPieces = r
pawnTypes = p

[blackletter:chess]
maxRank = 10
maxFile = 9
promotionRegionWhite = *10
promotionRegionBlack = *1
archbishop = e
chancellor = m
centaur = h
startFen = 1ebq1meb1/rn2k2nr/ppppppppp/9/9/9/9/PPPPPPPPP/RN2K2NR/1EBQ1MEB1[HHhh] w KQkq - 0 1
promotionPieceTypes = behmnqr
doubleStepRegionWhite = *3
doubleStepRegionBlack = *8
pieceDrops = true
castlingRank = 2

[khans:chess]
centaur = h
knibis = a
kniroo = l
customPiece1 = t:mNcK
customPiece2 = s:mfhNcfW
promotionPawnTypesBlack = s
promotionPieceTypesBlack = t
stalemateValue = loss
nMoveRuleTypesBlack = s
flagPiece = k
flagRegionWhite = *8
flagRegionBlack = *1
startFen = lhatkahl/ssssssss/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1

[muje]
variantTemplate = shogi
maxFile = 9
maxRank = 9
pocketSize = 7
startFen = rnbfkfbnr/1si3is1/p1p1p1p1p/9/9/9/P1P1P1P1P/1SI3IS1/RNBFKFBNR[] w - - 0 1
pieceDrops = true
capturesToHand = true
soldier = p
knight = n
bishop = b
rook = r
fers = f
wazir = w
king = k
customPiece1 = i:pB
customPiece2 = s:pR
promotionRegionWhite = *7 *8 *9
promotionRegionBlack = *3 *2 *1
promotedPieceType = p:w
doubleStep = false
castling = false
stalemateValue = loss
nMoveRule = 0
nFoldValue = loss
perpetualCheckIllegal = true
mobilityRegionWhiteKing = *3 *2 *1
mobilityRegionBlackKing = *7 *8 *9
mandatoryPiecePromotion = true
"""

# Fairy-Stockfish's examples the description cannot say, with the option that says why.
REFUSED = [
    ("[wildebeest:chess]\nmaxRank = 10\nmaxFile = k\ncustomPiece1 = c:C\ncustomPiece2 = w:NC\n"
     "doubleStepRegionWhite = *2 *3\ndoubleStepRegionBlack = *9 *8\ntripleStepRegionWhite = *2\n"
     "tripleStepRegionBlack = *9\n", "tripleStepRegionBlack"),
    ("[castle:chess]\ncastlingWins = q\n", "castlingWins"),
    ("[atlantis:chess]\nwallingRule = edge\nwallOrMove = true\n", "wallOrMove"),
    # The rook castles and promotes to a king shogi-style: FEEN writes both as '+'.
    ("[backrank:chess]\nking = -\ncommoner = k\ncastlingKingPiece = k\nextinctionValue = loss\n"
     "extinctionPieceTypes = k\nextinctionPseudoRoyal = true\nflagPiece = k\npromotionPieceTypes = -\n"
     "promotedPieceType = q:k r:k b:k n:k p:k\nmandatoryPiecePromotion = true\nflagRegionWhite = *8\n"
     "flagRegionBlack = *1\n", "promotedPieceType"),
]


def _royal_squares(variant: Variant) -> dict[tuple[int, int], str]:
    """The royal pieces of the start position (the only pieces the oracle boards keep)."""
    if variant.king is None:
        return {}
    rows = variant.start.split(" ")[0].split("[")[0].split("/")
    found: dict[tuple[int, int], str] = {}
    for number, row in enumerate(rows):
        file = 0
        for token in re.findall(r"[0-9]+|\*|\+?[A-Za-z]~?", row):
            if token.isdigit():
                file += int(token)
                continue
            if token.lower() == variant.king:
                found[(file, variant.ranks - 1 - number)] = token
            file += 1
    return found


def _fen(board: dict[tuple[int, int], str], variant: Variant) -> str:
    """Fairy-Stockfish's FEN of ``board`` on the variant's board, its holes written ``*``."""
    rows = placement({**board, **dict.fromkeys(variant.holes, "*")}, variant.files, variant.ranks)
    hands = "[]" if variant.drops is not None else ""
    return f"{rows}{hands} w - - 0 1"


def _holds(possibility: dict[str, dict[str, str]], taken: dict[str, str]) -> bool:
    for square, state in possibility.get("must", {}).items():
        if state == "empty" and square in taken:
            return False
        if state == "enemy" and taken.get(square) != "second":
            return False
        if state not in ("empty", "enemy"):
            return False  # a condition on a named piece: not on these boards
    return all(state != "empty" or square in taken for square, state in possibility.get("deny", {}).items())


def _compare_pieces(variant: Variant, fsf: str, rng: random.Random, per_piece: int) -> int:
    """Each piece type that is no pawn (whose moves promote and double-step), on ``per_piece``
    squares it may stand on, on a board with only the royal pieces: its destinations equal
    pyffish's moves from there. Returns the number of positions compared."""
    royal = _royal_squares(variant)
    view = View(variant.files, variant.ranks, "T", second=False, rotate=True, holes=variant.holes)
    promotion = variant.promotion
    pawns = promotion.pawn_types[0] | {base for base, _ in promotion.promoted} if promotion else frozenset()
    compared = 0
    kings = {view.names[square]: "first" if royal_letter.isupper() else "second"
             for square, royal_letter in royal.items()}
    for piece in variant.pieces:
        if piece.letter in pawns or piece.letter == variant.king:
            continue
        squares = [
            (square, name) for square, name in view.names.items()
            if square not in royal and (piece.stands is None or square in piece.stands)
            # on its flag region the game is over
            and not (piece.letter in variant.ends.flag_pieces and square in variant.ends.flag_regions[0])
        ]
        for square, name in rng.sample(squares, min(per_piece, len(squares))):
            board = {**royal, square: piece.letter.upper()}
            reached = destinations(view, piece.movements, square)
            found = {destination for destination, possibilities in reached.items()
                     if destination not in kings and any(_holds(p, kings) for p in possibilities)}
            moves = pyffish.legal_moves(fsf, _fen(board, variant), [])
            expected = {re.match(r"[a-l][0-9]+", move[len(name):]).group()  # type: ignore[union-attr]
                        for move in moves if move.startswith(name) and not move[len(name)].isdigit()}
            expected -= kings.keys()  # taking a king: a position Fairy-Stockfish would not reach
            assert found == expected, (variant.name, piece.letter, name, sorted(found ^ expected))
            compared += 1
    return compared


@pytest.mark.parametrize("per_piece", [
    SQUARES, pytest.param(FULL_SQUARES, marks=pytest.mark.full),
], ids=["ci", "full"])
def test_fairy_stockfish_examples_load_and_their_pieces_move_as_in_pyffish(per_piece: int) -> None:
    variants = _load(EXAMPLES, source="variants.ini")
    assert len(variants) == 23
    names = _fsf(EXAMPLES)
    compared = 0
    rng = random.Random(SEED)
    for name, variant in variants.items():
        fsf = names[name]
        start = pyffish.start_fen(fsf)
        rows = start.split(" ")[0].split("[")[0].split("/")
        assert len(rows) == variant.ranks, name
        assert start.split(" ")[0] == variant.start.split(" ")[0], name
        # Checks, immobility, extinction and facing generals bend which moves are legal here.
        if variant.checking and not variant.immobility_illegal and variant.ends.extinction is None \
                and not variant.flying_general:
            compared += _compare_pieces(variant, fsf, rng, per_piece)
    assert compared > 150
    # A few facts of Fairy-Stockfish's about these, as read here.
    assert (variants["indiangreat"].files, variants["indiangreat"].ranks) == (10, 10)
    assert variants["crossderby"].holes == frozenset({(1, 7), (6, 7), (0, 6), (1, 6), (6, 6), (7, 6),
                                                      (0, 1), (1, 1), (6, 1), (7, 1), (1, 0), (6, 0)})
    assert variants["maharajah2"].ends.extinction_types == frozenset("m")
    assert variants["khans"].promotion is not None
    assert variants["khans"].promotion.pawn_types == (frozenset("p"), frozenset("ps"))
    assert variants["khans"].promotion.choices[1] == ("t",)
    assert variants["chak"].unapplied == ()
    assert (variants["chak"].history.n_move_rule, variants["chak"].history.n_fold_rule) == (50, 3)
    assert variants["blackletter"].castling is not None and variants["blackletter"].castling.rank == 1


@pytest.mark.parametrize(("text", "option"), REFUSED, ids=[text[1:text.index("]")] for text, _ in REFUSED])
def test_fairy_stockfish_examples_it_cannot_say_fail_on_the_option_naming_it(text: str, option: str) -> None:
    error = _error(text, source="variants.ini")
    assert error.option == option
    line = next(number for number, written in enumerate(text.split("\n"), 1) if written.startswith(option))
    assert error.line == line


# --- the reader's own bounds -------------------------------------------------------------------
def test_every_predefined_piece_is_an_option_read_in_fairy_stockfish_order() -> None:
    text = "[all]\nmaxFile = 12\nmaxRank = 10\ncastling = false\n" \
           "startFen = 12/12/12/12/12/12/12/12/12/12 w - - 0 1\n"
    # Letters run out before the types do: a later type given a taken letter removes the earlier
    # (the king is read last).
    last: dict[str, str] = {}
    for number, name in enumerate(PREDEFINED):
        letter = "abcdefghijklmnopqrstuvwxyz"[number % 26]
        text += f"{name} = {letter}\n"
        last[letter] = name
    variant = _load(text)["all"]
    assert {piece.name for piece in variant.pieces} == set(last.values())
    assert len(variant.pieces) == 26


def test_a_chain_of_parents_as_long_as_allowed_resolves() -> None:
    text = "[v0]\nmaxFile = 2\nmaxRank = 2\nimmobile = x\nstartFen = 2/2 w - - 0 1\ncastling = false\n"
    text += "".join(f"[v{number}:v{number - 1}]\n" for number in range(1, ini.MAX_DEPTH + 1))
    variants = _load(text)
    assert len(variants) == ini.MAX_DEPTH + 1 and variants[f"v{ini.MAX_DEPTH}"].files == 2


def test_a_huge_value_is_quoted_short() -> None:
    error = _error("[a:chess]\nmaxRank = " + "9" * 100_000 + "\n")
    assert len(str(error)) < 200 and "(100,000 characters)" in str(error)


# --- hostile input (issue 16, finding 4): the reader bounded by the board and by caps ----------
def _traced(call: Callable[[], object]) -> tuple[BaseException | None, int]:
    """What ``call`` raised (None if nothing) and the peak of memory it allocated, in bytes."""
    tracemalloc.start()
    try:
        call()
    except Exception as error:  # noqa: BLE001  (returned, for the test to look at)
        return error, tracemalloc.get_traced_memory()[1]
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return None, peak


def test_a_start_rank_wider_than_the_board_is_refused_where_it_is_seen() -> None:
    # 10 MB here took 18.7 s and 1.4 GB (about 140 bytes a character) before the FEN error.
    text = "[big:chess]\nstartFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/" + "R" * 2_000_000 + " w - - 0 1\n"
    error, peak = _traced(lambda: _load(text))
    assert isinstance(error, VariantError)
    assert (error.source, error.line, error.option) == ("test.ini", 2, "startFen")
    assert re.search(r"^test\.ini:2: \[big\] startFen = 'rnbq.*\(2,000,045 characters\): the start position "
                     r"does not fit the variant: rank 1 'RRRR.*\(2,000,000 characters\) covers more than 8 "
                     r"squares \(from 'R' at character 43 of the FEN\)$", str(error))
    # Read no further than the board: the few copies of the line that reading it makes, nothing per
    # character of the rank (was 140 bytes each).
    assert peak < 4 * len(text)


def test_a_start_with_more_ranks_than_the_board_is_refused_at_the_first_too_many() -> None:
    text = ("[big:chess]\nstartFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR" + "/8" * 1_000_000
            + " w - - 0 1\n")
    error, peak = _traced(lambda: _load(text))
    assert isinstance(error, VariantError)
    assert str(error).endswith("the start position does not fit the variant: the placement has more than 8 "
                               "ranks (a '/' at character 45 of the FEN)")  # a ninth may be the hands
    assert peak < 4 * len(text)


def test_the_fen_reader_of_a_variant_is_bounded_too() -> None:
    chess = registry.entry("chess")
    # A run of digits past int()'s limit was a ValueError from inside, not the FEN's error.
    for fen in ("9" * 5000 + "/8/8/8/8/8/8/8 w - - 0 1", "8/8/8/8/8/8/8/4K2k w - a" + "3" * 5000 + " 0 1"):
        with pytest.raises(GGNError) as caught:
            chess.to_feen(fen)
        assert len(str(caught.value)) < 600
    # A rank's text, a side, a counter and a castling field are quoted short, not whole.
    for fen in ("8/8/8/8/8/8/8/" + "K" * 1_000_000 + " w - - 0 1", "8/8/8/8/8/8/8/K6k " + "w" * 100_000,
                "8/8/8/8/8/8/8/K6k w - - 0 " + "1 " * 100_000,
                "8/8/8/8/8/8/8/K6k w " + "K" * 100_000 + " - 0 1"):
        error, peak = _traced(partial(chess.to_feen, fen))
        assert isinstance(error, GGNError) and len(str(error)) < 600, str(error)[:600]
        assert peak < 3 * len(fen)
    # Fields and ranks are not split into lists of millions.
    for fen in ("8/8/8/8/8/8/8/K6k w - -" + " " * 1_000_000 + "0 1", "/" * 1_000_000 + " w - - 0 1"):
        error, peak = _traced(partial(chess.to_feen, fen))
        assert isinstance(error, GGNError) and peak < 3 * len(fen)  # a list of fields was 8 bytes each
    with pytest.raises(GGNError, match="en passant square e3 is given twice"):
        chess.to_feen("4k3/8/8/8/4P3/8/8/4K3 b - e3e3 0 1")


def test_a_hand_of_the_start_is_counted_letter_by_letter_as_written() -> None:
    crazyhouse = registry.entry("crazyhouse")
    feen = crazyhouse.to_feen("4k3/8/8/8/8/8/8/4K3[" + "P" * 30 + "NpN] w - - 0 1")
    assert feen.endswith(" 30P2N/p C/c")
    with pytest.raises(GGNError, match="100007 pieces outnumber the 64 squares"):
        crazyhouse.to_feen("4k3/8/8/8/8/8/8/4K3[" + "P" * 100_000 + "NpNpp] w - - 0 1")
    with pytest.raises(GGNError, match=r"'x' is not a piece letter of crazyhouse \(at 23\)"):
        crazyhouse.to_feen("4k3/8/8/8/8/8/8/4K3[PPPxQx] w - - 0 1")


def test_a_text_of_too_many_sections_is_refused_at_the_first_too_many() -> None:
    # 20,000 sections took 50 s and 327 MB: each is a variant resolved.
    text = "".join(f"[v{number}:chess]\n" for number in range(ini.MAX_SECTIONS + 1))
    error = _error(text)
    assert str(error) == (f"test.ini:{ini.MAX_SECTIONS + 1}: [v{ini.MAX_SECTIONS}] is one section too many: "
                          f"a text holds at most {ini.MAX_SECTIONS:,} sections "
                          "(ggn.variants.ini.MAX_SECTIONS)")
    assert ini.MAX_SECTIONS >= 143  # Fairy-Stockfish's own variants.ini


def test_a_chain_of_parents_longer_than_allowed_is_refused_naming_the_section() -> None:
    text = "".join(f"[v{number}:{'chess' if number == 0 else f'v{number - 1}'}]\n"
                   for number in range(ini.MAX_DEPTH + 1))
    # v0 has one ancestor (chess), v31 has 32: the most; v32 one more.
    assert ini.MAX_DEPTH == 32
    error = _error(text)
    assert str(error) == ("test.ini:33: [v32] has more than 32 ancestors (the variants it inherits from, one "
                          "from another: [v32:v31] and on); at most 32 (ggn.variants.ini.MAX_DEPTH)")


def test_a_chain_of_parents_is_counted_across_the_texts_of_a_catalogue() -> None:
    games = registry.Catalogue()
    games.add_ini("".join(f"[a{n}:{'chess' if n == 0 else f'a{n - 1}'}]\n" for n in range(20)), "one.ini")
    with pytest.raises(VariantError, match=r"^two\.ini:13: \[b12\] has more than 32 ancestors"):
        games.add_ini("".join(f"[b{n}:{'a19' if n == 0 else f'b{n - 1}'}]\n" for n in range(20)), "two.ini")


def test_names_values_and_options_are_capped_by_what_a_text_may_hold() -> None:
    long = "x" * 1_000_000
    for text, message in (
        (f"[{long}:chess]\n", r"^test\.ini:1: a section name is at most 100 characters, got 'xxx.*'\.\.\. "
                              r"\(1,000,000 characters\)$"),
        (f"[a:{long}]\n", r"^test\.ini:1: a parent's name is at most 100 characters"),
        # A long unknown key was compared with every option's name for a suggestion: 40 MB a MB.
        (f"[a:chess]\n{long} = 1\n", r"^test\.ini:2: \[a\] an option's name is at most 100 characters"),
        (f"[a:chess]\npromotionRegionWhite = {'a8 ' * 300_000}\n",
         r"^test\.ini:2: \[a\] promotionRegionWhite = 'a8 a8 .*\(899,999 characters\): a value is at most "
         r"10,000 characters \(ggn\.variants\.ini\.MAX_VALUE\)$"),
        ("[a:chess]\n" + "maxRank = 8\n" * (ini.MAX_OPTIONS + 1),
         rf"^test\.ini:{ini.MAX_OPTIONS + 2}: \[a\] maxRank: one option too many: a text holds at most "
         r"50,000 options"),
    ):
        error, peak = _traced(partial(ini.sections, text, source="test.ini"))
        assert isinstance(error, VariantError) and re.search(message, str(error)), str(error)[:300]
        assert peak < 10_000_000  # 50,000 options of a few bytes: about 150 bytes each


def test_millions_of_lines_are_read_one_at_a_time() -> None:
    text = "[a:chess]\n" + "##\n" * 200_000 + "maxRank = 6\n"
    found, peak = None, 0
    tracemalloc.start()
    try:
        found = ini.sections(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert found[0].options == (ini.Option("maxRank", "6", 200_002),)
    assert peak < 1_000_000  # a list of the lines was 12 MB (59 bytes a line)


def test_a_byte_order_mark_starts_a_text() -> None:
    found = ini.sections("\ufeff[tiny:chess]\nmaxRank = 6\n")
    assert [(s.name, s.parent, s.line) for s in found] == [("tiny", "chess", 1)]
    assert registry.Catalogue().add_ini("\ufeff[tiny:chess]\nmaxRank = 6\n"
                                        "startFen = 8/8/8/8/8/8 w - - 0 1\ncastling = false\n") == ("tiny",)
    # Only at the start: elsewhere it is a character like another.
    error = _error("[tiny:chess]\n\ufeffmaxRank = 6\n")
    assert str(error).startswith("test.ini:2: [tiny] '\\ufeffmaxRank' is not an option Fairy-Stockfish knows")


def test_the_cli_reads_an_ini_file_written_with_a_byte_order_mark(tmp_path: Path) -> None:
    path = tmp_path / "bom.ini"
    path.write_text("[tiny:chess]\nmaxRank = 6\nstartFen = 8/8/8/8/8/8 w - - 0 1\ncastling = false\n",
                    encoding="utf-8-sig")
    assert path.read_bytes()[:3] == b"\xef\xbb\xbf"
    out, err = io.StringIO(), io.StringIO()
    assert run(["variants", "--ini", str(path)], out, err) == 0, err.getvalue()
    assert re.search(r"^tiny +8x6 +.*bom\.ini$", out.getvalue(), re.MULTILINE)


def test_betza_modifiers_are_kept_once_however_many_are_written() -> None:
    # The Betza reader kept each modifier letter in a list: 86 bytes a letter ('fff...fW'). The
    # ini reader's MAX_VALUE bounds what it gives the reader; the reader bounds itself too.
    text = "f" * 200_000 + "m" * 200_000 + "c" * 200_000 + "W"
    tracemalloc.start()
    try:
        parsed = betza.parse(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert parsed == betza.parse("fmcW")
    assert peak < 1_000_000  # was 27 MB
    assert betza.parse("ffffmmmW") == betza.parse("fmW")
    assert betza.parse("flflflN") == betza.parse("flN")


MAKRUKISH = """[cam:chess]
bishop = -
queen = -
silver = s
fers = m
startFen = rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 0 1
promotionPieceTypes = m
doubleStep = false
castling = false
gating = true
cambodianMoves = true
"""


def test_cambodian_first_moves_are_read_with_gating() -> None:
    variant = _load(MAKRUKISH)["cam"]
    assert variant.cambodian_moves and variant.history.check_counting is False
    # Without gating Fairy-Stockfish reads no gate: cambodianMoves does nothing, in both.
    assert not _load(MAKRUKISH.replace("gating = true\n", "").replace("DEde", "-"))["cam"].cambodian_moves
    # Gating without cambodian moves is seirawan's, which is refused.
    error = _error(MAKRUKISH.replace("cambodianMoves = true\n", ""))
    assert error.option == "gating" and "gating" in str(error)
    error = _error(MAKRUKISH.replace("castling = false\n", "").replace("RNSKMSNR w DEde", "RNSMKSNR w Ee"))
    assert error.option == "cambodianMoves" and "with castling" in str(error)
    error = _error(MAKRUKISH + "castlingRank = 2\n")
    assert error.option == "castlingRank" and "another rank than the first" in str(error)


def test_check_counting_is_read() -> None:
    text = "[tc:chess]\ncheckCounting = true\nstartFen = 4k3/8/8/8/8/8/8/4K3 w - - 2+2 0 1\n"
    assert _load(text)["tc"].history.check_counting


def test_makpong_is_read() -> None:
    assert _load("[mp:chess]\nmakpongRule = true\n")["mp"].makpong
