"""Variants of the chess family described as data, and the readers that make those descriptions.

- :mod:`ggn.variants.pieces`: how pieces move (:class:`Movement`, :class:`Drop`), and the GGN
  possibilities made from movements;
- :mod:`ggn.variants.description`: a whole variant as data (:class:`Variant`).
"""

from __future__ import annotations

from ggn.variants.description import (
    Castling,
    DoubleStep,
    Drops,
    Ends,
    PieceType,
    Promotion,
    Region,
    Value,
    Variant,
)
from ggn.variants.pieces import Drop, Movement, Square, Vector

__all__ = [
    "Castling", "DoubleStep", "Drop", "Drops", "Ends", "Movement", "PieceType", "Promotion", "Region",
    "Square", "Value", "Variant", "Vector",
]
