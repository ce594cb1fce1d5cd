"""Board pictures (ggn.svg, ggn.textboard): the data-* contract against the positions drawn, for
every built-in game's start and for positions of random games, and what each option draws."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ggn import _glyphs, svg, textboard
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
        if square is not None and element.get("class") == "piece":
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
        if element.get("class") == "piece":
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
              for e in parsed(picture).iter() if e.get("class") == "piece"}
    assert turned == {"a2": True, "c2": False}
    flipped = {e.get("data-square"): "rotate(180" in ET.tostring(e, encoding="unicode")
               for e in parsed(svg.board(position, flipped=True)).iter() if e.get("class") == "piece"}
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


# --- each game's board conventions: coordinates, the xiangqi and janggi boards, the squares' layer
def coordinates_of(root: ET.Element) -> list[tuple[str, float, float]]:
    """Each name written around or on the board: its text and its middle."""
    found = []
    for element in root.iter():
        if element.get("class") == "coordinate":
            match = re.fullmatch(r"translate\(([-\d.]+) ([-\d.]+)\)", element.get("transform", ""))
            assert match is not None
            (drawn,) = list(element)
            found.append((drawn.get("data-text", ""), float(match[1]), float(match[2])))
    return found


def square_middles(root: ET.Element) -> dict[str, tuple[float, float]]:
    """The middle of each square's hit target (rect.square)."""
    found = {}
    for element in root.iter(f"{NS}rect"):
        if element.get("class") == "square":
            x, y = float(element.get("x", "0")), float(element.get("y", "0"))
            w, h = float(element.get("width", "0")), float(element.get("height", "0"))
            found[element.get("data-square", "")] = (x + w / 2, y + h / 2)
    return found


def named_edges(root: ET.Element) -> dict[str, dict[str, str]]:
    """The names of the squares' files and ranks by the edge of the board they are written on,
    each square's file name (``top``, ``bottom``) and rank name (``left``, ``right``)."""
    middles = square_middles(root)
    xs = sorted({x for x, _ in middles.values()})
    ys = sorted({y for _, y in middles.values()})
    names = coordinates_of(root)
    edges: dict[str, dict[str, str]] = {"top": {}, "bottom": {}, "left": {}, "right": {}}
    for cell, (x, y) in middles.items():
        for text, nx, ny in names:
            if abs(nx - x) < 0.01 and ny < ys[0]:
                edges["top"][cell] = text
            elif abs(nx - x) < 0.01 and ny > ys[-1]:
                edges["bottom"][cell] = text
            elif abs(ny - y) < 0.01 and nx < xs[0]:
                edges["left"][cell] = text
            elif abs(ny - y) < 0.01 and nx > xs[-1]:
                edges["right"][cell] = text
    return edges


def python_shogi_cells() -> dict[str, str]:
    """python-shogi's name of each square (9a to 1i) and ggn's CELL of it, found by reading an
    SFEN of python-shogi's with a gold on that square alone."""
    shogi = pytest.importorskip("shogi")
    from ggn.notation import usi  # noqa: PLC0415

    rules = registry.rules("shogi")
    found = {}
    for square, name in enumerate(shogi.SQUARE_NAMES):
        board = shogi.Board()
        board.clear()
        board.set_piece_at(square, shogi.Piece(shogi.GOLD, shogi.BLACK))
        position, _ = usi.from_sfen(rules, board.sfen())
        ((cell, piece),) = list(position)
        assert piece == Qpi.parse("S:G")
        found[name] = str(cell)
    return found


@pytest.mark.parametrize("flipped", [False, True])
def test_shogi_is_named_as_shogi_players_read_a_board(flipped: bool) -> None:
    shogi = pytest.importorskip("shogi")
    cells = python_shogi_cells()
    root = parsed(registry.entry("shogi").svg(flipped=flipped))
    edges = named_edges(root)
    assert not edges["bottom"] and not edges["left"]  # files above, ranks on the right
    for name, cell in cells.items():
        assert edges["top"][cell] == name[0]
        assert edges["right"][cell] == shogi.NUMBER_JAPANESE_KANJI_SYMBOLS[ord(name[1]) - ord("a") + 1]
    # python-shogi's squares in its board order, 9a to 1a then down to 1i: from sente's top left
    # (1a, 1一, the top right corner), or from the bottom right when gote is at the bottom.
    middles = square_middles(root)
    order = [middles[cells[name]] for name in shogi.SQUARE_NAMES]
    rows = [order[i:i + 9] for i in range(0, 81, 9)]
    for row in rows:
        assert len({y for _, y in row}) == 1
        assert [x for x, _ in row] == sorted((x for x, _ in row), reverse=flipped)
    assert [row[0][1] for row in rows] == sorted((row[0][1] for row in rows), reverse=flipped)
    top_right = max(middles.values(), key=lambda m: (m[0], -m[1]))
    assert top_right == middles[cells["1a" if not flipped else "9i"]]
    # In letters, the ranks as USI writes them.
    edges = named_edges(parsed(registry.entry("shogi").svg(flipped=flipped, letters=True)))
    assert all(edges["right"][cell] == name[1] for name, cell in cells.items())


