"""``gameopt serve``: the web application (the director's desk) and the deck API on uvicorn.

With ``--api`` the deck API (``/api/v1``, :mod:`gameopt.web.api`) is served beside the
pages, with ``--api-only`` alone. Its pool and scores are loaded once, put in shared
memory, and the worker processes attach to them and warm their kernels before the URL
is printed.
"""

from __future__ import annotations

import argparse
import ipaddress
import json
import os
import secrets

from gameopt.errors import InvalidInputError

__all__ = ["register"]

TOKEN_ENV = "GAMEOPT_TOKEN"
DATA_DIR_ENV = "GAMEOPT_DATA_DIR"
#: The application, named for uvicorn (which imports it): a front end does not import
#: another front end's modules.
APP_FACTORY = "gameopt.web.app:create_app_from_env"
#: The pages with the deck API (or the API alone), configured by ``$GAMEOPT_DECK_API``.
API_FACTORY = "gameopt.web.api_server:create_server_from_env"
DECK_API_ENV = "GAMEOPT_DECK_API"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve", help="web application: the tournament director's desk; "
                       "the deck recommendation API (--api, --api-only)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to bind (default 127.0.0.1; any other needs a token)")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--data-dir", default=".", metavar="DIR",
                   help="directory of the tournament files (default: the current one)")
    p.add_argument("--token", default=None,
                   help=f"director's token (default ${TOKEN_ENV}; generated and printed "
                        "when binding beyond 127.0.0.1)")
    p.add_argument("--api", action="store_true",
                   help="serve the deck API (/api/v1) beside the pages (it loads its data "
                   "and warms its workers before the URL is printed)")
    p.add_argument("--api-only", action="store_true",
                   help="serve only the deck API, no pages")
    d = p.add_argument_group("deck API")
    d.add_argument("--deck-pool", default=None, metavar="FILE",
                   help="pool CSV/JSON (default: the embedded synthetic data)")
    d.add_argument("--deck-scores", default=None, metavar="FILE",
                   help="scores NPZ/CSV for --deck-pool")
    d.add_argument("--deck-collection", action="append", default=[], metavar="NAME=FILE",
                   help="a stored collection requests may name (repeat for more; the "
                   "synthetic data stores its own as 'synthetic')")
    d.add_argument("--synth-seed", type=int, default=0, help="seed of the synthetic data")
    d.add_argument("--workers", type=int, default=2,
                   help="search worker processes (default 2)")
    d.add_argument("--queue", type=int, default=None,
                   help="requests that may wait for a worker before 503 (default 2 per "
                   "worker)")
    d.add_argument("--deck-budget", type=float, default=1.0, metavar="S",
                   help="search seconds when a request gives no time_budget (default 1)")
    d.add_argument("--warm", default="vds", metavar="M,...",
                   help="methods each worker runs once before the server is ready "
                   "(default vds)")
    d.add_argument("--scheduler", default=None, metavar="tcp://HOST:PORT",
                   help="Dask scheduler for large batches (its workers load the same data)")
    d.add_argument("--dask-min-batch", type=int, default=32,
                   help="batches of at least this many requests go to --scheduler")
    p.set_defaults(func=cmd_serve)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from gameopt.core.limit import check_count, check_seconds
    from gameopt.deck import METHODS

    if not 1 <= args.port <= 65535:
        raise InvalidInputError(f"--port {args.port}: choose 1 to 65535")
    api = args.api or args.api_only
    data_dir = os.path.abspath(args.data_dir)
    if not args.api_only and not os.path.isdir(data_dir):
        raise InvalidInputError(f"--data-dir {args.data_dir}: no such directory")
    token = args.token or os.environ.get(TOKEN_ENV) or None
    if token is not None and len(token.strip()) < 8:
        raise InvalidInputError("--token: at least 8 characters")
    generated = False
    if token is None and not is_loopback(args.host):
        token, generated = secrets.token_urlsafe(18), True
    os.environ[DATA_DIR_ENV] = data_dir
    if token is None:
        os.environ.pop(TOKEN_ENV, None)
    else:
        os.environ[TOKEN_ENV] = token
    os.environ.pop(DECK_API_ENV, None)
    if api:
        workers = check_count(args.workers, "--workers", minimum=1, maximum=64)
        assert workers is not None
        queue = check_count(2 * workers if args.queue is None else args.queue, "--queue",
                            minimum=0, maximum=10_000)
        warm = [m.strip() for m in args.warm.split(",") if m.strip()]
        for m in warm:
            if m not in METHODS:
                raise InvalidInputError(f"--warm {m!r}: not one of {', '.join(METHODS)}")
        if bool(args.deck_pool) != bool(args.deck_scores):
            raise InvalidInputError("--deck-pool and --deck-scores go together")
        collections = {}
        for spec in args.deck_collection:
            name, sep, path = spec.partition("=")
            if not sep or not name or not path:
                raise InvalidInputError(f"--deck-collection {spec!r}: expected NAME=FILE")
            collections[name] = os.path.abspath(path)
        os.environ[DECK_API_ENV] = json.dumps({
            "pages": not args.api_only, "workers": workers, "queue": queue, "warm": warm,
            "pool": args.deck_pool and os.path.abspath(args.deck_pool),
            "scores": args.deck_scores and os.path.abspath(args.deck_scores),
            "collections": collections, "synth_seed": args.synth_seed,
            "budget": check_seconds(args.deck_budget, "--deck-budget"),
            "scheduler": args.scheduler,
            "dask_min_batch": check_count(args.dask_min_batch, "--dask-min-batch")})
    config = uvicorn.Config(API_FACTORY if api else APP_FACTORY, factory=True,
                            host=args.host, port=args.port, log_level="warning",
                            access_log=False, lifespan="on" if api else "off")
    # imports and builds the app now (with the API: loads the data and warms the
    # workers): errors before the URL is printed, and the URL only once it is ready
    config.load()
    host = f"[{args.host}]" if ":" in args.host else args.host
    what = "deck API" if args.api_only else f"data {data_dir}" + (
        ", deck API at /api/v1" if api else "")
    print(f"gameopt serve: http://{host}:{args.port}/ ({what})", flush=True)
    if generated:
        print(f"director's token: {token}", flush=True)
    elif token is not None:
        print("director's token: as given", flush=True)
    server = uvicorn.Server(config)
    server.run()
    return 0 if server.started else 1
