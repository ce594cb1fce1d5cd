"""A variant of the chess family, described as data: the board, the pieces and the rules.

A :class:`Variant` says everything the generic rule system (:mod:`ggn.rules.variant`) and the
GGN document maker (:mod:`ggn.variants.document`) need to play a game: the board's size and
holes, each piece type and how it moves (:class:`~ggn.variants.pieces.Movement`, written in
the mover's own frame), the royal piece, promotion, castling, pawn double steps and en passant,
drops, and the ends of the game. Its options follow Fairy-Stockfish's ``variants.ini``
(:mod:`ggn.variants.ini` reads that syntax into this record), with the same defaults where the
names match.

Conventions:

- Piece types are named by their Fairy-Stockfish letter, lowercase (``"p"``, ``"k"``); the
  first player's pieces are written in uppercase in FEN, and in GGN the letter is the PIN's
  letter (``P``, ``K^``). A shogi-style promoted form is written ``+`` and the letter of the
  piece it was (``+P``); it moves as the piece type :attr:`Promotion.promoted` names.
- A square is ``(file, rank)``, zero-based. A :data:`Region` is a set of squares in the board's
  own frame (the first player's: ``(0, 0)`` is ``a1``), one per side where the rules differ by
  side: ``(first's, second's)``. Movements, and the squares a piece may stand on, are written
  in the mover's frame (ranks count forward), as in :mod:`ggn.variants.pieces`.
- A :data:`Value` is a result for the player to move, as in Fairy-Stockfish: ``"loss"`` when
  the player to move is checkmated is the usual rule.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from ggn._types import check_fields, expect
from ggn.errors import GGNError
from ggn.variants.pieces import Movement, Square

__all__ = [
    "Castling", "DoubleStep", "Drops", "Ends", "History", "PieceType", "Promotion", "Region", "Value",
    "Variant", "Walls", "from_data", "to_data",
]

Region = frozenset[Square]
"""Squares ``(file, rank)``, zero-based, in the board's own frame (``(0, 0)`` is ``a1``)."""

Value = Literal["win", "loss", "draw"]
"""A result for the player to move (Fairy-Stockfish's ``[Value]``)."""


@dataclass(frozen=True, slots=True)
class PieceType:
    """A piece type: its letter (lowercase), its movements in the mover's frame, the Betza text
    they were read from (for display; ``None`` when given as movements), and the squares it may
    stand on, in the mover's frame (``None``: anywhere; Fairy-Stockfish's mobility regions)."""

    def __post_init__(self) -> None:
        check_fields(self)

    letter: str
    movements: tuple[Movement, ...]
    betza: str | None = None
    stands: Region | None = None
    name: str | None = None
    """Fairy-Stockfish's name of the type (``"knight"``, ``"customPiece1"``, ``"king"``), which
    orders its FEN's hands; ``None``: a type it would number as a custom piece."""
    pin: str | None = None
    """The PIN letter in GGN and FEEN (uppercase); ``None``: the letter, uppercased. Lets a game
    keep its own GGN letters where Fairy-Stockfish's FEN uses others (xiangqi's general is
    ``G`` in GGN, ``k`` in FEN)."""
    synonym: str | None = None
    """Another FEN letter read as this type, never written (Fairy-Stockfish's
    ``pieceToCharSynonyms``: xiangqi's horse is ``n``, also read as ``h``)."""
    stands_each: tuple[Region | None, Region | None] | None = None
    """Each side's squares, each in its own (mover's) frame, where the two sides' differ: one
    side's mobility region given alone in Fairy-Stockfish (the other's pieces of the type stand
    anywhere), or two regions that are not the same seen from each side. ``None``: ``stands``,
    for both sides."""

    def region(self, side: int) -> Region | None:
        """Where a piece of ``side`` (0: the first player) may stand, in its mover's frame
        (``None``: anywhere)."""
        if type(side) is not int or side not in (0, 1):
            expect(side, int, "side", "0 (the first player) or 1 (the second)")
            raise GGNError(f"a side is 0 (the first player) or 1 (the second), not {side}")
        return self.stands if self.stands_each is None else self.stands_each[side]


