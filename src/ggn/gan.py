"""GAN: the General Actor Notation 1.0.0, and the legacy GGN piece form built on it.

A GAN actor is ``<game>:<piece>``, two runs of ASCII letters, all uppercase for
the first player or all lowercase for the second
(``^([A-Z]+:[A-Z]+|[a-z]+:[a-z]+)$``).

>>> gan = Gan.parse("shogi:pawn")
>>> (gan.game, gan.piece, gan.side)
('SHOGI', 'PAWN', 'second')
>>> str(Gan("CHESS", "KING", "first"))
'CHESS:KING'

The legacy GGN schema writes piece keys in a wider form: a GAN whose piece may
carry one state modifier (``+`` or ``-``) before it and one derivation mark
``'`` after it, still in one case throughout.

>>> piece = LegacyPiece.parse("SHOGI:+PAWN")
>>> (piece.gan, piece.state, piece.derived)
(Gan.parse('SHOGI:PAWN'), 'enhanced', False)
>>> str(LegacyPiece(Gan("SHOGI", "PAWN", "second"), "diminished", True))
"shogi:-pawn'"
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ggn._cache import Memo
from ggn._types import Side, State
from ggn.errors import NotationError, NotationTypeError

__all__ = ["Gan", "LegacyPiece"]

_PREFIX: dict[State, str] = {"normal": "", "enhanced": "+", "diminished": "-"}
_CASES = "all uppercase (first player) or all lowercase (second player)"


def _identifier(value: object) -> bool:
    return (
        isinstance(value, str) and value != "" and value.isascii()
        and value.isalpha() and value.isupper()
    )


@dataclass(frozen=True, slots=True)
class Gan:
    """An actor: the ``game`` and ``piece`` identifiers (uppercase) and the player's ``side``."""

    game: str
    piece: str
    side: Side

    def __post_init__(self) -> None:
        for field, value in (("game", self.game), ("piece", self.piece), ("side", self.side)):
            if not isinstance(value, str):
                raise NotationTypeError.argument("GAN", value, field, "a str")
        if not _identifier(self.game):
            raise NotationError(
                "GAN", repr(self.game), "game must be one or more uppercase ASCII letters"
            )
        if not _identifier(self.piece):
            raise NotationError(
                "GAN", repr(self.piece), "piece must be one or more uppercase ASCII letters"
            )
        if self.side not in ("first", "second"):
            raise NotationError("GAN", repr(self.side), "side must be 'first' or 'second'")

    @classmethod
    def parse(cls, text: str) -> Gan:
        """Parse a GAN string; raise :class:`~ggn.errors.NotationError` if invalid."""
        return _parse_gan(text)

    @classmethod
    def is_valid(cls, text: object) -> bool:
        """Whether ``text`` is a valid GAN string."""
        if not isinstance(text, str):
            return False
        try:
            _parse_gan(text)
        except NotationError:
            return False
        return True

    def fields(self) -> dict[str, object]:
        """The JSON-ready description of the actor.

        >>> Gan.parse("chess:king").fields()
        {'game': 'CHESS', 'piece': 'KING', 'side': 'second'}
        """
        return {"game": self.game, "piece": self.piece, "side": self.side}

    def __str__(self) -> str:
        text = f"{self.game}:{self.piece}"
        return text if self.side == "first" else text.lower()

    def __repr__(self) -> str:
        return f"Gan.parse({str(self)!r})"


