"""Game-tree search over a small state protocol: the slow, obviously correct references."""

from gameopt.gametree.reference import GameState, alphabeta, negamax

__all__ = ["GameState", "negamax", "alphabeta"]