@dataclass(frozen=True, slots=True)
class Promotion:
    """Promotion rules.

    Pawn promotion: a piece of ``pawn_types`` (per side) that ends a move in its side's region
    becomes one of ``choices`` (per side, letters); ``mandatory_pawn`` (else it may stay, where
    it can still move). ``limits``: at most that many pieces of a type on the board after a
    promotion (letter, count), as in Fairy-Stockfish's ``promotionLimit``.

    Piece promotion, shogi-style: a piece of a letter in ``promoted`` that moves into, within or
    out of its side's region may become its promoted form ``+LETTER``, which moves as the piece
    type named; ``mandatory_piece``, ``on_capture`` (only when capturing) and ``demotion`` (a
    promoted piece may demote the same way) as in Fairy-Stockfish."""

    def __post_init__(self) -> None:
        check_fields(self)

    regions: tuple[Region, Region]
    pawn_types: tuple[frozenset[str], frozenset[str]] = (frozenset("p"), frozenset("p"))
    choices: tuple[tuple[str, ...], tuple[str, ...]] = (("q", "r", "b", "n"), ("q", "r", "b", "n"))
    mandatory_pawn: bool = True
    limits: tuple[tuple[str, int], ...] = ()
    promoted: tuple[tuple[str, str], ...] = ()
    mandatory_piece: bool = False
    on_capture: bool = False
    demotion: bool = False
    sittuyin: bool = False
    """Sittuyin's promotion (Fairy-Stockfish's ``sittuyinPromotion``): a pawn entering its
    region does not promote; instead a pawn standing in it (any pawn, where it is its side's
    last) may turn into a choice, where it stands or by one step of the choice onto an empty
    square, when the new piece attacks no piece of the other side and gives no check."""


@dataclass(frozen=True, slots=True)
class Castling:
    """Castling: the king piece moves from ``king_file`` on the side's ``rank`` (zero-based,
    relative: 0 is the side's first rank) to ``kingside_file`` or ``queenside_file``, and the
    rook (a piece of ``rooks``) from ``rook_files`` (kingside, queenside; ``None``: the last
    file) to the square beside it, on the inner side. Every square both cross must be empty
    (bar the two pieces), and the king may not be in check nor cross or reach an attacked
    square. A right is written ``+`` on the king and on its rook."""

    def __post_init__(self) -> None:
        check_fields(self)

    king: str = "k"
    rooks: frozenset[str] = frozenset("r")
    rank: int = 0
    king_file: int = 4
    kingside_file: int = 6
    queenside_file: int = 2
    rook_files: tuple[int | None, int] = (None, 0)
    opposite: bool = False
    """A castling takes the other side's right to castle on the same wing, kingside or
    queenside (Fairy-Stockfish's ``oppositeCastling``)."""


@dataclass(frozen=True, slots=True)
class DoubleStep:
    """Pawn double steps: a piece of ``types`` standing in its side's region may move two
    squares straight forward over an empty square; it is then written ``-`` until the next move,
    and a piece of ``en_passant`` may take it by moving, as it captures, onto the square it
    passed over."""

    def __post_init__(self) -> None:
        check_fields(self)

    regions: tuple[Region, Region]
    types: frozenset[str] = frozenset("p")
    en_passant: frozenset[str] = frozenset("p")
    passant_regions: tuple[Region, Region] | None = None
    """The squares passed over that each side (first's, second's) may take en passant on,
    in the board's frame (``None``: any; Fairy-Stockfish's ``enPassantRegion``, horde's)."""
    initial_movers: frozenset[str] = frozenset()
    """Types that double-step by their own initial moves (Betza's ``i``: movements whose
    ``sources`` are the side's region) rather than by this rule: after such a move the piece is
    written ``-`` too, and a piece of ``en_passant`` may take it on a square it passed over
    (Fairy-Stockfish: berolina's diagonal double step, from a custom piece's Betza)."""


