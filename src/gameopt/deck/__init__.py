"""Deck building: the best 16-piece deck from a collection, under the game's rules, by
hill climbing with variable depth search; synergy scores learnt from real decks."""

from gameopt.deck.problem import DeckProblem, deck_score

__all__ = ["DeckProblem", "deck_score"]
