"""The :class:`Game`: a start position, the plays made from it, and the rules on its history.

The rules follow Fairy-Stockfish (``src/position.cpp``: ``do_move``'s counters,
``is_optional_game_end`` and ``is_immediate_game_end``), written again from what they do:

- the halfmove clock (Fairy-Stockfish's ``rule50``) starts again after a capture, a drop, a
  promotion (a shogi-style one unless promoted pieces may demote) and a move of a piece of the
  n-move rule's types (``nMoveRuleTypes``, the pawn by default) that it could not move back
  by a move without capture (a pawn's step; not a sideways step of pawnsideways' pawns);
- a position repeats when its board, its hands (in a game with drops), the side to move, the
  castling rights and the en passant squares are those of an earlier one, as Fairy-Stockfish's
  key compares them: a shogi-style promoted piece counts as the type it moves as (a tokin as a
  gold), a promoted pawn of crazyhouse as the piece it became, and an en passant square only
  where Fairy-Stockfish writes one (an enemy pawn could take);
- only positions since the last irreversible move count (in a game with drops, every position
  since the start), at least four plies back, with the same side to move;
- with the counting rules, the count starts, and starts again, where Fairy-Stockfish's does;
- with check counting (``checkCounting``), each play that gives check takes one of its
  player's checks left (read from the FEN, written back in it: :mod:`ggn.variants._checks`),
  and the player who has given its last one has won.
"""

from __future__ import annotations

import re
from typing import Final

from ggn._json import clip, quote
from ggn._types import Side, expect
from ggn.cell import Cell
from ggn.errors import GGNError, IllegalMoveError
from ggn.game._chase import Chasing, undo_move
from ggn.position import Position
from ggn.qpi import Qpi
from ggn.rules._records import Ending, Outcome, Play
from ggn.rules._system import RuleSystem
from ggn.variants._checks import Counts
from ggn.variants._checks import read as read_checks
from ggn.variants._checks import start as start_checks
from ggn.variants._checks import written as written_checks
from ggn.variants._clock import piece_type, resets
from ggn.variants.description import History, PieceType, Value, Variant

__all__ = ["Game"]

_SHOWN: Final = 12  # legal moves an error lists
_COUNTER_MAX: Final = 2**31 - 1  # Fairy-Stockfish reads its FEN's numbers as 32-bit ones
_PROMOTED: Final = re.compile(r"\+([A-Za-z])")
_SQUARE: Final = re.compile(r"[a-z][0-9]+")
# The notations that mark a check '+' (ggn.notation.san's: not shogi's, where '+' promotes).
_CHECK_MARKS: Final = frozenset({"san", "lan", "janggi", "thai-san", "thai-lan"})
_SUDDEN: Final = frozenset({Ending.EXTINCTION, Ending.FLAG, Ending.BARE_KING, Ending.CHECKS,
                           Ending.CONNECTION})


