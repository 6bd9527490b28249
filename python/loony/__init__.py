"""Loony from Python: impartial combinatorial games.

``Session`` runs Loony source and returns its values; integers, booleans, strings, lists and
tuples come back as Python's own, everything else (games, outcomes, functions, rulesets) as
``Value``. Errors raise ``LoonyError`` with the diagnostic's ``code`` and ``message``.
"""

from ._loony import LoonyError, Session, Value

__all__ = ["LoonyError", "Session", "Value"]
