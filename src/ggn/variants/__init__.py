"""Variants of the chess family described as data, and the readers that make those descriptions.

- :mod:`ggn.variants.pieces`: how pieces move (:class:`Movement`, :class:`Drop`), and the GGN
  possibilities made from movements;
- :mod:`ggn.variants.description`: a whole variant as data (:class:`Variant`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
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

_MODULES: Final = {
    **dict.fromkeys(("Castling", "DoubleStep", "Drops", "Ends", "PieceType", "Promotion", "Region",
                     "Value", "Variant"), "description"),
    **dict.fromkeys(("Drop", "Movement", "Square", "Vector"), "pieces"),
}


def __getattr__(name: str) -> Any:
    # Imported on first use: the registry (ggn.variants.registry, under this package) lists a
    # built-in game's moves from the compile cache without the descriptions' modules.
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"ggn.variants.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
