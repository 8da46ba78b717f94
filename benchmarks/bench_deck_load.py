"""Deck API under load: latency and errors at fixed request rates, memory over many requests.

Starts ``gameopt serve --api-only`` itself on a free port of 127.0.0.1 (the embedded
synthetic data: 4,000 kinds; ``--workers`` warm worker processes, ``--queue``), and waits
until it is ready. The requests are ``POST /api/v1/decks`` with 2,000-piece collections
drawn from the pool (``--collections`` of them) and varied rules: cost cap 150-260, at
times an attribute minimum, a leader, must-include pieces and forbidden pairs; method
``--method``; the explanation only with ``--explain``.

For each rate of ``--rates`` (open loop: request i is sent at ``i / rate`` s, whatever the
answers) for ``--seconds`` s: the achieved rate of answered decks (200 per second),
latency p50/p95/p99 of those (wall ms, send to last byte, as the client sees it; and the
server's own time from the first byte it read to its answer, its ``Server-Timing``
header: the difference is the client's and the network's), 503s and how fast they were
answered, errors (any other status,
or no answer within ``--timeout``), and the server's memory at start and end of the step
(RSS of the server process; PSS of the server and its workers together, which counts the
shared score matrix once). Then ``--rss-requests`` requests (closed loop, ``--rss-clients``
at a time) with the memory sampled every tenth of them.

Every loop is bounded in count and in time (``--max-minutes`` for the whole run).

Run: ``python benchmarks/bench_deck_load.py [--rates 5,10,20,40] [--seconds 60]
[--rss-requests 10000]``; a short check: ``--seconds 5 --rss-requests 500``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import socket
import subprocess
import sys
import time
from typing import Any

import httpx
import numpy as np
import psutil

from gameopt.core.table import format_table
from gameopt.deck.synth import synthesize

#: (status, seconds the server spent on it: its ``Server-Timing``) of every answer
SERVER_SIDE: list[tuple[int, float]] = []


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def percentile(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[max(0, math.ceil(q * len(s)) - 1)]


def make_requests(count: int, seed: int, method: str, explain: bool) -> list[bytes]:
    """Varied 2,000-piece collections and feasible rules, as JSON bodies (encoded once:
    the client's own CPU is kept out of the latencies as far as it can be)."""
    data = synthesize(0)
    pool = data.pool
    rng = np.random.default_rng(seed)
    ids = np.asarray(pool.ids)
    out = []
    for _ in range(count):
        owned = np.sort(rng.choice(ids, 2000, replace=False))
        cap = int(rng.integers(150, 261))
        rules: dict[str, Any] = {"cost_cap": cap}
        if rng.random() < 0.4:
            rules["attribute"] = str(rng.choice(["god", "demon", "dragon"]))
            rules["attribute_min"] = int(rng.integers(1, 9))
        if rng.random() < 0.4:
            cheap = [int(p) for p in owned if pool[int(p)].cost <= 12]
            rules["leader"] = int(rng.choice(cheap))
        if rng.random() < 0.3:
            rules["must"] = [int(p) for p in rng.choice(owned, 2, replace=False)
                             if pool[int(p)].cost <= 10 and int(p) != rules.get("leader")]
        if rng.random() < 0.3:
            a, b = rng.choice(owned, 2, replace=False)
            rules["forbid"] = [[int(a), int(b)]]
        out.append(json.dumps({"collection": {"pieces": owned.tolist()}, "rules": rules,
                               "method": method, "seed": int(rng.integers(0, 1000)),
                               "explain": explain}).encode())
    return out


class Server:
    def __init__(self, args: argparse.Namespace) -> None:
        self.port = free_port()
        cmd = [sys.executable, "-m", "gameopt.cli.main", "serve", "--api-only", "--port",
               str(self.port), "--workers", str(args.workers), "--warm", args.method]
        if args.queue is not None:
            cmd += ["--queue", str(args.queue)]
        env = {**os.environ}
        env.pop("GAMEOPT_TOKEN", None)
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     env=env, text=True)
        self.base = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + args.start_timeout
        assert self.proc.stdout is not None
        while time.monotonic() < deadline:  # the URL is printed once the workers are warm
            line = self.proc.stdout.readline()
            if not line:
                raise SystemExit(f"server exited ({self.proc.wait()}) before it was ready")
            if line.startswith("gameopt serve:"):
                break
        else:
            self.stop()
            raise SystemExit("server not ready in time")
        for _ in range(200):
            try:
                if httpx.get(self.base + "/api/v1/health", timeout=5).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.05)
        raise SystemExit("server not answering")

    def memory(self) -> tuple[float, float]:
        """(RSS of the server process, PSS of it and its children) in MB."""
        p = psutil.Process(self.proc.pid)
        rss = p.memory_info().rss
        pss = 0
        for q in [p, *p.children(recursive=True)]:
            try:
                pss += q.memory_full_info().pss
            except (psutil.Error, AttributeError):
                pass
        return rss / 2**20, pss / 2**20

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=30)