def test_the_other_shogi_boards_are_named_by_their_own_size() -> None:
    for name, files, ranks in (("minishogi", 5, 5), ("dobutsu", 3, 4), ("okisakishogi", 10, 10)):
        edges = named_edges(parsed(registry.entry(name).svg()))
        assert edges["top"]["a1"] == str(files) and edges["top"][str(Cell((files - 1, 0)))] == "1"
        assert edges["right"][str(Cell((0, ranks - 1)))] == "一"
        # 十 where the pictures' outlines have it (else the tenth rank in figures).
        ten = "十" if _glyphs.has("十", "ja") and _glyphs.has("十", "zh") else "10"
        assert edges["right"]["a1"] == [*"一二三四五六七八九", ten][ranks - 1]


def cchess_file_names() -> list[tuple[str, str]]:
    """cchess's names of each file (a to i) for red and for black, read from its Chinese
    notation of a rook's move along the file (车九退一: the red rook on file 九)."""
    cchess = pytest.importorskip("cchess")
    import unicodedata  # noqa: PLC0415

    def fen(pieces: dict[tuple[int, int], str]) -> str:
        rows = []
        for y in range(9, -1, -1):
            row, empty = "", 0
            for x in range(9):
                if (x, y) in pieces:
                    row += (str(empty) if empty else "") + pieces[(x, y)]
                    empty = 0
                else:
                    empty += 1
            rows.append(row + (str(empty) if empty else ""))
        return "/".join(rows) + " w - - 0 1"

    names = []
    for x in range(9):
        file = chr(ord("a") + x)
        board = cchess.ChessBoard(fen({(3, 0): "K", (5, 9): "k", (x, 3): "R", (x, 6): "r"}))
        red = board.move_iccs(f"{file}3{file}2").to_text()
        board.next_turn()
        black = board.move_iccs(f"{file}6{file}7").to_text()
        names.append((red[1], unicodedata.normalize("NFKC", black[1])))
    return names


@pytest.mark.parametrize("flipped", [False, True])
def test_xiangqi_files_are_numbered_from_each_players_right_along_its_edge(flipped: bool) -> None:
    names = cchess_file_names()
    assert names[0] == ("九", "1") and names[8] == ("一", "9")
    root = parsed(registry.entry("xiangqi").svg(flipped=flipped))
    edges = named_edges(root)
    red, black = ("top", "bottom") if flipped else ("bottom", "top")
    assert not edges["left"] and not edges["right"]  # no ranks' names
    for x, (red_name, black_name) in enumerate(names):
        for rank in range(10):
            cell = str(Cell((x, rank)))  # ICCS's files are CELL's: a1 is ICCS's a0
            assert edges[red][cell] == red_name and edges[black][cell] == black_name
    # The red player reads its files from its right: 一 at the bottom right unless flipped.
    lowest = max(y for _, y in square_middles(root).values())
    below = sorted((x, text) for text, x, y in coordinates_of(root) if y > lowest)
    assert [text for _, text in below] == (list("987654321") if flipped else list("九八七六五四三二一"))
    letters = named_edges(parsed(registry.entry("xiangqi").svg(flipped=flipped, letters=True)))
    assert [letters[red][str(Cell((x, 0)))] for x in range(9)] == list("987654321")


def test_xiangqi_river_palaces_and_points_janggi_without_river() -> None:
    picture = registry.entry("xiangqi").svg()
    root = parsed(picture)
    river = [e[0].get("data-text") for e in root.iter() if e.get("class") == "river"]
    assert river == ["楚", "河", "漢", "界"]
    janggi = registry.entry("janggi")
    root = parsed(janggi.svg())
    assert not [e for e in root.iter() if e.get("class") == "river"]
    # Named, a game's conventions win over its pieces': xiangqi on janggi's board.
    named = parsed(registry.entry("xiangqi").svg(conventions="janggi"))
    assert not [e for e in named.iter() if e.get("class") == "river"]
    assert named_edges(named)["right"]["a1"] == "0"
    # Janggi's files 1 to 9 below, its ranks 1 to 9 and 0 from the top on the right.
    edges = named_edges(root)
    assert [edges["bottom"][str(Cell((x, 0)))] for x in range(9)] == list("123456789")
    assert [edges["right"][str(Cell((0, r)))] for r in range(9, -1, -1)] == list("1234567890")
    # The lines: xiangqi's vertical lines stop at the river, janggi's do not.
    def lines(svg_text: str) -> str:
        found = re.search(r'<path d="([^"]+)" stroke="#4a2d12"', svg_text)
        assert found is not None
        return found[1]
    xiangqi_lines, janggi_lines = lines(picture), lines(janggi.svg())
    assert len(re.findall(r" V", xiangqi_lines)) > len(re.findall(r" V", janggi_lines))
    # Both palaces' diagonals: two crossing lines in each.
    assert janggi_lines.count(" L") == 4 and xiangqi_lines.count(" L") == 4
    for name in ("minixiangqi", "manchu", "supply", "janggimodern"):
        registry.entry(name).svg()  # drawn whole (every game's start is checked above)


