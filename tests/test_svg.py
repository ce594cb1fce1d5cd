"""Board pictures (ggn.svg, ggn.textboard): the data-* contract against the positions drawn, for
every built-in game's start and for positions of random games, and what each option draws."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ggn import svg, textboard
from ggn._types import SIDES, STATES
from ggn.cell import Cell
from ggn.epin import Epin
from ggn.errors import GGNError
from ggn.feen import Feen
from ggn.pin import Pin
from ggn.position import Position
from ggn.qpi import Qpi
from ggn.sin import Sin
from ggn.variants import registry
from support import examples, game_positions

NS = "{http://www.w3.org/2000/svg}"
CHESS = registry.start("chess")


def parsed(picture: str) -> ET.Element:
    root = ET.fromstring(picture)
    assert root.tag == f"{NS}svg"
    assert root.get("version") == "1.1"
    assert float(root.get("width", "0")) > 0 and float(root.get("height", "0")) > 0
    return root


def board_pieces(root: ET.Element) -> dict[str, str]:
    found: dict[str, str] = {}
    for element in root.iter():
        square = element.get("data-square")
        if square is not None:
            assert square not in found, f"{square} drawn twice"
            found[square] = element.get("data-piece", "")
    return found


def hand_pieces(root: ET.Element) -> dict[tuple[str, str], int]:
    return {
        (element.get("data-hand", ""), element.get("data-piece", "")): int(element.get("data-count", "0"))
        for element in root.iter() if element.get("data-hand") is not None
    }


def assert_contract(position: Position, picture: str) -> None:
    """Every piece of the position, and nothing else, is an element of the contract."""
    root = parsed(picture)
    assert board_pieces(root) == {str(cell): str(piece) for cell, piece in position}
    expected = {(player, str(piece)): count for player in ("first", "second")
                for piece, count in position.hand(player).items()}
    assert hand_pieces(root) == expected


@pytest.mark.parametrize("name", registry.names())
def test_every_games_start_is_drawn_whole(name: str) -> None:
    game = registry.entry(name)
    position = Position.from_feen(game.start)
    assert_contract(position, svg.board(position))
    assert_contract(position, game.svg())  # with the game's own glyphs and holes
    holes = game.drawing()["holes"]
    root = parsed(game.svg())
    assert len([e for e in root.iter() if e.get("class") == "hole"]) == len(holes)


@pytest.mark.parametrize("name", ["chess", "shogi", "xiangqi", "makruk", "crazyhouse", "minishogi",
                                  "gustav3", "janus"])
def test_positions_of_random_games_are_drawn_whole(name: str) -> None:
    game = registry.entry(name)
    positions = game_positions(registry.rules(name), 40, seed=len(name))
    held = 0
    for position in positions:
        assert_contract(position, game.svg(position, arrows=[("*", "a1")]))
        held += sum(position.hand("first").values()) + sum(position.hand("second").values())
    if name in ("shogi", "crazyhouse", "minishogi"):
        assert held > 0, "the random games never put a piece in hand: the hands went untested"


def test_hands_hold_pieces_of_either_side_with_their_counts() -> None:
    position = Position.from_feen("k^2K^/4/4 3P2p+Bb'/s C/c")
    root = parsed(svg.board(position))
    assert hand_pieces(root) == {
        ("first", "C:P"): 3, ("first", "c:p"): 2, ("first", "C:+B"): 1, ("first", "C:b"): 1,
        ("second", "c:s"): 1,
    }
    # The count is written on the piece when there is more than one.
    counts = [e.get("data-text", "") for e in root.iter() if e.get("class") == "count"]
    assert sorted(counts) == ["2", "3"]


def test_hands_are_drawn_when_asked_even_empty() -> None:
    position = Position.from_feen(CHESS)
    assert 'class="hand"' not in svg.board(position)
    assert svg.board(position, hands=True).count('class="hand"') == 2
    assert 'class="hand"' not in svg.board(Position.from_feen("k^1K^/3 P/ C/c"), hands=False)


def test_marks_of_states_terminal_pieces_and_derived_pieces() -> None:
    position = Position.from_feen("+k^-p1/3/P'1+R / C/s")
    root = parsed(svg.board(position))
    marks: dict[str, set[str]] = {}
    for element in root.iter():
        if element.get("data-square"):
            marks[element.get("data-square", "")] = {
                m.get("data-mark", "") for m in element.iter() if m.get("data-mark")
            }
    assert marks == {"a3": {"+", "^"}, "b3": {"-"}, "a1": {"'"}, "c1": {"+"}}
    assert "data-mark" not in svg.board(position, marks=False)


def test_a_promoted_shogi_piece_shows_its_promoted_kanji_not_a_badge() -> None:
    position = Position.from_feen("+P2/3/3 / S/s")
    picture = svg.board(position)
    assert "と" in picture and 'data-mark="+"' not in picture
    lettered = svg.board(position, letters=True)
    assert "と" not in lettered and 'data-text="+P"' in lettered


def test_glyph_families() -> None:
    chess = svg.board(Position.from_feen("KQRBNPA/7 / C/c"))
    assert chess.count('<use xlink:href="#ggn-chess') == 6  # six figures, the A drawn with its letter
    assert 'data-text="A"' in chess
    shogi = svg.board(Position.from_feen("k^1K^/3 / S/s"))
    assert "玉" in shogi and "王" in shogi and "rotate(180" in shogi
    xiangqi = svg.board(Position.from_feen("g^1G^/3 / X/x"))
    assert "帥" in xiangqi and "將" in xiangqi
    makruk = svg.board(Position.from_feen("MSP/3 / M/m"))
    assert makruk.count('<use xlink:href="#ggn-makruk') == 3
    fallback = svg.board(Position.from_feen("Zz1/3 / Q/q"))
    assert "#ggn-chess" not in fallback and fallback.count('data-text="Z"') == 2
    # families and aliases override the style letters.
    drawn = svg.board(Position.from_feen("QB1/3 / S/s"), families={"S": "makruk"},
                      aliases={"S:Q": "M", "S:B": "?"})
    assert drawn.count('<use xlink:href="#ggn-makruk') == 1 and 'data-text="B"' in drawn


def test_shogi_pieces_point_at_the_opponent() -> None:
    position = Position.from_feen("p1P/3 / S/s")
    picture = svg.board(position)
    turned = {e.get("data-square"): "rotate(180" in ET.tostring(e, encoding="unicode")
              for e in parsed(picture).iter() if e.get("data-square")}
    assert turned == {"a2": True, "c2": False}
    flipped = {e.get("data-square"): "rotate(180" in ET.tostring(e, encoding="unicode")
               for e in parsed(svg.board(position, flipped=True)).iter() if e.get("data-square")}
    assert flipped == {"a2": False, "c2": True}


def _place(root: ET.Element, square: str) -> tuple[float, float]:
    for element in root.iter():
        if element.get("data-square") == square:
            text = ET.tostring(element, encoding="unicode")
            match = re.search(r'translate\(([-\d.]+) ([-\d.]+)\)', text)
            assert match is not None
            return float(match.group(1)), float(match.group(2))
    raise AssertionError(square)


def test_orientation_and_flipping() -> None:
    position = Position.from_feen(CHESS)
    root = parsed(svg.board(position))
    a1, h8 = _place(root, "a1"), _place(root, "h8")
    assert a1[0] < h8[0] and a1[1] > h8[1]  # a1 bottom left
    root = parsed(svg.board(position, flipped=True))
    a1, h8 = _place(root, "a1"), _place(root, "h8")
    assert a1[0] > h8[0] and a1[1] < h8[1]  # a1 top right


def test_highlights_and_their_colours() -> None:
    position = Position.from_feen(CHESS)
    root = parsed(svg.board(position, highlight=["e2", Cell.parse("e4")]))
    found = {e.get("data-cell"): e.get("fill") for e in root.iter() if e.get("class") == "highlight"}
    assert found == {"e2": svg.HIGHLIGHT, "e4": svg.HIGHLIGHT}
    root = parsed(svg.board(position, highlight={"e2": "#123", "e4": "red"}))
    found = {e.get("data-cell"): e.get("fill") for e in root.iter() if e.get("class") == "highlight"}
    assert found == {"e2": "#123", "e4": "red"}
    with pytest.raises(GGNError, match="not a square"):
        svg.board(position, highlight=["i9"])
    with pytest.raises(GGNError, match="not a colour"):
        svg.board(position, highlight={"e2": 'red" onload="x'})
    with pytest.raises(GGNError):
        svg.board(position, highlight=["e"])


def test_arrows() -> None:
    rules = registry.rules("chess")
    position = rules.position()
    plays = rules.legal_moves(position)
    root = parsed(svg.board(position, arrows=[("e2", "e4"), plays[0], (Cell.parse("g1"), "g1")]))
    moves = [e.get("data-move") for e in root.iter() if e.get("class") == "arrow"]
    assert moves == ["e2-e4", f"{plays[0].source}-{plays[0].destination}", "g1-g1"]
    moves_of_document = rules.ruleset.moves(position)
    root = parsed(svg.board(position, arrows=moves_of_document))
    assert len([e for e in root.iter() if e.get("class") == "arrow"]) == len(moves_of_document)
    with pytest.raises(GGNError, match="not a square"):
        svg.board(position, arrows=[("e2", "e9")])
    with pytest.raises(TypeError, match="arrows"):
        svg.board(position, arrows=[42])  # type: ignore[list-item]


def test_one_and_three_dimensional_boards() -> None:
    line = Position.from_feen("K^2P2k^ / C/c")
    root = parsed(svg.board(line))
    assert board_pieces(root) == {"a": "C:K^", "d": "C:P", "g": "c:k^"}
    assert len([e for e in root.iter() if e.get("data-cell")]) == 7
    cube = Position.from_feen("k^1/2//1K^/2 / C/c")
    picture = svg.board(cube)
    root = parsed(picture)
    assert board_pieces(root) == {"a2B": "c:k^", "b2A": "C:K^"}
    assert len([e for e in root.iter() if e.get("data-cell")]) == 8
    assert 'data-text="layer A"' in picture and 'data-text="layer B"' in picture
    # The higher layer is drawn to the right of the lower one.
    assert _place(root, "a2B")[0] > _place(root, "b2A")[0]


def test_boards_wider_than_26_files_name_their_files_as_cell_does() -> None:
    position = Position.from_feen("28/k^26K^ / C/c")
    picture = svg.board(position)
    assert board_pieces(parsed(picture)) == {"a1": "c:k^", "ab1": "C:K^"}
    assert 'data-text="aa"' in picture and 'data-text="ab"' in picture and 'data-cell="ab2"' in picture
    assert 'data-text="aa"' not in svg.board(position, coordinates=False)


def test_holes_are_gaps() -> None:
    root = parsed(registry.entry("omicron").svg())
    holes = {e.get("data-cell") for e in root.iter() if e.get("class") == "hole"}
    assert holes == {str(cell) for cell in registry.entry("omicron").drawing()["holes"]}
    assert "a2" in holes and "b1" in holes and "a1" not in holes  # the corners are the wizards' squares
    with pytest.raises(GGNError, match="not a square"):
        svg.board(Position.from_feen(CHESS), holes=["z9"])


def test_arguments_are_checked() -> None:
    position = Position.from_feen(CHESS)
    with pytest.raises(TypeError, match="position"):
        svg.board(CHESS)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="flipped"):
        svg.board(position, flipped=1)  # type: ignore[arg-type]
    with pytest.raises(GGNError, match="8 to 512"):
        svg.board(position, size=4)
    with pytest.raises(GGNError, match="no family"):
        svg.board(position, families={"C": "go"})
    with pytest.raises(GGNError, match="font"):
        svg.board(position, font='x" onload="y')
    with pytest.raises(GGNError, match="too large"):
        svg.board(Position.from_feen("257/" * 255 + "257 / C/c"))


def test_size_sets_the_pictures_dimensions() -> None:
    small = parsed(svg.board(Position.from_feen(CHESS), size=20))
    large = parsed(svg.board(Position.from_feen(CHESS), size=40))
    assert float(large.get("width", "0")) == pytest.approx(2 * float(small.get("width", "0")))


def test_repr_svg_of_a_position_and_of_a_game() -> None:
    position = Position.from_feen(CHESS)
    assert position._repr_svg_() == svg.board(position)
    game = registry.entry("shatranj")
    assert game._repr_svg_() == game.svg()
    assert game.drawing()["families"] == {"S": "chess"}  # its style letter is no shogi
    assert registry.entry("shogi").drawing()["families"] == {"S": "shogi"}
    assert registry.entry("minixiangqi").drawing()["aliases"] == {"M:K": "G", "M:N": "H"}
    assert registry.entry("asean").drawing()["aliases"] == {"A:Q": "M", "A:B": "S"}
    # A game of drops draws its hands even empty; another only when a hand holds a piece.
    assert registry.entry("shogi").svg().count('class="hand"') == 2
    assert registry.entry("chess").svg().count('class="hand"') == 0
    assert registry.entry("chess").svg("k^6K^/8/8/8/8/8/8/8 P/ C/c").count('class="hand"') == 2


# --- the text board ------------------------------------------------------------------------
def test_text_board_of_chess() -> None:
    text = textboard.board(Position.from_feen(CHESS))
    lines = text.split("\n")
    assert lines[0].strip() == "second: -"
    assert lines[1].startswith("8 ") and "+♜" in lines[1] and "+♚^" in lines[1]
    assert lines[8].startswith("1 ") and "+♔^" in lines[8]
    assert lines[9].split() == list("abcdefgh")
    assert lines[-1] == "first to move"
    assert "\x1b[" not in text
    assert Counter(ch for ch in text if ch in "♔♕♖♗♘♙♚♛♜♝♞♟") == Counter(
        {"♙": 8, "♟": 8, "♖": 2, "♜": 2, "♘": 2, "♞": 2, "♗": 2, "♝": 2, "♕": 1, "♛": 1, "♔": 1, "♚": 1})


def test_text_board_colour_highlight_hands_and_flip() -> None:
    position = Position.from_feen("k^1K^/3 2P+B/s s/S")
    text = textboard.board(position, highlight=["b1"], flipped=True)
    lines = text.split("\n")
    assert lines[0].strip() == "first: 2P +B"
    assert lines[1].startswith("1 ") and "[" in lines[1]
    assert lines[-2].strip() == "second: s"
    assert lines[-1] == "second to move"
    assert lines[-3].split() == ["c", "b", "a"]
    coloured = textboard.board(position, colour=True)
    assert "\x1b[48;5;" in coloured and coloured.count("\x1b[0m") == 6
    assert "\x1b[" not in textboard.board(position, colour=False)


def test_text_board_of_one_and_three_dimensions() -> None:
    assert textboard.board(Position.from_feen("K^2P2k^ / C/c")).split("\n")[1].split() == \
        ["♔^", "·", "·", "♙", "·", "·", "♚^"]
    text = textboard.board(Position.from_feen("k^1/2//1K^/2 / C/c"))
    assert "layer A" in text and "layer B" in text


def test_text_board_writes_each_piece_as_feen_does() -> None:
    position = Position.from_feen("+k^-p1/3/P'1+R / C/s")
    text = textboard.board(position, families={"C": "letters", "S": "letters"})
    assert "+k^" in text and "-p" in text and "P'" in text and "+R" in text


def test_a_games_glyphs_follow_its_pieces_types_not_its_letters() -> None:
    # Torishogi's swallow (S) moves as a shogi pawn: not drawn as a silver, nor its pawn-letter
    # phoenix (P) as a pawn; shatranj's fers (Q) and alfil (B) are no queen or bishop.
    torishogi = registry.entry("torishogi").svg()
    assert 'data-text="銀"' not in torishogi and 'data-text="歩"' in torishogi
    assert 'data-text="S"' not in torishogi and 'data-text="P"' in torishogi
    text = registry.entry("shatranj").text()
    assert "♕" not in text and "♗" not in text and "Q" in text and "B" in text and "♔" in text


@st.composite
def any_positions(draw: st.DrawFn) -> Position:
    """Positions of any shape FEEN writes (up to 30 files, past z), of any styles, marks and
    hands: what the contract must hold for beyond the games' own."""
    dimensions = draw(st.integers(1, 3))
    shape = tuple(draw(st.integers(1, 30) if axis == 0 else st.integers(2, 5)) for axis in range(dimensions))
    styles = (Sin(draw(st.sampled_from("CSXMQ")), "first"), Sin(draw(st.sampled_from("CSXMQ")), "second"))
    squares = 1
    for size in shape:
        squares *= size
    pins = st.builds(Pin, st.sampled_from("KQRBNPGSLAEHCMZ"), st.sampled_from(SIDES),
                     st.sampled_from(STATES), st.booleans())
    pieces = st.builds(Epin, pins, st.booleans())
    spots = draw(st.lists(st.tuples(*(st.integers(0, size - 1) for size in shape)),
                          max_size=min(squares, 20), unique=True))
    board = {Cell(spot): draw(pieces).to_qpi(*styles) for spot in spots}
    room = squares - len(board)
    hands: dict[str, dict[Qpi, int]] = {}
    for player in SIDES:
        held: dict[Qpi, int] = {}
        for epin in draw(st.lists(pieces, max_size=4, unique=True)):
            if room > 0:
                held[epin.to_qpi(*styles)] = count = draw(st.integers(1, room))
                room -= count
        hands[player] = held
    return Position.from_feen(Feen(shape, board, hands, draw(st.sampled_from(SIDES)), styles))