@dataclass(frozen=True, slots=True)
class Drops:
    """Drops of pieces in hand (Fairy-Stockfish's ``pieceDrops`` and what goes with it)."""

    def __post_init__(self) -> None:
        check_fields(self)

    captures_to_hand: bool = False
    """A captured piece goes to the capturer's hand, on its side, demoted (unless ``loop``);
    else it leaves the game."""
    loop: bool = False
    regions: tuple[Region | None, Region | None] = (None, None)
    """Where each side may drop (``None``: anywhere the piece could move again)."""
    no_doubled: str | None = None
    """A piece type that may not be dropped on a file holding ``no_doubled_count`` of the
    dropper's own pieces of that type (shogi's two pawns; a count of 0: never dropped, as in
    Fairy-Stockfish)."""
    no_doubled_count: int = 1
    first_rank_pawn_drops: bool = False
    promotion_zone_pawn_drops: bool = False
    pawn_drop_mate_illegal: bool = False
    checks: bool = True
    """Whether a drop may give check."""
    must_drop: bool = False
    """Drops are forced (Fairy-Stockfish's ``mustDrop``: placement's and sittuyin's setup
    phases, koedem's kings): while the player to move holds a piece of ``must_drop_type``
    (``"*"``: any piece), it may drop only such pieces, and while one such drop is legal it
    has no other legal move. Whose turn it is within the phase is the position's side to
    move, and what is left to place its hands: no state beyond the position."""
    must_drop_type: str = "*"
    opposite_bishops: str | None = None
    """The letter of a type whose pieces a player must drop on squares of both colours
    (Fairy-Stockfish's ``dropOppositeColoredBishop``, with its bishop): no drop may leave
    the player unable to put half of them, on board and in hand, on each colour."""
    castling_dropped: bool = False
    """A castling king or rook dropped on its castling square gets the castling right with
    the rook or king already there (Fairy-Stockfish's ``castlingDroppedPiece``: the king on
    its castling file, a rook on the first or last file of the castling rank)."""
    first_rank_only: str | None = None
    """The letter of a type that may be dropped only on its player's first rank
    (Fairy-Stockfish's ``sittuyinRookDrop``, with its rook)."""
    two_boards: bool = False
    """The game is one board of two played side by side (Fairy-Stockfish's ``twoBoards``:
    bughouse): the hands are what the position says, filled from the partner's board, which
    this game does not hold; a piece promoted from a pawn is marked (``~`` in FEN) as where
    captures go to hand, for the partner; a captured piece leaves this game (it goes to the
    partner) unless ``captures_to_hand``."""
    promoted: bool = False
    """A piece in hand that has a shogi-style promoted form may be dropped in that form too
    (Fairy-Stockfish's ``dropPromoted``: kyoto shogi's ``+P@c3``), where its unpromoted
    form may be dropped."""
    piece_drops: bool = True
    """Whether pieces in hand may be dropped (Fairy-Stockfish's ``pieceDrops``). False: the
    hands hold pieces only for gating (``Variant.gating``: seirawan's hawk and elephant), and
    captured pieces leave the game."""