def test_squares_are_hit_targets_over_everything_one_per_square() -> None:
    for name in ("chess", "shogi", "xiangqi", "janggi", "omicron"):
        entry = registry.entry(name)
        position = entry.position()
        root = parsed(entry.svg(position))
        last = list(root)[-1]
        assert last.tag == f"{NS}g" and last.get("class") == "squares" and last.get("pointer-events") is None
        holes = {str(cell) for cell in entry.drawing()["holes"]}
        rects = [e for e in last if e.get("class") == "square"]
        assert [e.get("data-square") for e in rects] == [
            str(cell) for cell in position._geometry.cells if str(cell) not in holes]
        assert all(e.get("fill-opacity") == "0" for e in rects)
        # Everything under the targets lets the pointer through: boards and their lines, the
        # names, the pieces; a piece in hand takes it (no square covers the hands).
        for element in root.iter():
            if element.get("class") in ("board", "coordinates", "piece", "highlight", "arrows"):
                assert element.get("pointer-events") == "none", element.get("class")
        # Each target is centred on its piece: on xiangqi's boards, on the lines' crossing.
        middles = square_middles(root)
        for element in root.iter():
            if element.get("class") == "piece" and name == "xiangqi":
                disc = element.find(f"{NS}circle")
                assert disc is not None
                centre = (float(disc.get("cx", "0")), float(disc.get("cy", "0")))
                assert centre == middles[element.get("data-square", "")]
            elif element.get("class") == "piece" and name == "janggi":  # an octagon
                octagon = element.find(f"{NS}polygon")
                assert octagon is not None
                points = [tuple(map(float, point.split(","))) for point in octagon.get("points", "").split()]
                x = sum(p[0] for p in points) / len(points)
                y = sum(p[1] for p in points) / len(points)
                mx, my = middles[element.get("data-square", "")]
                assert abs(x - mx) < 0.05 and abs(y - my) < 0.05
    picture = registry.entry("xiangqi").svg()
    found = re.search(r'<path d="([^"]+)" stroke="#4a2d12"', picture)
    assert found is not None
    # The lines (the points' marks are shorter than a square).
    verticals = {float(x) for x, y, end in re.findall(r"M([\d.]+) ([\d.]+) V([\d.]+)", found[1])
                 if abs(float(end) - float(y)) > 48}
    horizontals = {float(y) for x, y, end in re.findall(r"M([\d.]+) ([\d.]+) H([\d.]+)", found[1])
                   if abs(float(end) - float(x)) > 48}
    middles = square_middles(parsed(picture))
    assert len(middles) == 90
    assert {x for x, _ in middles.values()} == verticals  # every crossing a target's middle
    assert {y for _, y in middles.values()} == horizontals
    assert 'class="square"' not in svg.board(Position.from_feen(CHESS), compact=True)


