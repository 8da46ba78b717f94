"""gameopt: exact and fast solvers for the combinatorial problems of board and card games."""

from gameopt._version import __version__

__all__ = ["__version__"]
