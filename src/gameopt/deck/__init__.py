"""Deck building: the best deck from a collection under the game's rules, by heuristics
(greedy, hill climbing, variable depth search, tabu search) or exact methods (CP-SAT,
branch and bound); synergy scores learnt from real decks.

The entry point is :func:`solve` over the method registry :data:`METHODS`; it takes a
:class:`DeckProblem` (made from a pool, a collection, :class:`Rules` and scores by
:func:`to_problem`) and returns a :class:`DeckResult`. A server holds a
:class:`DeckCatalogue` (pool and scores loaded once) and builds each player's problem
from it in milliseconds. Importing the package loads no
numba kernel: each method loads its kernels on first use.

Examples
--------
>>> import numpy as np
>>> from gameopt.deck import DeckProblem, solve
>>> R = np.ones((6, 6), np.float32)
>>> solve(DeckProblem(R, 3), "greedy").score
3.0
"""

from gameopt.deck.formats import load_data
from gameopt.deck.pool import Rules, to_problem
from gameopt.deck.problem import DeckProblem, deck_score
from gameopt.deck.result import DeckResult
from gameopt.deck.service import Advice, DeckCatalogue
from gameopt.deck.solve import DECK_METHODS, METHODS, solve

__all__ = ["DECK_METHODS", "METHODS", "Advice", "DeckCatalogue", "DeckProblem", "DeckResult",
           "Rules",
           "deck_score", "load_data", "solve", "to_problem"]
