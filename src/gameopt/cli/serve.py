"""``gameopt serve``: the web application (the director's desk) on uvicorn."""

from __future__ import annotations

import argparse
import ipaddress
import os
import secrets

from gameopt.errors import InvalidInputError

__all__ = ["register"]

TOKEN_ENV = "GAMEOPT_TOKEN"
DATA_DIR_ENV = "GAMEOPT_DATA_DIR"
#: The application, named for uvicorn (which imports it): a front end does not import
#: another front end's modules.
APP_FACTORY = "gameopt.web.app:create_app_from_env"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve", help="web application: the tournament director's desk")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to bind (default 127.0.0.1; any other needs a token)")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--data-dir", default=".", metavar="DIR",
                   help="directory of the tournament files (default: the current one)")
    p.add_argument("--token", default=None,
                   help=f"director's token (default ${TOKEN_ENV}; generated and printed "
                        "when binding beyond 127.0.0.1)")
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

    if not 1 <= args.port <= 65535:
        raise InvalidInputError(f"--port {args.port}: choose 1 to 65535")
    data_dir = os.path.abspath(args.data_dir)
    if not os.path.isdir(data_dir):
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
    config = uvicorn.Config(APP_FACTORY, factory=True, host=args.host, port=args.port,
                            log_level="warning", access_log=False, lifespan="off")
    config.load()  # imports and builds the app now: errors before the URL is printed
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"gameopt serve: http://{host}:{args.port}/ (data {data_dir})", flush=True)
    if generated:
        print(f"director's token: {token}", flush=True)
    elif token is not None:
        print("director's token: as given", flush=True)
    server = uvicorn.Server(config)
    server.run()
    return 0 if server.started else 1
