"""Playouts in the native kernel (``src/ggn/_native/playout.c``): its tables, and its games
turned back into results, endings and plays.

The kernel plays a game's playouts where it can end every game exactly as
:class:`ggn.game.Game` ends it (docs/DECISIONS.md, "Playouts"): the last check given where
checks are counted, then an extinction (a bare king's where ``*`` is left with one piece) or
a flag region reached, before all else (the kernel's tables hold these ends); no legal move
(checkmate, or the stalemate's value, with ``stalematePieceCount``), the n-move rule by the
halfmove clock, an n-fold repetition (with perpetual checks lost or not, a value of the
player to move or absolute), keyed as Game keys positions (with the checks left, where
counted), and the end of a count of the counting rules (makruk's, cambodian's, asean's); a
draw decided by material where the game counts it; in a game of gating rights, the castling
rights alone in the key (a marked king and rook); walls placed with a play (a wall is keyed
as FEN's ``*``); janggi's two passes in a row and its bikjang answered by a pass, decided by
material where the game counts it. A game with any other end (a connection, xiangqi's
chasing, janggi's repeated moves, a full board, shatar's mate) plays on the pure path:
:func:`playout_refusal` names the reason. En passant
squares Fairy-Stockfish finds by a piece's own initial moves are keyed from the ways the piece
may have come (:func:`ggn.variants.fen._initial_paths`), the first open one on the board.
Sittuyin's stalemate (a king and a pawn left, no check, nothing but promotions to play) is
claimed after the counting rules' end.

The playout tables (int32 values, PLAYOUT_FORMAT; the kernel checks every one as it reads them)::

    magic 0x47504C34, N squares, K kinds, M moves (the game's tables'),
    the values for the player to move (1 win, 0 draw, -1 loss) of checkmate and stalemate,
    stalematePieceCount (0/1), the n-move rule in plies (0 none), the n-fold rule (0 none),
    a repetition's value, whether it is absolute (0/1), perpetual checks lost (0/1),
    repetitions over the whole game (0/1: captures go to hand), hands in the key (0/1),
    promoted pieces may demote (0/1), the number of the extinction type whose end is a bare
    king's among the extinction types sorted (-1 none), checks counted (0/1: the checks each
    player has left at the start are the kernel call's), the counting rules (0 none, 1 makruk,
    2 cambodian, 3 asean: the count under way at the start is the kernel call's), a draw
    decided by material (0 no, 1 whitedrawodds, 2 blackdrawodds, 3 janggi, 4 unweighted),
    sittuyin's stalemate (0/1: sittuyinPromotion), gating (0/1: the castling rights keyed from
    the marked kings and rooks, whose marks are gating rights too),
    per kind 0..K-1: side, key class (0 the empty square), rank of its QPI text, en passant
        entry (-1 none), a pawn that may take en passant (0/1), PIN letter's number, enhanced (0/1),
        its type for the counting rules (0 another, 1 pawn, 2 rook, 3 silver: a khon, 4 knight),
        its weight for the material counting (janggi's by type, else 1), a pawn of sittuyin's
        stalemate (0/1: its type among its side's promotion pawn types), its part in the
        castling rights of a game of gating (0 none, 1 a marked king, 2 a marked rook), its
        plain kind's key class (that of the same piece unmarked, for a marked rook)
    per move 0..M-1: whether its plain play starts the halfmove clock again (an irreversible
        move of a type of the n-move rule)
    the en passant entries: count, then each: always (0/1: no pawn needs to take), and per
        square the ways the piece standing there marked may have come (its double step, or
        one of its own initial moves, in Fairy-Stockfish's order: the first open one is the
        way it came): their count, then each: its origin (-1: none to check), the count and
        the squares that must be empty between, the count and the files of the squares
        passed over (the key's en passant files), and two squares of a pawn that could take
        en passant over the first of them (-1 none)
"""

from __future__ import annotations

import re
import weakref
from array import array
from types import ModuleType
from typing import TYPE_CHECKING, Final

from ggn.errors import GGNError
from ggn.position import Geometry, Position, piece_of
from ggn.rules._records import Ending, Play
from ggn.rules._system import RuleSystem

if TYPE_CHECKING:
    from ggn.game import Game
    from ggn.rules._native import _Game
    from ggn.rules.variant import VariantRules
    from ggn.variants.description import Variant

__all__ = ["PLAYOUT_MAGIC", "description_playout_refusal", "native_playout", "playout_refusal"]