@dataclass(frozen=True, slots=True)
class Ends:
    """The ends of the game."""

    def __post_init__(self) -> None:
        check_fields(self)

    checkmate: Value = "loss"
    stalemate: Value = "draw"
    stalemate_piece_count: bool = False
    """A player with no legal move and not in check wins (``stalemate``'s result) when it has
    fewer pieces on the board than the other player, loses with more, and draws with as many
    (Fairy-Stockfish's ``stalematePieceCount``: suicide chess)."""
    extinction: Value | None = None
    """The result for the player to move when it has lost every piece of ``extinction_types``
    (``"*"``: every type but the king) down to ``extinction_count``."""
    extinction_types: frozenset[str] = frozenset()
    extinction_count: int = 0
    extinction_pseudo_royal: bool = False
    shatar_mate: bool = False
    """Shatar's mates (Fairy-Stockfish's ``shatarMateRule``): a mate given by knights alone
    is a win for the mated player; a mate in which no checking piece is a knight, a rook or a
    bers (a *shak*) is a draw, unless one of the checks in an unbroken series of checks before
    it was (a series only a game's history holds: a position alone has none)."""
    duple_check: bool = False
    """With pseudo-royal pieces, a side whose pieces of the extinction types are all attacked
    is in check too, however many it has (Fairy-Stockfish's ``dupleCheck``: spartan's two
    kings), so no move may leave them all attacked."""
    extinction_opponent_count: int = 0
    """Extinction ends the game only while the other player keeps at least this many pieces of
    the type (Fairy-Stockfish's ``extinctionOpponentPieceCount``)."""
    extinction_claim: bool = False
    """For the player to move, the other player must keep one piece more than
    ``extinction_opponent_count`` (Fairy-Stockfish's ``extinctionClaim``: in shatranj a bared
    king loses unless it bares the other king back at once)."""
    flag_pieces: frozenset[str] = frozenset()
    """A piece of these types reaching its side's flag region wins (king of the hill)."""
    flag_regions: tuple[Region, Region] = (frozenset(), frozenset())
    flag_move: bool = False
    """The second player may still reach its flag region on the next move to draw."""
    flag_count: int = 1
    """How many flag pieces a side must have in its flag region (Fairy-Stockfish's
    ``flagPieceCount``)."""
    flag_blocked_win: bool = False
    """Fewer flag pieces also do, once the side's flag region has no empty square
    (``flagPieceBlockedWin``)."""
    flag_safe: bool = False
    """A piece in its flag region counts only where the other player cannot take it
    (Fairy-Stockfish's ``flagPieceSafe``, dobutsu's lion): one that arrives attacked wins
    when the other player has not taken it at its move, and a flag piece safe in each
    player's region is a draw."""
    connect_n: int = 0
    """A player who ends a move with this many pieces of ``connect_types`` in a row, along one of
    ``connect_lines``, has connected (Fairy-Stockfish's ``connectN``; 0: no such rule)."""
    connect_types: frozenset[str] = frozenset("*")
    """The types that count for a connection (``"*"``: every type)."""
    connect_lines: frozenset[Literal["horizontal", "vertical", "diagonal"]] = frozenset(
        ("horizontal", "vertical", "diagonal"))
    """The lines a connection may run along (Fairy-Stockfish's ``connectHorizontal``,
    ``connectVertical`` and ``connectDiagonal``)."""
    connect_regions: tuple[tuple[Region, Region], tuple[Region, Region]] = (
        (frozenset(), frozenset()), (frozenset(), frozenset()))
    """Per side, two regions that a chain of its pieces joins to connect (Fairy-Stockfish's
    ``connectRegion1White`` ... ``connectRegion2Black``), in the board's frame. As in
    Fairy-Stockfish, the chain is followed from the first region by steps east, north,
    north-east and south-east only (of the lines allowed)."""
    connect_square: int = 0
    """A player with a square block of this many pieces a side has connected
    (``connectNxN``; 0: no such rule)."""
    collinear_n: int = 0
    """A player with this many pieces on one line, gaps allowed, has connected (``collinearN``)."""
    connect_value: Value = "win"
    """The result of a connection for the player who made it (``connectValue``)."""


