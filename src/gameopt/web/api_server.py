"""The deck API's data and workers, made before the server starts; the app factory of
``gameopt serve``.

:class:`DeckServer` loads the pool and scores once (the embedded synthetic data by
default), puts them in shared memory, and starts the warm worker pool;
:func:`create_server_from_env` is what uvicorn calls (``gameopt serve`` sets
``$GAMEOPT_DECK_API`` to the options as JSON).
"""

from __future__ import annotations

import atexit
import json
import os
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from starlette.types import ASGIApp

from gameopt.errors import InvalidInputError
from gameopt.web.api import create_api, with_api
from gameopt.web.api_deck import (
    DeckCatalogue,
    read_collection,
    read_pool,
    read_scores,
    synthetic_data,
)
from gameopt.web.api_workers import DeckWorkers

__all__ = ["DECK_API_ENV", "DeckServer", "create_server_from_env"]

DECK_API_ENV = "GAMEOPT_DECK_API"


class DeckServer:
    """Catalogue in shared memory + started :class:`DeckWorkers`.

    Parameters
    ----------
    pool, scores : str, optional
        Files (``gameopt deck`` formats); both or neither. Neither: the synthetic data of
        ``synth_seed``, whose collection is stored as ``"synthetic"``.
    collections : mapping of str to str
        Stored collections: name → file.
    workers, queue, warm
        Of the :class:`DeckWorkers`.
    """

    def __init__(self, *, pool: str | None = None, scores: str | None = None,
                 collections: Mapping[str, str] | None = None, synth_seed: int = 0,
                 workers: int = 2, queue: int = 4, warm: Sequence[str] = ("vds",)) -> None:
        stored: dict[str, npt.NDArray[np.int64]] = {}
        if (pool is None) != (scores is None):
            raise InvalidInputError("deck API: a pool file needs a scores file, and back")
        if pool is not None and scores is not None:
            p = read_pool(pool)
            s = read_scores(scores, p)
            self.source: tuple[Any, ...] = ("files", pool, scores)
        else:
            p, coll, s = synthetic_data(synth_seed)
            stored["synthetic"] = np.asarray(coll.owned, dtype=np.int64)
            self.source = ("synthetic", synth_seed)
        if collections:
            for name, path in collections.items():
                stored[name] = np.asarray(read_collection(path, p).owned, dtype=np.int64)
        self.collections = stored
        self.catalogue = DeckCatalogue(p, s)
        handle = self.catalogue.share()
        self.workers = DeckWorkers(handle, workers=workers, queue=queue, warm=warm)
        try:
            self.workers.start()
        except BaseException:
            self.catalogue.close()
            raise

    def api(self, *, token: str | None = None, default_budget: float | None = 1.0,
            scheduler: str | None = None, dask_min_batch: int = 32) -> ASGIApp:
        return create_api(self.catalogue, self.workers, collections=self.collections,
                          default_budget=default_budget, token=token, scheduler=scheduler,
                          source=self.source if scheduler else None,
                          dask_min_batch=dask_min_batch)

    def close(self) -> None:
        self.workers.close()
        self.catalogue.close()


def create_server_from_env() -> ASGIApp:
    """The pages (unless ``pages`` is false) with the deck API, from ``$GAMEOPT_DECK_API``
    (JSON: the keyword arguments of :class:`DeckServer`, plus ``pages``, ``budget``,
    ``scheduler``, ``dask_min_batch``), ``$GAMEOPT_DATA_DIR`` and ``$GAMEOPT_TOKEN``."""
    opts = json.loads(os.environ.get(DECK_API_ENV) or "{}")
    pages = None
    if opts.get("pages", True):
        from gameopt.web.app import create_app_from_env

        pages = create_app_from_env()
    server = DeckServer(pool=opts.get("pool"), scores=opts.get("scores"),
                        collections=opts.get("collections") or {},
                        synth_seed=int(opts.get("synth_seed", 0)),
                        workers=int(opts.get("workers", 2)), queue=int(opts.get("queue", 4)),
                        warm=opts.get("warm", ["vds"]))
    atexit.register(server.close)  # when the server ends without its lifespan shutdown
    api = server.api(token=os.environ.get("GAMEOPT_TOKEN") or None,
                     default_budget=opts.get("budget", 1.0), scheduler=opts.get("scheduler"),
                     dask_min_batch=int(opts.get("dask_min_batch", 32)))
    return with_api(pages, api, on_shutdown=server.close)