PLAYOUT_MAGIC: Final = 0x47504C34
_MAX_COUNTER: Final = 1 << 24  # the most a playout's start counter may be (GGN_PLAYOUT_MAX_COUNTER)
_COUNTING: Final = {"makruk": 1, "cambodian": 2, "asean": 3}
_COUNTED_TYPES: Final = {"pawn": 1, "rook": 2, "silver": 3, "knight": 4}
_MATERIAL: Final = {"whitedrawodds": 1, "blackdrawodds": 2, "janggi": 3, "unweighted": 4}
# Janggi's material by type (Game._material, Fairy-Stockfish's), every other type 0.
_JANGGI_WEIGHTS: Final = {"rook": 13, "janggiCannon": 7, "horse": 5, "janggiElephant": 3, "wazir": 3,
                           "soldier": 2}
_CALL_GAMES: Final = 1 << 20  # games a call of the kernel (its bound is 2^32)
_VALUES: Final = {"win": 1, "draw": 0, "loss": -1}
_ENDINGS: Final = {1: Ending.CHECKMATE, 2: Ending.NO_LEGAL_MOVE, 3: Ending.STALEMATE, 4: Ending.MOVE_RULE,
                   5: Ending.REPETITION, 6: Ending.PERPETUAL_CHECK, 7: Ending.EXTINCTION, 8: Ending.FLAG,
                   9: Ending.BARE_KING, 10: Ending.CHECKS, 11: Ending.COUNTING, 12: Ending.PASSES,
                   13: Ending.BIKJANG}
_WINNERS: Final = ("1-0", "0-1", "1/2-1/2", "*")
_PROMOTED: Final = re.compile(r"\+([A-Za-z])")

# The playout tables of each kernel game (or why it has none), made on first use.
_TABLES: weakref.WeakKeyDictionary[_Game, array[int] | str] = weakref.WeakKeyDictionary()


class _Refused(Exception):  # noqa: N818  (control flow: the reason a playout falls back)
    pass


def _variant_rules(rules: RuleSystem) -> VariantRules | None:
    from ggn.rules.variant import VariantRules  # noqa: PLC0415

    return rules if isinstance(rules, VariantRules) else None


def playout_refusal(rules: RuleSystem) -> str:
    """Why the kernel's playout cannot end ``rules``' games as :class:`ggn.game.Game` does
    ("" if it can; the kernel plays the game at all is :func:`ggn.rules._native.native_support`'s
    question)."""
    variant_rules = _variant_rules(rules)
    if variant_rules is None:
        return "an end before the last move (of a rule system's own)" if rules._ends else ""
    known_ends = variant_rules._extinction or variant_rules._flags_on
    if variant_rules._connects or (variant_rules._ends and not known_ends):
        return "an end before the last move (a connection...)"
    return description_playout_refusal(variant_rules.variant)


def description_playout_refusal(variant: Variant) -> str:
    """Why the kernel's playout cannot end ``variant``'s games as :class:`ggn.game.Game` does,
    from its description alone ("" if it can): a rule on the game's history or an end that the
    playout tables do not hold. A game the kernel does not play at all
    (:func:`ggn.rules._native.description_refusal`) is not this function's question; for one it
    plays, this is :func:`playout_refusal`'s answer without the rule system (the tests hold the
    two to the same answer), which ``ggn variants --format json`` reads."""
    history, ends = variant.history, variant.ends
    checks: list[tuple[bool, str]] = [
        (history.chasing_rule is not None, "perpetual chasing (chasingRule)"),
        (history.move_repetition_illegal, "repeated moves (moveRepetitionIllegal)"),
        (history.adjudicate_full_board, "a full board (adjudicateFullBoard)"),
        (ends.shatar_mate, "shatar's mate (shatarMateRule)"),
    ]
    for refused, reason in checks:
        if refused:
            return reason
    return ""


def _tables(rules: RuleSystem, made: _Game, start: Position) -> array[int] | str:
    known = _TABLES.get(made)
    if known is None:
        try:
            known = _build(rules, made, start)
        except _Refused as refused:
            known = str(refused)
        _TABLES[made] = known
    return known