@dataclass(frozen=True, slots=True)
class History:
    """The rules on a game's history (Fairy-Stockfish's options of the same names, with its
    defaults): what a position alone does not hold, and :class:`ggn.game.Game` applies.

    - the n-move rule: after ``n_move_rule`` moves of each player (``2 * n_move_rule``
      plies; 0: no such rule) without a capture, a drop, a promotion or an irreversible move
      of a piece of ``n_move_types`` (per side, letters), the player to move may claim the
      end (a draw, or by ``material_counting``);
    - repetition: when a position occurs for the ``n_fold_rule``-th time, the player to move
      may claim the end, ``n_fold_value`` for the player to move (for the first player with
      ``n_fold_value_absolute``; for the second it is the opposite); with
      ``perpetual_check_illegal``, a player who checked at every move of the repetition loses,
      and with ``chasing_rule`` ``"axf"``, one who chased (xiangqi's rules of the Asian
      Xiangqi Federation); ``move_repetition_illegal``: janggi's rule on moving a piece back
      and forth;
    - counting (``counting_rule``: ``"makruk"``, ``"cambodian"``, ``"asean"``): a count of
      moves, started when one side has no pawn left or only its king, after which the game is
      drawn;
    - ``material_counting`` (``"janggi"``, ``"unweighted"``, ``"whitedrawodds"``,
      ``"blackdrawodds"``): who wins an adjudicated end (the n-move rule, a repetition that
      draws, ``adjudicate_full_board``: a board with no empty square ends the game);
    - ``check_counting``: the checks given (three-check).
    """

    def __post_init__(self) -> None:
        check_fields(self)
        for name in ("n_move_rule", "n_fold_rule"):
            if getattr(self, name) < 0:
                raise GGNError(f"History.{name} is 0 (no such rule) or more, not {getattr(self, name)}")

    n_move_rule: int = 50
    n_move_types: tuple[frozenset[str], frozenset[str]] = (frozenset("p"), frozenset("p"))
    n_fold_rule: int = 3
    n_fold_value: Value = "draw"
    n_fold_value_absolute: bool = False
    perpetual_check_illegal: bool = False
    move_repetition_illegal: bool = False
    chasing_rule: Literal["axf"] | None = None
    counting_rule: Literal["makruk", "cambodian", "asean"] | None = None
    material_counting: Literal["janggi", "unweighted", "whitedrawodds", "blackdrawodds"] | None = None
    adjudicate_full_board: bool = False
    check_counting: bool = False
    """Fairy-Stockfish's ``checkCounting``: a player who has given its number of checks wins
    at once. The checks each player has left start as the start FEN's (``3+3``; none written:
    ``1+1``), and follow from the plays: :class:`ggn.game.Game` counts them
    (:mod:`ggn.variants._checks`)."""


WallingRule = Literal["arrow", "duck", "edge", "past", "static"]
"""Where a move's wall may go (Fairy-Stockfish's ``wallingRule``)."""


