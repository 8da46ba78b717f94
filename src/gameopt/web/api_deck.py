"""The deck API's one door into the deck system: every deck name the API modules use.

Like ``_pairing.py`` for the desk, this keeps the web front end's reach into a system in
one module (``tests/web/test_imports.py`` checks it).
"""

from __future__ import annotations

from gameopt.deck import DECK_METHODS, METHODS, DeckCatalogue, Rules
from gameopt.deck.formats import read_collection, read_pool, read_scores
from gameopt.deck.problem import MAX_COST_CAP
from gameopt.deck.service import recommend_job, serve_request
from gameopt.deck.synth import synthetic_data

__all__ = ["DECK_METHODS", "MAX_COST_CAP", "METHODS", "DeckCatalogue", "Rules", "read_collection",
           "read_pool", "read_scores", "recommend_job", "serve_request", "synthetic_data"]