def _build(rules: RuleSystem, made: _Game, start: Position) -> array[int]:
    reason = playout_refusal(rules)
    if reason:
        raise _Refused(reason)
    codes = [0] * len(made.kind_of)
    for code, kind in made.kind_of.items():
        codes[kind] = code
    count = len(codes)
    texts = sorted({str(piece_of(code)) for code in codes[1:]})
    rank_of = {text: number for number, text in enumerate(texts)}
    variant_rules = _variant_rules(rules)
    places = made.places  # per move: kind, source (-1 the hand), destination
    moves = len(places) // 3
    header = [PLAYOUT_MAGIC, made.squares, count, moves]
    kinds: list[int] = [0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0]
    pins: dict[str, int] = {}
    for code in codes[1:]:
        piece = piece_of(code)
        pin = pins.setdefault(piece.pin.name, len(pins))
        enhanced = int(piece.state == "enhanced")
        kinds += [0 if code > 0 else 1, 0, rank_of[str(piece)], -1, 0, pin, enhanced, 0, 0, 0, 0, 0]
    entries: list[int] = []
    if variant_rules is None:  # a GGN document's rules: no history, so no claims (Game's)
        header += [-1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 1, -1, 0, 0, 0, 0, 0]
        return array("i", [*header, *kinds, *([0] * moves), 0])
    variant = variant_rules.variant
    history, ends, drops = variant.history, variant.ends, variant.drops
    if drops is not None and not made.hands:
        raise _Refused("a game with drops whose kernel tables keep no hands")
    promotion = variant.promotion
    sittuyin = promotion is not None and promotion.sittuyin
    header += [_VALUES[ends.checkmate], _VALUES[ends.stalemate], int(ends.stalemate_piece_count),
               2 * history.n_move_rule, history.n_fold_rule, _VALUES[history.n_fold_value],
               int(history.n_fold_value_absolute), int(history.perpetual_check_illegal),
               int(drops is not None and drops.captures_to_hand), int(drops is not None),
               int(promotion is not None and promotion.demotion), _bare(variant_rules),
               int(history.check_counting), _COUNTING.get(history.counting_rule or "", 0),
               _MATERIAL.get(history.material_counting or "", 0), int(sittuyin), int(variant.gating)]
    from ggn.variants._clock import _reversible, piece_type  # noqa: PLC0415
    from ggn.variants.fen import _initial_paths, _table  # noqa: PLC0415  (the FEN's letters and marks)

    table = _table(variant)
    promoted = dict(promotion.promoted) if promotion is not None and promotion.promoted else {}

    def plain(match: re.Match[str]) -> str:
        letter = match[1]
        becomes = promoted.get(letter.lower(), letter.lower())
        return becomes.upper() if letter.isupper() else becomes

    double_step = variant.double_step
    entry_count = 0
    classes: dict[tuple[str, bool], int] = {}
    ranks = variant.ranks
    for kind in range(1, count):
        piece = piece_of(codes[kind])
        letter = table.letters.get(piece.pin.name)
        at = 12 * kind
        if table.wall is not None and piece.pin.name == table.wall and piece.side == "second" \
                and piece.state == "normal" and not piece.terminal and piece.native:
            # A wall (petrified's taker turned to stone): FEN's '*', no one's piece, weighing nothing.
            kinds[at + 1] = classes.setdefault(("*", False), len(classes) + 1)
            kinds[at + 8] = 0
            continue
        if letter is None or not piece.native:
            raise _Refused(f"a piece FEN does not write ({piece})")
        first, state = piece.side == "first", piece.state
        # The square's piece as Game's key writes it: no '~', a promoted piece as its type.
        token = letter.upper() if first else letter
        if state == "enhanced" and letter in table.promoted:
            token = "+" + token
        if promoted:
            token = _PROMOTED.sub(plain, token)
        castling = state == "enhanced" and letter in table.castling_letters and letter not in table.promoted
        counted = piece_type(variant, piece)
        name = "" if counted is None else counted.name or ""
        kinds[at + 7] = _COUNTED_TYPES.get(name, 0)
        kinds[at + 8] = _JANGGI_WEIGHTS.get(name, 0) if history.material_counting == "janggi" else 1
        if sittuyin and counted is not None:
            assert promotion is not None
            kinds[at + 9] = int(counted.letter in promotion.pawn_types[0 if first else 1])
        kinds[at + 1] = classes.setdefault((token, castling), len(classes) + 1)
        if castling and variant.gating:
            # Gating: the marks are gating rights too; Game's key holds the castling letters
            # only (a right needs the king and that rook both marked): see key_extra.
            plain_class = classes.setdefault((token, False), len(classes) + 1)
            if piece.terminal:
                kinds[at + 1], kinds[at + 10] = plain_class, 1
            else:
                kinds[at + 10], kinds[at + 11] = 2, plain_class
        kinds[at + 4] = int(state != "enhanced" and table.pawn(letter))
        marked = letter in table.double_step and (
            state == "diminished" or (state == "enhanced" and letter in table.crossed))
        if not marked:
            continue
        assert double_step is not None  # the letter is one of its types
        kinds[at + 3] = entry_count
        entry_count += 1
        always = not table.pawn(letter) or any(not table.pawn(other) for other in double_step.en_passant
                                               if other in table.types)
        entries.append(int(always))
        forward = 1 if first else -1
        plain_step = letter in double_step.types and letter not in double_step.initial_movers
        regions = double_step.passant_regions
        region = None if regions is None else regions[1 if first else 0]  # the side to move's
        for square in range(made.squares):
            at_square = variant_rules._square.get(square)  # None: a hole
            if at_square is None:
                entries.append(0)
                continue
            # Each way: its origin (-1: none to check) and the squares between, which must be
            # empty (a hole always is), and the squares passed over (the key's files).
            ways: list[tuple[int, list[int], list[tuple[int, int]]]]
            if plain_step:  # from the square behind, empty (else FEN refuses the mark)
                behind = (at_square[0], at_square[1] - forward)
                ways = [(-1, [], [behind] if 0 <= behind[1] < ranks else [])]
            else:
                index, crossed = variant_rules._index, state == "enhanced"
                ways = [(index.get(origin, -1), [index[cell] for cell in between if cell in index],
                         [*between, at_square])
                        for origin, between in _initial_paths(table, letter, at_square, piece.side, crossed)]
            entries.append(len(ways))
            for origin, between, over in ways:
                # only those in the side to move's region count
                passed = over if region is None else [cell for cell in over if cell in region]
                entries += [origin, len(between), *between, len(passed), *(file for file, _ in passed)]
                if passed:
                    file, rank = passed[0][0], passed[0][1] + forward
                    entries += [variant_rules._index.get((near, rank), -1) for near in (file - 1, file + 1)]
                else:
                    entries += [-1, -1]
    stays: list[int] = []
    types = history.n_move_types

    cells = Geometry(made.shape).cells
    for number in range(moves):
        kind, source, destination = places[3 * number], places[3 * number + 1], places[3 * number + 2]
        piece = piece_of(codes[kind])
        moved = piece_type(variant, piece)
        side = 0 if piece.side == "first" else 1
        if moved is None or moved.letter not in types[side] or source < 0:
            stays.append(0)
        else:
            stays.append(int(not _reversible(moved, piece.side, cells[source], cells[destination])))
    return array("i", [*header, *kinds, *stays, entry_count, *entries])