@dataclass(frozen=True, slots=True)
class Walls:
    """Walls: squares that become holes of the board during play (Fairy-Stockfish's walling
    options; a wall is ``*`` in its FEN, as a hole is).

    With ``rule``, every move also puts a wall on one empty square of the board after it
    (one play for each square), in the mover's ``regions`` (board frame; ``None``: anywhere):

    - ``"arrow"``: a square the moved piece could move to next, from its destination, with
      its source empty (the game of the amazons);
    - ``"duck"``: any, and the walls already on the board go (duck chess: the duck moves);
    - ``"edge"``: one on the board's edge, or beside (orthogonally) a wall or a hole;
    - ``"past"``: the square the piece left (joust, snailtrail);
    - ``"static"``: any (isolation).

    ``petrify``: piece types (letters) that turn into a wall where they capture (Fairy-
    Stockfish's ``petrifyOnCaptureTypes``), a pawn type only if it is one after a promotion
    too; a pseudo-royal piece may not, and no piece of these types that is also an extinction
    type gives check (petrified). Either or both may be given."""

    def __post_init__(self) -> None:
        check_fields(self)

    rule: WallingRule | None = None
    regions: tuple[Region | None, Region | None] = (None, None)
    petrify: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Variant:
    """A game of the chess family, as data. ``start`` is the start position in
    Fairy-Stockfish's FEN of the variant; ``style`` the SIN letter of the first player (the
    second's is its lowercase; ``None``: the first ASCII letter of the name, uppercased, else
    ``V``, as :func:`ggn.variants.document.style` says)."""

    def __post_init__(self) -> None:
        check_fields(self)

    name: str
    files: int
    ranks: int
    pieces: tuple[PieceType, ...]
    start: str
    style: str | None = None
    king: str | None = "k"
    """The royal piece type (``^``), or None."""
    promotion: Promotion | None = None
    castling: Castling | None = None
    double_step: DoubleStep | None = None
    drops: Drops | None = None
    ends: Ends = field(default_factory=Ends)
    holes: Region = frozenset()
    """Squares that are not part of the board (``*`` in Fairy-Stockfish's FEN)."""
    flying_general: bool = False
    """The two royal pieces may not face each other on an open file (xiangqi)."""
    checking: bool = True
    """Whether a move may give check (racing kings: no)."""
    immobility_illegal: bool = False
    """A move (or drop) may not leave a piece where it could never move again."""
    must_capture: bool = False
    """Captures are forced: while a player has a legal capture, its other moves (drops
    included) are illegal (Fairy-Stockfish's ``mustCapture``). A capture is a move onto a
    square the other player holds, or en passant; castling is none. Which moves are legal
    otherwise (out of check, ...) decides first: a capture that would leave the royal piece
    attacked forces nothing."""
    blast_on_capture: bool = False
    """Captures explode (Fairy-Stockfish's ``blastOnCapture``, atomic chess): after a capture,
    the capturing piece and every piece on the eight squares around its destination that is
    not of Fairy-Stockfish's pawn type leave the board with the piece taken (pieces of
    ``blast_immune_types`` stay). With pseudo-royal pieces (``Ends.extinction_pseudo_royal``),
    a move may not explode one of the mover's own, may leave one attacked if it explodes one
    of the other side's, and a pseudo-royal piece beside one of the other side's is not in
    check; the extinction of a type still ends the game."""
    blast_immune_types: frozenset[str] = frozenset()
    """Types no explosion removes, not even the capturing piece (Fairy-Stockfish's
    ``blastImmuneTypes``, letters; atomar's kings)."""
    mutually_immune_types: frozenset[str] = frozenset()
    """Types whose pieces may not take a piece of the same type (Fairy-Stockfish's
    ``mutuallyImmuneTypes``, letters; atomar's kings)."""
    chess960: bool = False
    gating: bool = False
    """Seirawan's gating (Fairy-Stockfish's ``seirawanGating``, with ``gating``): a piece of the
    side's castling rank that holds a gating right (FEEN ``+``: a castling right is one too) may,
    as it leaves its square, have a piece of the mover's hand enter there (onto the drop region
    of that piece); a castling may gate onto the king's square or its rook's. Without captures
    to hand, a side whose hand is empty loses every gating right (its castling rights stay)."""
    makpong: bool = False
    """Fairy-Stockfish's ``makpongRule``: a king (its ``king`` type) in check may not move,
    but to take the one piece that gives the check."""
    cambodian_moves: bool = False
    """Fairy-Stockfish's ``cambodianMoves`` (with ``gating``): the king (its ``king`` type, the
    royal one) and the met (``fers``) standing on their first rank with a right (a gate in its
    FEN's castling field, ``DEde``; ``+`` on the piece in FEEN) have a first move of their own:
    the king leaps as a knight to a square two files aside and one rank forward, onto an empty
    square and not out of check; the met goes two squares straight forward onto an empty
    square. Any move of the piece ends its right, and the king's ends too when a rook of the
    other side moves onto a square of the king's rank or file (whatever stands between)."""
    diagonal_lines: Region = frozenset()
    """Fairy-Stockfish's ``diagonalLines``, in the board's frame: squares joined by diagonal
    lines (janggi's palaces). A piece of a type that moves along them (Fairy-Stockfish's
    ``wazir``, ``soldier``, ``rook`` and ``janggiCannon``, and the royal piece where
    :attr:`king_type` is ``"wazir"``), standing on one of them, also moves diagonally onto
    another: a step, a soldier's step forward, a rook's ride, a cannon's hop."""
    king_type: Literal["wazir"] | None = None
    """Fairy-Stockfish's ``kingType`` where a game makes the royal piece move as one of its
    predefined types (its built-in janggi: ``"wazir"``), which changes only the moves along
    :attr:`diagonal_lines`; None: the royal piece moves as its own movements say."""
    passing: tuple[bool, bool] = (False, False)
    """Whether each player (first's, second's) may pass: its royal piece's move onto its own
    square, which changes nothing, illegal in check (Fairy-Stockfish's ``pass``)."""
    bikjang: bool = False
    """Janggi's bikjang (Fairy-Stockfish's ``bikjangRule``): while the two royal pieces face
    each other on an open file or rank, the player to move must end that or pass (a pass is
    then legal even in check); :class:`ggn.game.Game` ends the game when the other player
    passes (by :attr:`History.material_counting`, else a draw)."""
    history: History = field(default_factory=History)
    """The rules on the game's history (:class:`ggn.game.Game` applies them)."""
    walls: Walls | None = None
    """Walls placed by moves, and pieces turned into walls (:class:`Walls`); None: none."""
    template: str | None = None
    """Fairy-Stockfish's ``variantTemplate`` (``"shogi"``, ``"xiangqi"``, ...): XBoard's display
    template, which also picks Fairy-Stockfish's default move notation (a game of the shogi
    template writes its moves in shogi notation; see :func:`ggn.notation.default`)."""
    description: str = ""
    unapplied: tuple[tuple[str, str], ...] = ()
    """Options of the description's source that this library does not apply, each with why it
    cannot change the legal moves from a position: ``(option, why)``. Fairy-Stockfish's piece
    values and XBoard options (``pieceToCharTable``, ``pocketSize``).
    Recorded, never dropped."""

    @property
    def walling(self) -> WallingRule | None:
        """How each move places a wall (``walls.rule``); None where no move places one (no
        walls, or only pieces turned into walls: petrified)."""
        return None if self.walls is None else self.walls.rule


