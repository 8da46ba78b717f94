"""The web application (``gameopt serve``): the tournament director's desk first.

A front end like :mod:`gameopt.cli`: it calls the systems' public APIs only (for the
pairing system, through :mod:`gameopt.web._pairing`), one module of routes per system,
with its templates and static files in the package (nothing fetched from elsewhere).
"""

from gameopt.web.app import create_app

__all__ = ["create_app"]