@settings(max_examples=examples(60))
@given(any_positions(), st.booleans(), st.booleans())
def test_any_position_is_drawn_whole(position: Position, flipped: bool, letters: bool) -> None:
    assert_contract(position, svg.board(position, flipped=flipped, letters=letters))
    text = textboard.board(position, flipped=flipped)
    files = position.shape[0]
    ranks = position.shape[1] if len(position.shape) > 1 else 1
    assert len(text.split("\n")) == ranks + 4 + (len(position.shape) == 3)
    names = text.split("\n")[-3].split()  # the files' names, under the board
    assert names[-1] == (str(Cell((0,))) if flipped else str(Cell((files - 1,))))
    assert len(names) == files * (position.shape[2] if len(position.shape) == 3 else 1)


# --- text drawn as paths: no picture needs a font --------------------------------------------
def _glyph_ids(picture: str) -> set[str]:
    return set(re.findall(r'<path id="(ggn-(?:ja|zh|sans|sans-bold)-[0-9a-f]+)"', picture))


@pytest.mark.parametrize("letters", [False, True])
def test_no_start_picture_of_a_built_in_game_needs_a_font(letters: bool) -> None:
    for name in registry.names():
        game = registry.entry(name)
        for compact in (False, True):
            picture = game.svg(letters=letters, compact=compact, hands=True)
            assert "<text" not in picture and "font-family" not in picture, (name, letters, compact)
            if not compact:
                # What each piece's text is, is still said: in data-text, beside the title.
                root = parsed(picture)
                drawn = [e for e in root.iter() if e.get("data-text") is not None]
                assert drawn, name
                for element in drawn:
                    assert element.tag in (f"{NS}path", f"{NS}use"), (name, element.tag)
                assert all(e.find(f"{NS}title") is not None for e in root.iter()
                           if e.get("class") == "piece"), name