class Game:
    """A game: a start position and the plays made from it, with the rules on its history.

    ``rules`` is the name of a built-in game, or a rule system: a
    :class:`~ggn.rules.variant.VariantRules` (a built-in's, or one of ``--ini`` text) plays
    the history rules of its variant; any other :class:`~ggn.rules.RuleSystem` (a GGN
    document's) has none. The start is ``start`` (a Position or FEEN; default: the game's
    start position) with the move counters ``halfmove`` and ``fullmove``, or ``fen``, a
    position in the game's Fairy-Stockfish FEN whose counters are read from it.

    >>> game = Game("chess", fen="4k3/8/8/8/8/8/8/R3K3 w Q - 99 80")
    >>> game.halfmove, game.fullmove, game.claim()
    (99, 80, None)
    >>> str(game.push("a1a7")), game.halfmove, str(game.claim())
    ('C:+R a1-a7', 100, 'draw by the n-move rule')
    >>> game.result()
    '*'
    """

    __slots__ = ("_chased", "_chasing", "_checks", "_counting", "_fullmoves", "_history", "_keys", "_left",
                 "_legal", "_plays", "_positions", "_rule50", "_rules", "_variant", "_written")

    def __init__(self, rules: str | RuleSystem, start: Position | str | None = None, *,
                 fen: str | None = None, halfmove: int = 0, fullmove: int = 1) -> None:
        expect(rules, (str, RuleSystem), "rules", "a game's name or a RuleSystem")
        if isinstance(rules, str):
            from ggn.variants import registry  # noqa: PLC0415  (the registry's games, on first use)

            entry = registry.entry(rules)
            system: RuleSystem = entry.rules
            variant: Variant | None = entry.variant
        else:
            system = rules
            variant = _variant_of(rules)
        self._rules = system
        self._variant = variant
        self._history: History | None = None if variant is None else variant.history
        expect(halfmove, int, "halfmove", "an int")
        expect(fullmove, int, "fullmove", "an int")
        if halfmove < 0 or fullmove < 1:
            raise GGNError(f"the move counters are a halfmove clock of 0 or more and a move number of 1 or "
                           f"more, not {halfmove} and {fullmove}")
        limit = 0
        left: Counts | None = None
        if variant is not None and variant.history.check_counting:
            left = start_checks(variant)
        if fen is not None:
            expect(fen, str, "fen", "a FEN string or None")
            if start is not None:
                raise GGNError("a game starts from a position or from a FEN, not both")
            if variant is None:
                raise GGNError(f"the {system.name} rule system has no FEN: give its start position in FEEN")
            if (halfmove, fullmove) != (0, 1):
                raise GGNError("a game from a FEN reads its move counters from the FEN: give no halfmove "
                               "or fullmove")
            position, halfmove, fullmove, limit, read = _read_fen(system, variant, fen)
            left = read if left is not None else None
        else:
            if start is not None:
                expect(start, (Position, str), "start", "a Position, a FEEN string or None")
            position = system.position(start)
        self._positions: list[Position] = [position]
        self._plays: list[Play] = []
        # Each notation's moves written so far (a play's text depends only on the plays before
        # it): moves() writes only the plies pushed since, pop() cuts them.
        self._written: dict[str, list[str]] = {}
        self._fullmoves = [fullmove]
        # Fairy-Stockfish's rule50 and, for the counting rules, (countingLimit, countingPly):
        # read from a FEN, a halfmove clock is the count's ply once a count has started.
        counting = (limit, 0)
        if limit and halfmove:
            counting, halfmove = (limit, halfmove), 0
        self._rule50 = [halfmove]
        self._counting = [counting]
        self._checks: list[bool | None] = [None]
        # The checks each player has left (Fairy-Stockfish's checkCounting), else None.
        self._left: list[Counts | None] = [left]
        self._keys: list[str | None] = [None]
        self._legal: list[Play] | None = None
        self._chasing: Chasing | None = None
        if self._history is not None and self._history.chasing_rule == "axf":
            assert variant is not None
            self._chasing = Chasing(variant, self._type)
        self._chased: list[frozenset[tuple[int, int]] | None] = [frozenset()]

    def __repr__(self) -> str:
        return f"<Game of {self._rules.name}: {len(self._plays)} plies, {self.feen()!r}>"

    def __len__(self) -> int:
        return len(self._plays)

    # --- what the game holds ------------------------------------------------------------------
    @property
    def rules(self) -> RuleSystem:
        """The rule system the game is played under."""
        return self._rules

    @property
    def variant(self) -> Variant | None:
        """The game's description, None for a rule system made from a GGN document alone."""
        return self._variant

    @property
    def start(self) -> Position:
        """The start position."""
        return self._positions[0]

    @property
    def position(self) -> Position:
        """The position after the last play."""
        return self._positions[-1]

    @property
    def plays(self) -> tuple[Play, ...]:
        """The plays made from the start, in order."""
        return tuple(self._plays)

    @property
    def halfmove(self) -> int:
        """The halfmove clock of the current position, as Fairy-Stockfish's FEN writes it: the
        plies since the last capture, drop, promotion or pawn move, or, while a count of the
        counting rules runs, the count's ply."""
        return self._halfmove(len(self._plays))

    @property
    def fullmove(self) -> int:
        """The move number of the current position (it grows after the second player's move)."""
        return self._fullmoves[-1]

    def _halfmove(self, ply: int) -> int:
        limit, counted = self._counting[ply]
        return counted if limit else self._rule50[ply]

    def _ply(self, ply: int | None) -> int:
        if ply is None:
            return len(self._plays)
        expect(ply, int, "ply", "an int or None")
        if not 0 <= ply <= len(self._plays):
            raise GGNError(f"ply {ply} is not one of the game's: 0 (the start) to {len(self._plays)}")
        return ply

    def position_at(self, ply: int) -> Position:
        """The position after ``ply`` plies (0: the start)."""
        return self._positions[self._ply(expect(ply, int, "ply", "an int"))]

    def feen(self, ply: int | None = None) -> str:
        """The FEEN of the position after ``ply`` plies (default: the current one)."""
        return self._positions[self._ply(ply)].to_feen()

    def fen(self, ply: int | None = None) -> str:
        """Fairy-Stockfish's FEN of the position after ``ply`` plies (default: the current one),
        with its move counters (and, while a count of the counting rules runs, its limit)."""
        number = self._ply(ply)
        variant = self._variant
        if variant is None:
            raise GGNError(f"the {self._rules.name} rule system has no FEN: its positions are written in "
                           "FEEN")
        from ggn.variants.fen import from_feen  # noqa: PLC0415

        text = from_feen(variant, self._positions[number], halfmove=self._halfmove(number),
                         fullmove=self._fullmoves[number])
        limit = self._counting[number][0]
        if limit:
            fields = text.split(" ")
            fields[-3 - (self._left[number] is not None)] = str(limit)
            text = " ".join(fields)
        left = self._left[number]
        if left is not None:  # the start's, which the FEN writer wrote, made the game's
            fields = text.split(" ")
            fields[-3] = f"{left[0]}+{left[1]}"
            text = " ".join(fields)
        return text

    @property
    def checks_left(self) -> tuple[int, int] | None:
        """The checks each player has left to give (the first player's, the second's) in a game
        that counts them (Fairy-Stockfish's ``checkCounting``: 3check's ``3+3`` at the start),
        else None. A player who has given its last check wins (:meth:`outcome`).

        >>> game = Game("3check")
        >>> for move in ("e4", "f6", "Qh5+"):
        ...     _ = game.push(move)
        >>> game.checks_left, game.fen()
        ((2, 3), 'rnbqkbnr/ppppp1pp/5p2/7Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 2+3 1 2')
        """
        return self._left[-1]

    def moves(self, notation: str | None = None) -> list[str]:
        """The plays made, each written in ``notation`` (any name of :data:`ggn.notation.NAMES`;
        default: the game's own, :func:`ggn.notation.default`) from the position it was made in.

        >>> game = Game("chess")
        >>> for move in ("e2e4", "e7e5", "g1f3"):
        ...     _ = game.push(move)
        >>> game.moves(), game.moves("uci")
        (['e4', 'e5', 'Nf3'], ['e2e4', 'e7e5', 'g1f3'])
        """
        from ggn.notation import NAMES, default, write  # noqa: PLC0415  (the notations, on first use)

        if notation is None:
            notation = default(self._rules)
        expect(notation, str, "notation", "a notation's name or None")
        if notation not in NAMES:
            raise GGNError(f"no notation {quote(notation)}: the notations are {', '.join(NAMES)}")
        positions = self._positions
        written = self._written.setdefault(notation, [])
        marks = self._left[0] is not None and notation in _CHECK_MARKS
        for ply in range(len(written), len(self._plays)):
            text = write(self._rules, positions[ply], self._plays[ply], notation)
            if marks and text.endswith("+") and self._checked_out(ply + 1):
                # The check that gives a player its last one ends the game: Fairy-Stockfish marks
                # it a mate ('#'), as its empty list of legal moves after it says.
                text = text[:-1] + "#"
            written.append(text)
        return list(written)

    # --- play and undo ------------------------------------------------------------------------
    def legal_moves(self) -> list[Play]:
        """The legal plays of the current position (a new list). As in Fairy-Stockfish, the
        history rules make no move illegal: a repetition that loses (perpetual check, shogi's
        sennichite) is an end the other player may claim (:meth:`claim`)."""
        found = self._legal
        if found is None:
            # A game ended by its checks, its passes or its bikjang has no move, as in
            # Fairy-Stockfish (its legal moves stop at any immediate end); the position's other
            # ends are the rule system's.
            found = self._legal = [] if self._ended() is not None else self._rules.legal_moves(self.position)
        return list(found)

    def push(self, play: Play | str) -> Play:
        """Make a legal play, given as a :class:`~ggn.rules.Play` or as text in any notation
        :func:`ggn.notation.parse` recognises: SAN (``e4``, ``Nf3``), the game's other
        notations, Fairy-Stockfish's UCI (``e2e4``), USI, GGN's own (``C:P e2-e4``). Return the
        play made; raise :class:`~ggn.errors.IllegalMoveError` naming the move and legal ones
        if it is not legal here (or names several)."""
        expect(play, (Play, str), "play", "a Play or a move's text")
        return self._push(self._find(play))

    def _push(self, made: Play) -> Play:
        """Make ``made``, one of :meth:`legal_moves`' own plays (not searched for again: the
        playouts' pure path picks it from that list)."""
        ply = len(self._plays)
        position = self._positions[ply]
        child = position.apply(made.transition)
        rule50, reset = self._rule50[ply] + 1, self._resets(position, made)
        self._positions.append(child)
        self._plays.append(made)
        self._rule50.append(0 if reset else rule50)
        self._fullmoves.append(self._fullmoves[ply] + (position.active == "second"))
        self._counting.append(self._count(position, made, child, self._counting[ply]))
        self._checks.append(None)
        left = self._left[ply]
        if left is not None and self._in_check(ply + 1):
            left = (left[0] - 1, left[1]) if position.active == "first" else (left[0], left[1] - 1)
        self._left.append(left)
        self._keys.append(None)
        self._chased.append(None)
        self._legal = None
        return made

    def pop(self) -> Play:
        """Undo the last play and return it."""
        if not self._plays:
            raise GGNError("there is no play to undo: the game is at its start")
        for kept in (self._positions, self._rule50, self._fullmoves, self._counting, self._checks,
                     self._keys, self._chased, self._left):
            kept.pop()
        self._legal = None
        for written in self._written.values():
            del written[len(self._plays) - 1:]
        return self._plays.pop()

    def _find(self, play: Play | str) -> Play:
        legal = self.legal_moves()
        if isinstance(play, Play):
            for candidate in legal:
                if candidate == play:
                    return candidate
            return self._illegal(str(play), legal)
        text = play
        by_text = [candidate for candidate in legal if str(candidate) == text]
        if len(by_text) == 1:  # GGN's own text, at once
            return by_text[0]
        if by_text:
            raise IllegalMoveError(f"{quote(text)} names {len(by_text)} legal moves at ply "
                                   f"{len(self._plays)}; give the play itself")
        return self._read(text)

    def _read(self, text: str) -> Play:
        from ggn.notation import parse  # noqa: PLC0415  (the notations, on first use)

        try:
            return parse(self._rules, self.position, text)
        except IllegalMoveError as error:
            # The notations' message, with the game's ply and FEN (its counters too).
            message = str(error)
            head, found, moves = message.partition("; legal moves: ")
            where = self.fen() if self._variant is not None else self.feen()
            if found and head.startswith(quote(text)):
                raise IllegalMoveError(f"{quote(text)} is not a legal move at ply {len(self._plays)} of this "
                                       f"{self._rules.name} game ({where}); legal moves: {moves}") from None
            raise IllegalMoveError(f"{message} (at ply {len(self._plays)} of the game, {where})") from None

    def _illegal(self, text: str, legal: list[Play]) -> Play:
        shown = ", ".join(str(play) for play in legal[:_SHOWN])
        more = f", ... ({len(legal)} in all)" if len(legal) > _SHOWN else ""
        where = self.fen() if self._variant is not None else self.feen()
        raise IllegalMoveError(f"{quote(text)} is not a legal move at ply {len(self._plays)} of this "
                               f"{self._rules.name} game ({where}); legal moves: {shown or 'none'}{more}")

    # --- the ends -----------------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        """How the game has ended, if it has: by a rule of the position (checkmate, stalemate,
        extinction, a flag reached...; as pyffish's ``is_immediate_game_end`` and
        ``game_result``), or by a full board where the game adjudicates it; a stalemate that
        draws is decided by material where the game counts it (``materialCounting``). An end a player
        may claim is :meth:`claim`'s, not this."""
        position = self.position
        ended = self._ended()
        if ended is not None:
            return ended
        ended = self._rules.outcome(position)
        if ended is not None and ended.ending in _SUDDEN:
            return ended
        if ended is not None and ended.ending is Ending.CHECKMATE and ended.winner is None:
            ended = self._shatar(ended)
        history = self._history
        if history is not None and history.adjudicate_full_board and self._full(position):
            return self._adjudicated(position, Ending.FULL_BOARD)
        if ended is not None and ended.ending is Ending.STALEMATE and ended.winner is None:
            return self._adjudicated(position, Ending.STALEMATE)  # a draw, unless material decides
        return ended

    def claim(self) -> Outcome | None:
        """The end the player to move may claim, if any (pyffish's ``is_optional_game_end``):
        the n-move rule, an n-fold repetition (won or lost by perpetual check or chasing, or
        as the game values a repetition), the end of a count of the counting rules, or sittuyin's
        stalemate by an optional promotion."""
        history = self._history
        if history is None:
            return None
        ply = len(self._plays)
        rule50 = self._rule50[ply]
        limit = 2 * history.n_move_rule
        if history.n_move_rule and rule50 >= limit and self._may_claim(ply) \
                and rule50 - self._axf_offset(ply) >= limit:
            return self._adjudicated(self.position, Ending.MOVE_RULE)
        if history.n_fold_rule:
            repeated = self._repetition(ply, history)
            if repeated is not None:
                return repeated
        counting_limit, counting_ply = self._counting[ply]
        if history.counting_rule is not None and counting_limit and counting_ply > counting_limit \
                and self._may_claim(ply):
            return Outcome(None, Ending.COUNTING)
        if self._sittuyin_stalemate(ply):
            return Outcome(None, Ending.STALEMATE)
        return None

    def _sittuyin_stalemate(self, ply: int) -> bool:
        """Sittuyin's stalemate by an optional promotion (Fairy-Stockfish's, its rule 3.9 c.7):
        the player to move has its king and one pawn only, is not in check, and has no legal
        move but promotions: it may claim a draw."""
        variant = self._variant
        promotion = variant.promotion if variant is not None else None
        if promotion is None or not promotion.sittuyin:
            return False
        position = self.position
        mine = [piece for piece in position.board.values() if piece.side == position.active]
        pawns = promotion.pawn_types[0 if position.active == "first" else 1]
        if len(mine) != 2 or sum(1 for piece in mine if (kind := self._type(piece)) is not None
                                 and kind.letter in pawns) != 1 or self._in_check(ply):
            return False
        return all(play.choice is not None for play in self.legal_moves())

    def result(self) -> str:
        """The result of the game as PGN writes it: ``"1-0"``, ``"0-1"``, ``"1/2-1/2"`` for a
        game that has ended (:meth:`outcome`), else ``"*"`` (an end that may be claimed is not
        one until claimed)."""
        return _result(self.outcome())

    # --- the rules ----------------------------------------------------------------------------
    def _checked_out(self, ply: int) -> bool:
        """Whether the player who made the last play has given its last check (Fairy-Stockfish
        asks only of that player: a FEN may give the player to move none left)."""
        left = self._left[ply]
        if left is None:
            return False
        return left[0 if self._positions[ply].active == "second" else 1] == 0

    def _shatar(self, ended: Outcome) -> Outcome:
        """Shatar's mate without a shak among its checks (a draw for the position alone) is a
        mate still when a check of the unbroken series of checks the mated player met before it
        was one (Fairy-Stockfish's ``checkmate_value``: back two plies at a time, while in
        check, to the game's start)."""
        variant, rules = self._variant, self._rules
        shak = getattr(rules, "_shak", None)
        if variant is None or not variant.ends.shatar_mate or shak is None:
            return ended
        ply = len(self._plays)
        for back in range(ply - 2, -1, -2):
            if not self._in_check(back):
                break
            if shak(self._positions[back]):
                return Outcome(self.position.inactive, Ending.CHECKMATE)
        return ended

    def _ended(self) -> Outcome | None:
        """The ends of the game's history that Fairy-Stockfish finds (``is_immediate_game_end``):
        the last check given where checks are counted; on the last two plies, two passes one
        after the other, or janggi's bikjang answered by a pass (the royal pieces
        facing each other in the last two positions); decided by material where the game counts
        it, else drawn. The game has no legal move left then."""
        ply = len(self._plays)
        if self._checked_out(ply):
            return Outcome(self.position.inactive, Ending.CHECKS)
        variant = self._variant
        if variant is None or not (variant.bikjang or any(variant.passing)):
            return None
        if ply >= 2 and _is_pass(self._plays[-1]) and _is_pass(self._plays[-2]):
            return self._adjudicated(self.position, Ending.PASSES)
        if ply >= 1 and variant.bikjang and self._facing(ply) and self._facing(ply - 1):
            return self._adjudicated(self.position, Ending.BIKJANG)
        return None

    def _facing(self, ply: int) -> bool:
        """Whether the royal pieces face each other after ``ply`` plies (bikjang)."""
        from ggn.rules.variant import VariantRules  # noqa: PLC0415

        rules = self._rules
        return isinstance(rules, VariantRules) and rules._facing(self._positions[ply]._codes)

    def _in_check(self, ply: int) -> bool:
        found = self._checks[ply]
        if found is None:
            found = self._checks[ply] = self._rules.in_check(self._positions[ply])
        return found

    def _may_claim(self, ply: int) -> bool:
        """A player in check may claim only if it has a move (a mate is no draw)."""
        return not self._in_check(ply) or bool(self.legal_moves())

    def _key(self, ply: int) -> str:
        """The position after ``ply`` plies as Fairy-Stockfish's key compares positions: its FEN
        without counters, each shogi-style promoted piece written as the type it moves as, no
        ``~`` (a promoted pawn of crazyhouse), no hands in a game without drops, the en
        passant squares by file, no gating rights (seirawan's file letters)."""
        found = self._keys[ply]
        if found is None:
            variant = self._variant
            assert variant is not None
            from ggn.variants.fen import from_feen  # noqa: PLC0415

            fields = from_feen(variant, self._positions[ply]).split(" ")[:-2]
            placement = fields[0].replace("~", "")
            promotion = variant.promotion
            if promotion is not None and promotion.promoted:
                promoted = dict(promotion.promoted)

                def plain(match: re.Match[str]) -> str:
                    letter = match[1]
                    becomes = promoted.get(letter.lower(), letter.lower())
                    return becomes.upper() if letter.isupper() else becomes

                placement = _PROMOTED.sub(plain, placement)
            if len(fields) > 3:
                fields[3] = _en_passant_files(fields[3])
            if variant.gating and len(fields) > 2:
                # Fairy-Stockfish's key holds the castling rights, not the gating rights (file letters).
                fields[2] = "".join(letter for letter in fields[2] if letter in "KQkq") or "-"
            if variant.cambodian_moves:
                fields[2] = "-"  # Fairy-Stockfish's key holds no gate: the first-move rights
            left = self._left[ply]
            if left is not None:  # Fairy-Stockfish's key holds the checks left
                fields[-1] = f"{left[0]}+{left[1]}"
            found = self._keys[ply] = " ".join((placement, *fields[1:]))
        return found

    def _repetition(self, ply: int, history: History) -> Outcome | None:
        """Fairy-Stockfish's n-fold rule, with ply 0 as pyffish asks it: the current position
        occurs for the n-th time among those since the last irreversible move (or the start)."""
        variant = self._variant
        assert variant is not None
        drops = variant.drops is not None and variant.drops.captures_to_hand
        end = ply if drops else min(self._rule50[ply], ply)
        if end < 4:
            return None
        perpetual = history.perpetual_check_illegal
        check = self._in_check
        them = perpetual and check(ply) and check(ply - 2)
        us = perpetual and check(ply - 1) and check(ply - 3)
        # The pieces chased at every move of the cycle, followed back through their moves.
        chasing = self._chasing is not None
        chased, move = self._chased_at, self._move
        chase_them = undo_move(chased(ply), move(ply - 1)) & chased(ply - 2) if chasing else frozenset()
        chase_us = undo_move(chased(ply - 1), move(ply - 2)) & chased(ply - 3) if chasing else frozenset()
        repeating = self._moves_back(ply) if history.move_repetition_illegal else 0
        key = self._key(ply)
        count = 0
        for back in range(4, end + 1, 2):
            if repeating:
                # Janggi's rule: the same piece moved back and forth (over four plies of the
                # player) while the other player did the same, with no check: the mover loses.
                if back + 1 <= end and check(ply - back - 1):
                    repeating = 0
                elif repeating < 4:
                    later = move(ply if repeating == 1 else ply - back + 2)
                    repeating = repeating + 1 if _reverses(move(ply - back), later) else 0
                else:
                    earlier, later = move(ply - back), move(ply - back + 2)
                    if earlier is not None and later is not None and not self._captures(ply - back) \
                            and later.source == earlier.destination:
                        return Outcome(self._positions[ply].active, Ending.MOVE_REPETITION)
                    repeating = 0
            if chasing and back != ply:
                chase_them = undo_move(chase_them, move(ply - back + 1)) & chased(ply - back)
            them = them and check(ply - back)
            if self._key(ply - back) == key:
                count += 1
                if count + 1 >= history.n_fold_rule:
                    return self._repeated(ply, history, (them, us), (bool(chase_them), bool(chase_us)))
            if back + 1 <= end:
                us = us and check(ply - back - 1)
                if chasing:
                    chase_us = undo_move(chase_us, move(ply - back)) & chased(ply - back - 1)
        return None

    def _moves_back(self, ply: int) -> int:
        """Where janggi's rule on repeated moves starts its count (Fairy-Stockfish's
        ``moveRepetition``): 2 when the last move took back the player's move before it, in a
        plain move (no promotion, castling, drop...) of a piece that may enter the other
        general's palace, with no check in between; else 0."""
        last, before = self._move(ply), self._move(ply - 2)
        if last is None or before is None or not self._plain(ply) or self._in_check(ply - 1) \
                or self._in_check(ply - 3):
            return 0
        variant = self._variant
        assert variant is not None
        mover = self._positions[ply].inactive
        kind = self._type(last.choice or last.piece)
        king = next((piece for piece in variant.pieces if piece.letter == variant.king), None)
        if not _meets(variant, kind, mover, king):
            return 0
        return 2 if _reverses(before, last) else 1 if _is_pass(before) else 0

    def _plain(self, ply: int) -> bool:
        """Whether the play that led to ``ply`` moves one piece from its square to another,
        and nothing else (Fairy-Stockfish's NORMAL moves: captures too)."""
        play = self._plays[ply - 1]
        if not isinstance(play.source, Cell) or not isinstance(play.destination, Cell) \
                or play.source == play.destination:
            return False
        if play.choice is not None and play.choice != play.piece:
            return False
        return set(play.transition.board) <= {play.source, play.destination}

    def _captures(self, ply: int) -> bool:
        """Whether the play that led to ``ply`` took a piece."""
        return ply > 0 and self._taken(self._positions[ply - 1], self._plays[ply - 1]) is not None

    def _move(self, ply: int) -> Play | None:
        """The play that led to the position after ``ply`` plies (None for the start)."""
        return self._plays[ply - 1] if ply > 0 else None

    def _chased_at(self, ply: int) -> frozenset[tuple[int, int]]:
        """The pieces the play that led to the position after ``ply`` plies chases."""
        found = self._chased[ply]
        if found is None:
            assert self._chasing is not None
            found = self._chased[ply] = self._chasing.chased(self._positions[ply - 1], self._positions[ply],
                                                             self._plays[ply - 1])
        return found

    def _repeated(self, ply: int, history: History, checks: tuple[bool, bool],
                  chases: tuple[bool, bool]) -> Outcome:
        position = self._positions[ply]
        for (them, us), ending in ((checks, Ending.PERPETUAL_CHECK), (chases, Ending.CHASING)):
            if them or us:
                if not us:
                    return Outcome(position.active, ending)
                if not them:
                    return Outcome(position.inactive, ending)
                return self._valued(position, "draw", Ending.REPETITION)
        value = history.n_fold_value
        if history.n_fold_value_absolute and position.active == "second":
            value = _opposite(value)
        return self._valued(position, value, Ending.REPETITION)

    def _valued(self, position: Position, value: Value, ending: Ending) -> Outcome:
        """The outcome of a result for the player to move; a draw decided by material where
        the game counts it."""
        if value == "draw":
            history = self._history
            if history is not None and history.material_counting is not None:
                return self._adjudicated(position, ending)
            return Outcome(None, ending)
        return Outcome(position.active if value == "win" else position.inactive, ending)

    def _adjudicated(self, position: Position, ending: Ending) -> Outcome:
        """A draw, or the winner by material where the game counts it (Fairy-Stockfish's
        ``material_counting_result``)."""
        history = self._history
        counting = None if history is None else history.material_counting
        if counting is None:
            return Outcome(None, ending)
        if counting == "whitedrawodds":
            return Outcome("first", ending)
        if counting == "blackdrawodds":
            return Outcome("second", ending)
        first, second = self._material(position, counting)
        if counting == "janggi":
            return Outcome("first" if first - second - 1 > 0 else "second", ending)
        return Outcome(None if first == second else "first" if first > second else "second", ending)

    def _material(self, position: Position, counting: str) -> tuple[int, int]:
        weights = {"rook": 13, "janggiCannon": 7, "horse": 5, "janggiElephant": 3, "wazir": 3, "soldier": 2}
        totals = {"first": 0, "second": 0}
        for piece in position.board.values():
            kind = self._type(piece)
            if counting == "janggi":
                totals[piece.side] += weights.get("" if kind is None else kind.name or "", 0)
            else:
                totals[piece.side] += 1
        return totals["first"], totals["second"]

    def _full(self, position: Position) -> bool:
        variant = self._variant
        assert variant is not None
        return len(position.board) >= variant.files * variant.ranks - len(variant.holes)

    def _axf_offset(self, ply: int) -> int:
        """Xiangqi's n-move rule under the AXF rules leaves out checks beyond ten of a side
        (Fairy-Stockfish counts the positions in check of each side since the last capture)."""
        history = self._history
        if history is None or history.chasing_rule != "axf" or ply < 20:
            return 0
        end = min(self._rule50[ply], ply)
        them, us = int(self._in_check(ply)), int(self._in_check(ply - 1))
        for back in range(2, end, 2):
            them += self._in_check(ply - back)
            us += self._in_check(ply - back - 1)
        return 2 * max(max(them, us) - 10, 0)

    def _type(self, piece: Qpi) -> PieceType | None:
        """The piece type a piece is of, a shogi-style promoted one its promoted type's."""
        variant = self._variant
        return None if variant is None else piece_type(variant, piece)

    def _resets(self, position: Position, play: Play) -> bool:
        """Whether ``play`` starts the halfmove clock again (Fairy-Stockfish's rule50)."""
        return resets(self._variant, position, play)

    def _count(self, position: Position, play: Play, child: Position,
               counting: tuple[int, int]) -> tuple[int, int]:
        """The counting rules' (limit, ply) after ``play``, as Fairy-Stockfish's do_move sets
        them (both in plies)."""
        history = self._history
        if history is None or history.counting_rule is None:
            return counting
        limit, counted = counting
        if limit:
            counted += 1
        rule = history.counting_rule
        mover, other = position.active, position.inactive
        taken = self._taken(position, play)
        pawns = self._count_type(child, "pawn")
        if rule != "asean" and taken is not None and taken == "pawn" and self._pieces(child, mover) == 1 \
                and not pawns:
            mover_limit = self._count_limit(child, mover, rule)
            if mover_limit:
                limit, counted = 2 * mover_limit, 2 * (len(child.board)) - 1
        promoted = play.choice is not None and play.choice.pin.name != play.piece.pin.name
        if (not limit or ((taken is not None or promoted) and self._pieces(child, other) == 1)):
            other_limit = self._count_limit(child, other, rule)
            if other_limit:
                limit = 2 * other_limit
                counted = 0 if rule == "asean" or self._pieces(child, other) > 1 else 2 * len(child.board)
        return limit, counted

    def _taken(self, position: Position, play: Play) -> str | None:
        """The name of the type of the piece ``play`` takes ("" for one of no known type), or None."""
        mover = position.active
        for cell, piece in play.transition.board.items():
            before = position.piece_at(cell)
            if before is not None and before.side != mover and (piece is None or piece.side == mover):
                kind = self._type(before)
                return "" if kind is None else kind.name or ""
        return None

    def _pieces(self, position: Position, side: Side) -> int:
        return sum(1 for piece in position.board.values() if piece.side == side)

    def _count_type(self, position: Position, name: str, side: Side | None = None) -> int:
        total = 0
        for piece in position.board.values():
            if side is None or piece.side == side:
                kind = self._type(piece)
                total += kind is not None and kind.name == name
        return total

    def _count_limit(self, position: Position, side: Side, rule: str) -> int:
        """Fairy-Stockfish's count_limit: the moves the side ``side`` counts to (0: none)."""
        other: Side = "second" if side == "first" else "first"
        own, theirs = self._pieces(position, side), self._pieces(position, other)
        pawns = self._count_type(position, "pawn")
        rooks, khons = self._count_type(position, "rook", other), self._count_type(position, "silver", other)
        knights = self._count_type(position, "knight", other)
        if rule == "makruk":
            if pawns or theirs == 1:
                return 0
            if own > 1:
                return 64
            return 8 if rooks > 1 else 16 if rooks == 1 else 22 if khons > 1 else 32 if knights > 1 \
                else 44 if khons == 1 else 64
        if rule == "cambodian":
            if own > 3 or theirs == 1:
                return 0
            if own > 1:
                return 63
            if pawns:
                return 0
            return 7 if rooks > 1 else 15 if rooks == 1 else 21 if khons > 1 else 31 if knights > 1 \
                else 43 if khons == 1 else 63
        if pawns or own > 1:
            return 0
        return 16 if rooks else 44 if khons else 64 if knights else 0


