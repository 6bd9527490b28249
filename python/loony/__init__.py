"""Loony from Python: impartial combinatorial games.

``Session`` runs Loony source and returns its values; integers, booleans, strings, lists and
tuples come back as Python's own, everything else (games, outcomes, functions, rulesets) as
``Value`` (a ``Function``, with its ``__doc__``, for a ``fn``, ruleset or built-in). Errors
raise ``LoonyError`` with the diagnostic's ``code`` and ``message``.
"""

from ._loony import Function, LoonyError, LoonyWarning, Session, Value

__all__ = ["Function", "LoonyError", "LoonyWarning", "Session", "Value"]