async def one(client: httpx.AsyncClient, body: bytes, timeout: float
              ) -> tuple[int, float, float]:
    """(status or 0 for no answer, wall seconds, the worker's CPU seconds)."""
    t0 = time.perf_counter()
    try:
        r = await client.post("/api/v1/decks", content=body, timeout=timeout,
                              headers={"content-type": "application/json"})
    except (TimeoutError, httpx.HTTPError):
        return 0, time.perf_counter() - t0, 0.0
    took = time.perf_counter() - t0
    cpu = sum(r.json().get("timings", {}).values()) if r.status_code == 200 else 0.0
    timing = r.headers.get("server-timing", "")
    server = float(timing.split("dur=")[1]) / 1000 if "dur=" in timing else float("nan")
    SERVER_SIDE.append((r.status_code, server))
    return r.status_code, took, cpu


async def at_rate(server: Server, reqs: list[bytes], rate: float, seconds: float,
                  timeout: float) -> dict[str, Any]:
    n = max(1, int(rate * seconds))
    limits = httpx.Limits(max_connections=400, max_keepalive_connections=400)
    async with httpx.AsyncClient(base_url=server.base, limits=limits) as client:
        start = time.perf_counter()
        tasks = []
        for i in range(n):
            delay = start + i / rate - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            tasks.append(asyncio.ensure_future(one(client, reqs[i % len(reqs)], timeout)))
        results = await asyncio.wait_for(asyncio.gather(*tasks), timeout + seconds + 30)
        span = time.perf_counter() - start
    ok = [t for s, t, _ in results if s == 200]
    busy = [t for s, t, _ in results if s == 503]
    cpu = [c for s, _, c in results if s == 200]
    return {"sent": n, "ok": len(ok), "rate": len(ok) / span, "lat": ok, "lat503": busy,
            "busy": len(busy),
            "errors": sum(s not in (200, 503) for s, _, _ in results),
            "codes": sorted({s for s, _, _ in results if s not in (200, 503)}),
            "cpu": float(np.median(cpu)) if cpu else float("nan")}