def test_a_characters_outline_is_defined_once_and_used_where_it_stands() -> None:
    shogi = registry.entry("shogi").svg()
    # 歩 on 18 squares, one definition; the compact picture writes each out.
    pawn = f"ggn-ja-{ord('歩'):x}"
    assert shogi.count(f'<path id="{pawn}"') == 1
    assert shogi.count(f'xlink:href="#{pawn}"') == 18
    compact = registry.entry("shogi").svg(compact=True)
    assert "<use" not in compact and "<path id=" not in compact
    from ggn import _glyphs  # noqa: PLC0415

    assert compact.count(_glyphs.path_data("歩", "ja")) == 18
    xiangqi = registry.entry("xiangqi").svg()
    assert {f"ggn-zh-{ord(c):x}" for c in "帥將仕士相象馬俥車炮砲兵卒"} == _glyph_ids(xiangqi)
    # letters: the PIN letters, in DejaVu Sans Bold's outlines
    lettered = registry.entry("xiangqi").svg(letters=True)
    assert {f"ggn-sans-bold-{ord(c):x}" for c in "GAEHRCP"} == _glyph_ids(lettered)


def test_the_second_players_shogi_characters_are_turned_with_their_piece() -> None:
    picture = svg.board(Position.from_feen("p1P/3 / S/s"))
    root = parsed(picture)
    for element in root.iter():
        if element.get("class") != "piece":
            continue
        group = element.find(f"{NS}g")
        assert group is not None
        turned = "rotate(180" in (group.get("transform") or "")
        assert turned == (element.get("data-piece") == "s:p")
        # the character is inside the turned group
        assert [e.get("data-text") for e in group.iter() if e.get("data-text")] == ["歩"]