@dataclass(frozen=True, slots=True)
class LegacyPiece:
    """A piece key of a legacy GGN document: a ``gan``, its ``state`` and ``derived`` mark."""

    gan: Gan
    state: State = "normal"
    derived: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.gan, Gan):
            raise NotationTypeError.argument("legacy GGN piece", self.gan, "gan", "a Gan")
        if not isinstance(self.state, str):
            raise NotationTypeError.argument("legacy GGN piece", self.state, "state", "a str")
        if self.state not in _PREFIX:
            raise NotationError(
                "legacy GGN piece", repr(self.state),
                "state must be 'normal', 'enhanced' or 'diminished'",
            )
        if not isinstance(self.derived, bool):
            raise NotationTypeError.argument("legacy GGN piece", self.derived, "derived", "a bool")

    @classmethod
    def parse(cls, text: str) -> LegacyPiece:
        """Parse a legacy GGN piece key; raise :class:`~ggn.errors.NotationError` if invalid."""
        return _parse_legacy(text)

    @classmethod
    def is_valid(cls, text: object) -> bool:
        """Whether ``text`` is a valid legacy GGN piece key."""
        if not isinstance(text, str):
            return False
        try:
            _parse_legacy(text)
        except NotationError:
            return False
        return True

    @property
    def game(self) -> str:
        return self.gan.game

    @property
    def piece(self) -> str:
        return self.gan.piece

    @property
    def side(self) -> Side:
        return self.gan.side

    def fields(self) -> dict[str, object]:
        """The JSON-ready description: the GAN's fields, ``state`` and ``derived``.

        >>> LegacyPiece.parse("shogi:+pawn").fields()
        {'game': 'SHOGI', 'piece': 'PAWN', 'side': 'second', 'state': 'enhanced', 'derived': False}
        """
        fields = self.gan.fields()
        fields["state"] = self.state
        fields["derived"] = self.derived
        return fields

    def __str__(self) -> str:
        game, piece = self.gan.game, self.gan.piece
        if self.gan.side == "second":
            game, piece = game.lower(), piece.lower()
        mark = "'" if self.derived else ""
        return f"{game}:{_PREFIX[self.state]}{piece}{mark}"

    def __repr__(self) -> str:
        return f"LegacyPiece.parse({str(self)!r})"


def _scan(text: str, notation: str, legacy: bool) -> tuple[Gan, State, bool]:
    """Parse ``text`` as GAN, or as a legacy piece key when ``legacy``; left to right."""
    if not isinstance(text, str):
        raise NotationTypeError.of(notation, text)
    if not text:
        raise NotationError(notation, text, "cannot be empty; expected <game>:<piece>")
    length = len(text)
    colon = -1
    side: Side | None = None
    state: State = "normal"
    derived = False
    piece_start = -1  # position of the first letter of the piece identifier
    for pos, ch in enumerate(text):
        if "A" <= ch <= "Z" or "a" <= ch <= "z":
            letter_side: Side = "first" if ch <= "Z" else "second"
            if side is None:
                side = letter_side
            elif letter_side != side:
                raise NotationError(
                    notation, text,
                    f"mixed case: the case changes at {ch!r}; an actor is {_CASES}",
                    pos, pos + 1,
                )
            if colon >= 0 and piece_start < 0:
                piece_start = pos
        elif ch == ":":
            if colon >= 0:
                raise NotationError(
                    notation, text, "exactly one ':' separates game and piece", pos, pos + 1
                )
            if pos == 0:
                raise NotationError(notation, text, "missing game identifier before ':'", 0, 1)
            colon = pos
        elif legacy and ch in "+-":
            if colon < 0 or piece_start >= 0:
                raise NotationError(
                    notation, text,
                    f"the state modifier {ch!r} goes right before the piece identifier",
                    pos, pos + 1,
                )
            if pos != colon + 1:
                raise NotationError(
                    notation, text, "at most one state modifier (+ or -)", pos, pos + 1
                )
            state = "enhanced" if ch == "+" else "diminished"
        elif legacy and ch == "'":
            if pos != length - 1:
                raise NotationError(
                    notation, text, "the derivation mark ' appears once, last", pos, pos + 1
                )
            if piece_start < 0:
                raise NotationError(
                    notation, text, "the derivation mark ' follows the piece identifier",
                    pos, pos + 1,
                )
            derived = True
        else:
            expected = (
                "an ASCII letter, ':', a state modifier (+ or -) or a final '"
                if legacy else "an ASCII letter or ':'"
            )
            hint = (
                " (state and derivation marks belong to the legacy GGN piece form, not to GAN)"
                if not legacy and ch in "+-'" else ""
            )
            raise NotationError(
                notation, text, f"expected {expected}, found {ch!r}{hint}", pos, pos + 1
            )
    if colon < 0:
        raise NotationError(notation, text, "missing ':' between game and piece")
    if piece_start < 0:
        raise NotationError(notation, text, "missing piece identifier after ':'", colon, length)
    assert side is not None
    end = length - 1 if derived else length
    gan = Gan(text[:colon].upper(), text[piece_start:end].upper(), side)
    return gan, state, derived


def _build_gan(text: str) -> Gan:
    return _scan(text, "GAN", legacy=False)[0]


def _build_legacy(text: str) -> LegacyPiece:
    return LegacyPiece(*_scan(text, "legacy GGN piece", legacy=True))


_parse_gan: Final = Memo(_build_gan)
_parse_legacy: Final = Memo(_build_legacy)
