"""What KIF and CSA share: the shogi family's boards, pieces and starts, positions as grids.

A position is handled here as SFEN (:mod:`ggn.notation.usi`): a grid of ranks from the top
(``"+p"`` a promoted pawn of the second player, ``"K"`` the first player's king, ``""`` an empty
square), the two hands by FEN letter, and the side to move. The readers build one and the
writers read one, each in its own format's words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from ggn._types import Side, expect
from ggn.errors import GGNError
from ggn.notation import usi
from ggn.position import Position
from ggn.variants.fen import from_feen

if TYPE_CHECKING:
    from ggn.game import Game
    from ggn.rules import Play, RuleSystem

# The games a board's size tells apart: the shogi family played with shogi's own pieces only.
GAMES: Final = {(9, 9): "shogi", (5, 5): "minishogi", (6, 6): "judkins", (5, 6): "gorogoro"}
"""(files, ranks) -> the game of that board."""
LETTERS: Final = frozenset("plnsgbrk")
_ORDER: Final = "rbgsnlp"  # shogi's order of the pieces in hand
"""The FEN letters of shogi's pieces (their promoted forms are ``+`` and the letter)."""

FULL_DIGITS: Final = "１２３４５６７８９"
KANJI_NUMBERS: Final = ("", "一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二",
                        "十三", "十四", "十五", "十六", "十七", "十八", "十九", "二十")

HANDICAPS: Final = {
    "平手": "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "香落ち": "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "右香落ち": "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "角落ち": "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "飛車落ち": "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "飛香落ち": "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "二枚落ち": "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "三枚落ち": "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "四枚落ち": "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "五枚落ち": "2sgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "左五枚落ち": "1nsgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "六枚落ち": "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "左七枚落ち": "2sgkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "右七枚落ち": "3gkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "八枚落ち": "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "十枚落ち": "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
}
"""KIF's handicaps (手合割), shogi's start and each piece-down start, as SFEN: the handicap
giver (上手) plays the second player's pieces and moves first."""

MINISHOGI_NAMES: Final = ("5五将棋", "５五将棋", "五五将棋")
"""KIF's names (手合割) of minishogi, as Shogidokoro writes them."""


@dataclass
class Grid:
    """A position of a shogi-family game, square by square: ``rows[0]`` is the top rank
    (``一``), ``rows[r][0]`` its leftmost square (the highest file number); a square holds
    ``""`` or a piece (``"P"``, ``"+p"``: uppercase the first player's); ``hands`` count each
    player's pieces by FEN letter (lowercase); ``side`` is the player to move."""

    rows: list[list[str]]
    hands: tuple[dict[str, int], dict[str, int]]
    side: Side

    @property
    def files(self) -> int:
        return len(self.rows[0])

    @property
    def ranks(self) -> int:
        return len(self.rows)


def grid_of(rules: RuleSystem, position: Position) -> Grid:
    """The grid of a position (through its SFEN)."""
    placement, side, hands, _ = usi.to_sfen(rules, position).split(" ")
    rows: list[list[str]] = []
    for text in placement.split("/"):
        row: list[str] = []
        for match in re.finditer(r"([0-9]+)|(\+?[A-Za-z])", text):
            row.extend([""] * int(match[1]) if match[1] else [match[2]])
        rows.append(row)
    held: tuple[dict[str, int], dict[str, int]] = ({}, {})
    if hands != "-":
        for count, letter in re.findall(r"([0-9]*)([A-Za-z])", hands):
            mine = held[0 if letter.isupper() else 1]
            mine[letter.lower()] = mine.get(letter.lower(), 0) + int(count or 1)
    return Grid(rows, held, "first" if side == "b" else "second")


def sfen_of(grid: Grid, move_number: int = 1) -> str:
    """The SFEN of a grid."""
    ranks = []
    for row in grid.rows:
        text, empty = "", 0
        for square in row:
            if not square:
                empty += 1
                continue
            text += (str(empty) if empty else "") + square
            empty = 0
        ranks.append(text + (str(empty) if empty else ""))
    hands = "".join((str(grid.hands[side][letter]) if grid.hands[side][letter] > 1 else "")
                    + (letter.upper() if side == 0 else letter)
                    for side in (0, 1) for letter in sorted(grid.hands[side], key=_ORDER.find)
                    if grid.hands[side][letter])
    return f"{'/'.join(ranks)} {'b' if grid.side == 'first' else 'w'} {hands or '-'} {move_number}"


def fen_of(rules: RuleSystem, sfen: str) -> str:
    """Fairy-Stockfish's FEN of an SFEN (a record's start position)."""
    position, _ = usi.from_sfen(rules, sfen)
    return from_feen(rules.variant, position)  # type: ignore[attr-defined]


def checked(game: Game) -> Game:
    """``game`` if it is a :class:`ggn.game.Game`, else a TypeError."""
    from ggn.game import Game  # noqa: PLC0415  (records are read without the games' rules)

    return expect(game, Game, "game", "a Game")  # type: ignore[no-any-return]


def game_rules(game: Game) -> RuleSystem:
    """The rule system of a game of the shogi family with shogi's pieces, or an error."""
    variant = game.variant
    if variant is None or GAMES.get((variant.files, variant.ranks)) is None or \
            not {piece.letter.lower() for piece in variant.pieces} <= LETTERS | {"d", "h"}:
        name = game.rules.name
        boards = ", ".join(GAMES.values())
        raise GGNError(f"KIF and CSA record games of shogi's pieces on the boards of {boards}, "
                       f"not {name[:40]!r}")
    return game.rules


def plays_of(game: Game) -> Iterable[tuple[Position, Play]]:
    """Each play of a game with the position it was made in."""
    return ((game.position_at(ply), play) for ply, play in enumerate(game.plays))


UNKNOWN: Final = frozenset({"?", "????.??.??", "-", ""})
"""Tag values that say nothing is known (PGN's ``?``, a date of question marks), not written."""

Tags = Mapping[str, str] | Iterable[tuple[str, str]] | None


def tags_of(tags: Tags, names: Mapping[str, str]) -> list[tuple[str, str]]:
    """The tags a KIF or CSA header writes, each under its name in ``names`` (a PGN tag's,
    ``White``, as ``先手`` or ``N+``) or its own, with PGN's dates as ``YYYY/MM/DD``; a value
    that says nothing is known, or a date known in part, is left out. Raise ``TypeError`` for
    anything but a mapping of str to str or (name, value) pairs of str."""
    if tags is None:
        return []
    given = tags.items() if isinstance(tags, Mapping) else tags
    if isinstance(tags, (str, bytes)) or not isinstance(given, Iterable):
        raise TypeError(f"tags must be a mapping of tag names to values, or (name, value) pairs, got "
                        f"{type(tags).__name__}")
    pairs = list(given)
    for pair in pairs:
        if not (isinstance(pair, tuple) and len(pair) == 2 and all(isinstance(part, str) for part in pair)):
            raise TypeError("tags must be a mapping of tag names to values, or (name, value) pairs, of str")
    found: dict[str, str] = {}
    for key, value in pairs:
        if value in UNKNOWN:
            continue  # PGN's "?": nothing known
        if key == "Date":
            date = re.fullmatch(r"([0-9]{4})\.([0-9]{2})\.([0-9]{2})", value)
            if date is None:
                continue  # a date PGN knows in part ("2023.??.??")
            value = "/".join(date.groups())  # noqa: PLW2901  (KIF's and CSA's way of writing it)
        found[str(names.get(key) or key)] = value
    return list(found.items())