def _bare(rules: VariantRules) -> int:
    """The number of the extinction type whose end is a bare king's (``*`` with one piece
    left, :meth:`VariantRules._extinct`'s), among the kernel's (the types sorted), or -1."""
    ends = rules.variant.ends
    if not rules._extinction or "*" not in ends.extinction_types or ends.extinction_count != 1:
        return -1
    return sorted(ends.extinction_types).index("*")


_Games = tuple[tuple[str, ...], tuple[int, ...], tuple[Ending | None, ...],
               tuple[tuple[Play, ...], ...] | None]


def native_playout(kernel: ModuleType, made: _Game, encoded: array[int], rules: RuleSystem, game: Game, *,
                   games: int, seed: int, policy: str, max_plies: int,
                   moves: bool) -> _Games | None:
    """The games of a playout played by the kernel, or None where the pure path plays them."""
    start = game.start
    tables = _tables(rules, made, start)
    if isinstance(tables, str):
        return None
    rule50 = game.halfmove
    if rule50 > 2**31 - 1:
        return None
    if game.variant is not None and game.variant.history.n_fold_rule:
        try:  # a start FEN cannot write (a castling right off its rank): Game's keys fail on it
            game._key(0)
        except GGNError:
            return None
    counters = (*(game.checks_left or (0, 0)), *game._counting[0])
    if not all(0 <= value <= _MAX_COUNTER for value in counters):
        return None  # a FEN's counter beyond the kernel's bound
    raw = array("i")
    pairs = array("i")
    code = 1 if policy == "captures" else 0
    for first in range(0, games, _CALL_GAMES):
        count = min(_CALL_GAMES, games - first)
        found, played = kernel.playout(made.capsule, tables, encoded, seed, first, count, code, max_plies,
                                       rule50, moves, counters)
        raw.frombytes(found)
        if played is not None:
            pairs.frombytes(played)
    winners, endings, lengths = raw[0::3], raw[1::3], raw[2::3]
    results = tuple(_WINNERS[winner] for winner in winners)
    ended = tuple(_ENDINGS.get(ending) for ending in endings)
    plays = _replayed(rules, made, start, pairs, lengths) if moves else None
    return results, tuple(lengths), ended, plays


def _replayed(rules: RuleSystem, made: _Game, start: Position, pairs: array[int],
              lengths: array[int]) -> tuple[tuple[Play, ...], ...]:
    """Each game's plays, made again from the pairs (move, play) the kernel chose."""
    from ggn.rules._native import _plays  # noqa: PLC0415

    games: list[tuple[Play, ...]] = []
    at = 0
    for length in lengths:
        position = start
        found: list[Play] = []
        for ply in range(length):
            pair = (pairs[2 * (at + ply)], pairs[2 * (at + ply) + 1])
            made_plays = _plays(rules, made, position, [pair])
            if made_plays is None:  # a move the document does not hold: never from these tables
                raise GGNError(f"the kernel's playout named a move {pair} the game does not have")
            play = made_plays[0]
            found.append(play)
            position = position.apply(play.transition)
        at += length
        games.append(tuple(found))
    return tuple(games)
