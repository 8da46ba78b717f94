"""gameopt: exact and fast solvers for the combinatorial problems of board and card games."""

from gameopt._numba_cache import configure as _configure_numba_cache

_configure_numba_cache()

from gameopt._version import __version__  # noqa: E402

__all__ = ["__version__"]
