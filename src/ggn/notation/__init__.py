"""Move notations for players: USI and SFEN (:mod:`ggn.notation.usi`)."""

from __future__ import annotations

__all__: list[str] = []