def test_every_style_of_coordinates() -> None:
    entry = registry.entry("shogi")
    cells = {str(cell) for cell in entry.position()._geometry.cells}
    texts = {style: [text for text, _, _ in coordinates_of(parsed(entry.svg(coordinates=style)))]
             for style in svg.COORDINATES}
    assert sorted(texts["game"]) == sorted([*"123456789", *"一二三四五六七八九"])
    assert sorted(texts["outside"]) == sorted([*"abcdefghi", *"123456789"])
    assert sorted(texts["inside"]) == sorted(texts["outside"])
    assert set(texts["cell"]) == cells and len(texts["cell"]) == 81
    assert texts["none"] == []
    assert entry.svg(coordinates=True) == entry.svg(coordinates="game")
    assert entry.svg(coordinates=False) == entry.svg(coordinates="none")
    # Chess's own are the CELL names outside; inside, lichess's corners in the squares' other colour.
    chess = registry.entry("chess")
    assert chess.svg(coordinates="game") == chess.svg(coordinates="outside")
    root = parsed(chess.svg(coordinates="inside"))
    inside = {text: (x, y) for text, x, y in coordinates_of(root)}
    middles = square_middles(root)
    assert inside["a"][0] > middles["a1"][0] and inside["a"][1] > middles["a1"][1]  # bottom right of a1
    assert inside["8"][0] < middles["a8"][0] and inside["8"][1] < middles["a8"][1]  # top left of a8
    fills = {e[0].get("data-text"): e[0].get("fill") for e in root.iter() if e.get("class") == "coordinate"}
    assert fills["a"] != fills["b"] and fills["b"] == fills["2"]  # a1 dark, b1 light, a2 light
    root = parsed(chess.svg(coordinates="inside", flipped=True))
    inside = {text: (x, y) for text, x, y in coordinates_of(root)}
    middles = square_middles(root)
    assert inside["h"][1] > middles["h8"][1] and inside["1"][0] < middles["h1"][0]
    with pytest.raises(GGNError, match=r"no style of coordinates 'kanji'; there are: game, outside, inside"):
        chess.svg(coordinates="kanji")
    with pytest.raises(TypeError, match="coordinates"):
        svg.board(Position.from_feen(CHESS), coordinates=1)  # type: ignore[arg-type]
    with pytest.raises(GGNError, match="no board conventions 'go'"):
        svg.board(Position.from_feen(CHESS), conventions="go")


def test_shogi_hands_beside_the_board_as_shogi_diagrams_have_them() -> None:
    entry = registry.entry("shogi")
    feen = entry.start.replace(" / ", " 2P/b ", 1)  # two pawns in sente's hand, a bishop in gote's
    position = entry.position(feen)
    for flipped in (False, True):
        root = parsed(entry.svg(position, flipped=flipped))
        middles = square_middles(root)
        xs = [x for x, _ in middles.values()]
        ys = [y for _, y in middles.values()]
        held = {e.get("data-hand"): e for e in root.iter() if e.get("class") == "held"}
        assert held["first"].get("data-count") == "2" and held["second"].get("data-count") == "1"
        bottom, top = ("second", "first") if flipped else ("first", "second")

        def place(element: ET.Element) -> tuple[float, float]:
            text = ET.tostring(element, encoding="unicode")
            found = re.search(r'translate\(([-\d.]+) ([-\d.]+)\)', text)
            assert found is not None
            return float(found[1]), float(found[2])
        bx, by = place(held[bottom])
        tx, ty = place(held[top])
        assert bx > max(xs) and by > sum(ys) / len(ys)  # the bottom player's at the bottom right
        assert tx < min(xs) and ty < sum(ys) / len(ys)  # the top player's at the top left
    # Chess's hands (crazyhouse) stay on the right.
    crazyhouse = registry.entry("crazyhouse")
    root = parsed(crazyhouse.svg(crazyhouse.start.replace(" / ", " P/p ", 1)))
    middles = square_middles(root)
    for element in root.iter():
        if element.get("class") == "hand":
            rect = element[0]
            assert float(rect.get("x", "0")) > max(x for x, _ in middles.values())


def test_the_picture_scales_to_a_narrow_page() -> None:
    picture = registry.entry("shogi").svg()
    root = parsed(picture)
    width, height = float(root.get("width", "0")), float(root.get("height", "0"))
    assert root.get("viewBox") == f"0 0 {svg._n(width)} {svg._n(height)}"
    assert root.get("style") == "max-width:100%;height:auto"


def test_every_style_on_rows_and_layers_and_any_conventions() -> None:
    line = Position.from_feen("K^2P2k^ / C/c")
    cube = Position.from_feen("k^1/2//1K^/2 / C/c")
    counts = {"game": (7, 6), "outside": (7, 6), "inside": (7, 8), "cell": (7, 8), "none": (0, 0)}
    for style, (in_line, in_cube) in counts.items():
        for flipped in (False, True):
            # A row or layers are named as CELL does, whatever conventions are asked for.
            for conventions in (None, *svg.CONVENTIONS):
                def drawn(position: Position, compact: bool = False) -> str:
                    return svg.board(position, coordinates=style, flipped=flipped,  # noqa: B023
                                     conventions=conventions, compact=compact)  # noqa: B023
                assert len(coordinates_of(parsed(drawn(line)))) == in_line
                assert len(coordinates_of(parsed(drawn(cube)))) == in_cube
                assert "<text" not in drawn(cube, compact=True)
    names = {text for text, _, _ in coordinates_of(parsed(svg.board(cube, coordinates="cell")))}
    assert names == {str(cell) for cell in cube._geometry.cells}