def _variant_of(rules: RuleSystem) -> Variant | None:
    from ggn.rules.variant import VariantRules  # noqa: PLC0415

    return rules.variant if isinstance(rules, VariantRules) else None


def _read_fen(rules: RuleSystem, variant: Variant, fen: str) -> tuple[Position, int, int, int, Counts]:
    """The position and counters of a FEN: (position, halfmove, fullmove, counting limit,
    checks left where the game counts them, else the start's)."""
    from ggn.variants.fen import to_feen  # noqa: PLC0415
    from ggn.variants.registry import Entry  # noqa: PLC0415

    limit = 0
    left = (0, 0)
    if variant.history.check_counting:
        # The checks left are the game's: read here, and the FEN read further as its position,
        # with the start's (which a FEEN stands for).
        left, bare = read_checks(fen)
        fen = written_checks(bare, start_checks(variant))
    fields = fen.split(" ")
    if variant.history.counting_rule is not None and len(fields) >= 6 and fields[3].isascii() \
            and fields[3].isdigit():
        # A count under way: its limit stands where the en passant square would.
        if len(fields[3]) > 10 or int(fields[3]) > _COUNTER_MAX:
            raise GGNError(f"a count's limit is at most {_COUNTER_MAX:,}, the most Fairy-Stockfish reads, "
                           f"not {clip(fields[3])}")
        limit = int(fields[3])
        fields[3] = "-"
        fen = " ".join(fields)
    position = rules.position(to_feen(variant, fen))
    halfmove, fullmove = Entry(variant.name, "fen", variant).counters(fen)
    return position, halfmove, max(fullmove, 1), limit, left