async def closed_loop(server: Server, reqs: list[bytes], total: int, clients: int,
                      timeout: float, max_seconds: float) -> list[tuple[int, float, float]]:
    """``total`` requests, ``clients`` at a time; memory sampled every tenth."""
    samples = [(0, *server.memory())]
    done = 0
    errors = 0
    stop_at = time.monotonic() + max_seconds
    async with httpx.AsyncClient(base_url=server.base) as client:
        async def worker(k: int) -> None:
            nonlocal done, errors
            i = k
            while i < total and time.monotonic() < stop_at:
                s, _, _ = await one(client, reqs[i % len(reqs)], timeout)
                errors += s not in (200, 503)
                done += 1
                if done % max(1, total // 10) == 0:
                    samples.append((done, *server.memory()))
                i += clients
        await asyncio.gather(*(worker(k) for k in range(clients)))
    samples.append((done, *server.memory()))
    if errors:
        print(f"memory run: {errors} errors", file=sys.stderr)
    return samples


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rates", default="5,10,20,40", help="requests per second, comma list")
    ap.add_argument("--seconds", type=float, default=60.0, help="per rate (default 60)")
    ap.add_argument("--rss-requests", type=int, default=10_000)
    ap.add_argument("--rss-clients", type=int, default=4)
    ap.add_argument("--collections", type=int, default=50)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--queue", type=int, default=None)
    ap.add_argument("--method", default="vds")
    ap.add_argument("--explain", action="store_true", help="ask for the binding rules")
    ap.add_argument("--timeout", type=float, default=30.0, help="per request (s)")
    ap.add_argument("--start-timeout", type=float, default=900.0)
    ap.add_argument("--max-minutes", type=float, default=30.0, help="the memory run's cap")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rates = [float(x) for x in args.rates.split(",") if x.strip()]
    if not rates or any(not 0 < r <= 500 for r in rates) or not 0 < args.seconds <= 600:
        ap.error("rates in (0, 500], --seconds in (0, 600]")
    if not 0 <= args.rss_requests <= 100_000 or not 1 <= args.rss_clients <= 64:
        ap.error("--rss-requests 0..100000, --rss-clients 1..64")

    reqs = make_requests(args.collections, args.seed, args.method, args.explain)
    t0 = time.perf_counter()
    server = Server(args)
    load = psutil.getloadavg()
    print(f"server ready in {time.perf_counter() - t0:.1f} s wall; {args.workers} workers; "
          f"method {args.method}, explain {args.explain}; load average before "
          f"{load[0]:.2f} on {psutil.cpu_count()} CPUs", flush=True)
    try:
        rows = []
        for rate in rates:
            rss0, pss0 = server.memory()
            cpu0 = psutil.cpu_times()
            SERVER_SIDE.clear()
            res = asyncio.run(at_rate(server, reqs, rate, args.seconds, args.timeout))
            cpu1 = psutil.cpu_times()
            rss1, pss1 = server.memory()
            busy = (cpu1.user + cpu1.system + cpu1.nice) - (cpu0.user + cpu0.system
                                                             + cpu0.nice)
            idle = busy + (cpu1.idle - cpu0.idle)
            lat = [x * 1000 for x in res["lat"]]
            lat503 = [x * 1000 for x in res["lat503"]]
            srv = [t * 1000 for c, t in SERVER_SIDE if c == 200]
            rows.append([f"{rate:g}", res["sent"], f"{res['rate']:.1f}",
                         f"{percentile(lat, .50):.0f}", f"{percentile(lat, .95):.0f}",
                         f"{percentile(lat, .99):.0f}",
                         f"{percentile(srv, .50):.0f} / {percentile(srv, .99):.0f}",
                         f"{res['cpu'] * 1000:.0f}",
                         res["busy"], f"{percentile(lat503, .50):.0f} / "
                         f"{percentile(lat503, .99):.0f}",
                         f"{res['errors']} {res['codes'] or ''}".strip(),
                         f"{rss0:.0f} -> {rss1:.0f}", f"{pss0:.0f} -> {pss1:.0f}",
                         f"{100 * busy / max(idle, 1e-9):.0f}%"])
            print(f"rate {rate:g}: done", file=sys.stderr, flush=True)
        print(format_table(["req/s", "sent", "achieved", "p50 ms", "p95 ms", "p99 ms",
                            "in server p50/p99 ms", "worker CPU ms", "503",
                            "503 p50/p99 ms", "errors", "server RSS MB",
                            "server+workers PSS MB", "machine busy"], rows))
        if args.rss_requests:
            samples = asyncio.run(closed_loop(server, reqs, args.rss_requests,
                                              args.rss_clients, args.timeout,
                                              args.max_minutes * 60))
            print(format_table(["requests", "server RSS MB", "server+workers PSS MB"],
                               [[n, f"{r:.0f}", f"{p:.0f}"] for n, r, p in samples]))
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