def test_a_font_asked_for_writes_the_characters_as_text_in_it() -> None:
    position = Position.from_feen("k^1K^/3 / S/s")
    picture = svg.board(position, font="IPAMincho")
    texts = re.findall(r'<text [^>]*font-family="IPAMincho, [^"]*"[^>]*>([^<]*)</text>', picture)
    assert sorted(texts) == ["玉", "王"]
    # letters and coordinates stay paths; with letters=True no text at all
    assert "<text" not in svg.board(position, font="IPAMincho", letters=True)
    xiangqi = svg.board(Position.from_feen("g^1G^/3 / X/x"), font="AR PL UMing")
    assert sorted(re.findall(r">([^<>]+)</text>", xiangqi)) == ["將", "帥"]


def test_janggi_is_drawn_with_its_own_pieces() -> None:
    entry = registry.entry("janggi")
    assert entry.drawing()["families"] == {"J": "janggi"} and entry.drawing()["aliases"] == {}
    picture = entry.svg()
    root = parsed(picture)
    texts = Counter(e.get("data-text") for e in root.iter() if e.get("data-text") and e.tag == f"{NS}use")
    # Cho (the first player) 楚 and 卒, Han 漢 and 兵; both 車 馬 象 士 包, two each.
    assert texts == {"楚": 1, "漢": 1, "卒": 5, "兵": 5, "車": 4, "馬": 4, "象": 4, "士": 4, "包": 4}
    assert picture.count("<polygon points=") == 32  # octagons
    # The general is the largest piece, a soldier the smallest.
    def width(cell: str) -> float:
        piece = next(e for e in root.iter() if e.get("data-square") == cell)
        polygon = piece.find(f"{NS}polygon")
        assert polygon is not None
        xs = [float(point.split(",")[0]) for point in (polygon.get("points") or "").split()]
        return max(xs) - min(xs)
    assert width("e2") > width("a1") > width("a4")
    lettered = parsed(entry.svg(letters=True))
    drawn = {e.get("data-text") for e in lettered.iter() if e.get("data-text") and e.tag == f"{NS}use"}
    assert drawn == set("GAEHRCP")  # each side's in its colour


def test_a_piece_alone_needs_no_font_either() -> None:
    for text, families in (("S:+P", {"S": "shogi"}), ("X:c", {"X": "xiangqi"}), ("J:G", {"J": "janggi"}),
                           ("C:A", None)):
        picture = svg.piece(text, families=families)
        assert "<text" not in picture and "font-family" not in picture, text
        # the outline each <use> names is defined in the same picture
        for ident in re.findall(r'xlink:href="#(ggn-[^"]+)"', picture):
            assert f'id="{ident}"' in picture, (text, ident)
    assert 'data-text="と"' in svg.piece("S:+P", families={"S": "shogi"})