def _en_passant_files(field: str) -> str:
    """The en passant squares of a FEN as Fairy-Stockfish's key holds them: by file, each
    square's file flipping it (two squares on one file, a pawn's triple step or a custom
    piece's double step, cancel out)."""
    files: set[str] = set()
    for square in _SQUARE.findall(field):
        files ^= {square[0]}
    return "".join(sorted(files)) or "-"


def _reverses(earlier: Play | None, later: Play | None) -> bool:
    """Whether ``earlier`` is ``later`` taken back (from its destination to its source; a pass
    takes nothing back)."""
    return earlier is not None and later is not None and isinstance(later.source, Cell) \
        and later.source != later.destination \
        and (earlier.source, earlier.destination) == (later.destination, later.source)


def _is_pass(play: Play) -> bool:
    """Whether a play is a pass: its piece moves onto its own square, and no piece of the
    mover's arrives anywhere (a castling where the king stays moves its rook)."""
    return isinstance(play.source, Cell) and play.source == play.destination and not any(
        piece is not None and piece.side == play.piece.side for piece in play.transition.board.values())


def _meets(variant: Variant, kind: PieceType | None, mover: Side, king: PieceType | None) -> bool:
    """Whether a piece of ``kind`` of ``mover`` may stand somewhere the other player's king
    may (Fairy-Stockfish's board_bb of both, intersected)."""
    def region(piece: PieceType | None, side: Side) -> set[tuple[int, int]]:
        squares = {(file, rank) for file in range(variant.files) for rank in range(variant.ranks)}
        region = None if piece is None else piece.region(0 if side == "first" else 1)
        if region is None:
            return squares
        if side == "first":
            return set(region) & squares
        return {(variant.files - 1 - file, variant.ranks - 1 - rank) for file, rank in region} & squares

    other: Side = "second" if mover == "first" else "first"
    return bool(region(kind, mover) & region(king, other))


def _opposite(value: Value) -> Value:
    return "loss" if value == "win" else "win" if value == "loss" else "draw"


def _result(outcome: Outcome | None) -> str:
    if outcome is None:
        return "*"
    return "1/2-1/2" if outcome.winner is None else "1-0" if outcome.winner == "first" else "0-1"
