"""The web application (``gameopt serve``): the tournament director's desk, and a page
per system (Sudoku, Go MSP, deck building; long work in :mod:`gameopt.web.page_jobs`).

A front end like :mod:`gameopt.cli`: it calls the systems' public APIs only (for the
pairing system, through :mod:`gameopt.web._pairing`), one module of routes per system,
with its templates and static files in the package (nothing fetched from elsewhere).
"""

from gameopt.web.app import create_app

__all__ = ["create_app"]
