"""Page latency of the director's desk on 127.0.0.1 for a large event.

A tournament of ``--players`` players (default 1,000) is built through the store with
``--rounds`` rounds already played (paired by the engine, naive rule, random results);
then ``gameopt serve`` runs in a subprocess and an HTTP client on the same machine times
whole requests (send to last byte received):

* ``pair round``: POST of the "pair the next round" form (exact method), answered by a
  303 once the round is stored — then the round is deleted again (not timed) so every
  sample pairs the same round;
* ``standings page``: GET of the desk's standings (all players, three tie-breaks);
* ``public page``: GET of the players' page (last round's tables and the standings);
* ``public state``: the small JSON the public page polls, with ``If-None-Match`` (304).

Median and 99th percentile (nearest rank) over a bounded number of requests each
(``--pair-samples``, ``--page-samples``). The baseline measured in the same run is an
empty request (``GET /static/style.css``), the server's own floor, and for the pairing
request :func:`gameopt.pairing.pair_round` called in this process on the same
round (what the request costs beyond the engine is the web's share).

Run: ``python benchmarks/bench_web_desk.py [--players 1000] [--rounds 4]``.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import numpy as np

from gameopt.core.table import format_table
from gameopt.pairing import BYE, Tournament, pair_round


def build_event(path: Path, players: int, rounds: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    strength = rng.normal(1600, 200, players)
    with Tournament.create(path, "Latency Open", rounds=rounds + 5) as t:
        t.add_players({"name": f"Player {i}", "id": str(i), "country": f"C{i % 12:02d}",
                       "rating": float(round(strength[i - 1]))}
                      for i in range(1, players + 1))
        for k in range(1, rounds + 1):
            pairing = pair_round(t.round_input(), method="naive")
            t.store_pairing(pairing)
            sheet = []
            for x in pairing.tables:
                if x.white == BYE:
                    continue
                sb, sw = strength[int(x.black) - 1], strength[int(x.white) - 1]
                black_wins = rng.random() < 1 / (1 + 10 ** ((sw - sb) / 400))
                margin = int(rng.integers(1, 20)) * 2
                b = 32 + margin // 2 if black_wins else 32 - margin // 2
                sheet.append((x.number, b, 64 - b))
            t.set_results(k, sheet)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def percentile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[max(0, math.ceil(q * len(s)) - 1)]


def timed(fn, n: int) -> list[float]:  # type: ignore[no-untyped-def]
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=4, help="rounds played before timing")
    ap.add_argument("--pair-samples", type=int, default=5)
    ap.add_argument("--page-samples", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        t0 = time.perf_counter()
        build_event(data / "big.sqlite", args.players, args.rounds, args.seed)
        print(f"built {args.players} players x {args.rounds} rounds in "
              f"{time.perf_counter() - t0:.1f} s", file=sys.stderr)
        port = free_port()
        env = {**os.environ}
        env.pop("GAMEOPT_TOKEN", None)
        proc = subprocess.Popen([sys.executable, "-m", "gameopt.cli.main", "serve", "--port",
                                 str(port), "--data-dir", str(data)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, env=env)
        base = f"http://127.0.0.1:{port}"
        launched = time.perf_counter()
        try:
            with httpx.Client(base_url=base, timeout=60) as c:
                for _ in range(1200):  # at most about a minute
                    try:
                        c.get("/static/style.css")
                        break
                    except httpx.TransportError:
                        time.sleep(0.05)
                startup = time.perf_counter() - launched
                c.get("/desk/")
                csrf = c.cookies["gameopt_csrf"]
                k = args.rounds + 1

                def pair() -> None:
                    r = c.post("/desk/big/pair", data={"csrf": csrf, "expect": str(k),
                                                       "method": "exact"})
                    assert r.status_code == 303, r.text[:300]

                def unpair() -> None:
                    page = c.get(f"/desk/big/round/{k}").text
                    m = re.search(r'name="etag" value="([^"]+)"', page)
                    assert m
                    r = c.post(f"/desk/big/round/{k}/delete",
                               data={"csrf": csrf, "etag": m.group(1)})
                    assert r.status_code == 303, r.text[:300]

                def get(url: str, **kw: object):  # type: ignore[no-untyped-def]
                    def fn() -> None:
                        r = c.get(url, **kw)  # type: ignore[arg-type]
                        assert r.status_code in (200, 304), (url, r.status_code)
                    return fn

                get("/desk/big/standings")()  # warm the pages (templates compiled)
                get("/public/big")()
                pair_times = []
                for _ in range(args.pair_samples):
                    pair_times += timed(pair, 1)
                    unpair()
                direct = []
                with Tournament.open(data / "big.sqlite") as t:
                    for _ in range(args.pair_samples):
                        direct += timed(lambda: pair_round(t.round_input(), method="exact"),
                                        1)
                etag = c.get("/public/big/state").headers["etag"]
                n = args.page_samples
                rows = [
                    ("pair round (POST, exact)", pair_times),
                    ("baseline: pair_round alone, in process", direct),
                    ("standings page", timed(get("/desk/big/standings"), n)),
                    ("public page", timed(get("/public/big"), n)),
                    ("public state (304)", timed(get("/public/big/state",
                                                     headers={"If-None-Match": etag}), n)),
                    ("baseline: static CSS", timed(get("/static/style.css"), n)),
                ]
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    table = [[name, len(xs), f"{statistics.median(xs) * 1000:.1f}",
              f"{percentile(xs, 0.99) * 1000:.1f}"] for name, xs in rows]
    print(f"server start to first answer: {startup:.2f} s wall")
    print(f"{args.players} players, round {args.rounds + 1}, 127.0.0.1, wall ms")
    print(format_table(["request", "n", "median ms", "p99 ms"], table))
    return 0


if __name__ == "__main__":
    sys.exit(main())