# --- as plain data ---------------------------------------------------------------------------------
_TUPLE: Final = "t"
_SET: Final = "s"
_ATOMS: Final = (type(None), bool, int, str)


_RECORDS: Final = {kind.__name__: (kind, frozenset(found.name for found in dataclasses.fields(kind)))
                   for kind in (Variant, PieceType, Movement, Promotion, Castling, DoubleStep, Drops, Ends,
                             History, Walls)}
"""The records of a variant's data by name, each with its fields' names."""


def to_data(variant: Variant) -> Any:
    """``variant`` as plain data: tuples of strings, numbers, booleans and None only, which
    :mod:`marshal` writes and :func:`from_data` reads back into an equal variant (what the
    compile cache keeps of a built-in game: data, never code or a pickle). A record is
    ``(name, (field, value)...)``, a tuple ``("t", items)``, a set ``("s", items)`` (sorted)."""
    if not isinstance(variant, Variant):
        raise TypeError(f"variant must be a Variant, got {type(variant).__name__}")
    return _encode(variant)


def _encode(value: Any) -> Any:
    if type(value) in _ATOMS:
        return value
    if type(value) is tuple:
        return (_TUPLE, tuple(_encode(item) for item in value))
    if type(value) is frozenset:
        return (_SET, tuple(sorted((_encode(item) for item in value), key=repr)))
    if type(value).__name__ in _RECORDS and type(value) is _RECORDS[type(value).__name__][0]:
        return (type(value).__name__, *((found.name, _encode(getattr(value, found.name)))
                                         for found in dataclasses.fields(value)))
    raise TypeError(f"no plain form for {type(value).__name__}")


def from_data(data: Any) -> Variant:
    """The variant :func:`to_data` wrote. Raise ``ValueError`` for anything else: a value of
    a type other than those, a record of an unknown name, or a field a record does not have.
    Nothing in ``data`` is called or run: records are made by their own constructors from
    values checked to be plain."""
    made = _decode(data, 0)
    if type(made) is not Variant:
        raise ValueError(f"not a variant's data: a {type(made).__name__}")
    return made


def _decode(data: Any, depth: int) -> Any:
    if type(data) in _ATOMS:
        return data
    if depth > 16 or type(data) is not tuple or not data or type(data[0]) is not str:
        raise ValueError("not a variant's data")
    tag = data[0]
    if tag in (_TUPLE, _SET):
        if len(data) != 2 or type(data[1]) is not tuple:
            raise ValueError("not a variant's data")
        items = [_decode(item, depth + 1) for item in data[1]]
        return tuple(items) if tag == _TUPLE else frozenset(items)
    record = _RECORDS.get(tag)
    if record is None:
        raise ValueError(f"not a variant's data: no record {tag[:40]!r}")
    kind, names = record
    values: dict[str, Any] = {}
    for pair in data[1:]:
        if type(pair) is not tuple or len(pair) != 2 or pair[0] not in names or pair[0] in values:
            raise ValueError(f"not a variant's data: a field of {tag} that is not one")
        values[pair[0]] = _decode(pair[1], depth + 1)
    try:
        return kind(**values)
    except TypeError as error:  # a required field missing
        raise ValueError(f"not a variant's data: {error}") from None
