"""Othello hints over the page's WebSocket with several clients at once, on 127.0.0.1.

``gameopt serve`` runs in a subprocess, once per ``--searches`` value (the searches it
runs at once, ``$GAMEOPT_REVERSI_SEARCHES``; 8 more may wait, in arrival order). Each
client is a thread that loads the page, then holds one WebSocket (``websocket-client``),
as a browser page does, and asks ``--requests`` depth-``--depth`` hints in turn on
midgame positions (a seeded random walk of 16 to 30 plies from the start, one per
request, the same list in every run) and times, from sending the request:

* the first ``search`` line (the first root move valued),
* the final answer (the ``result`` with the best moves).

Median and 99th percentile (nearest rank: the slowest of fewer than 100) over all
requests of a run; the server's CPU seconds (user + system of its process, all threads,
from ``/proc``) over the run, and the run's wall time. The baseline measured in the
same run is one client asking the same hints one after the other (no waiting for a
search thread), on the first server. "Starved" counts requests not answered within
``--timeout`` seconds or refused; the ratio of the slowest answer to the median shows
how even the turns are. Meanwhile a prober GETs the small ``/reversi/api/status`` JSON
every 0.2 s: its latency shows whether the event loop stays free while the engine thinks.

Run: ``python benchmarks/bench_web_reversi.py [--clients 4] [--requests 6] [--depth 8]
[--searches 2 4]``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import numpy as np
import websocket  # websocket-client (installed with selenium, the test extra)

from gameopt.core.table import format_table
from gameopt.reversi import Board
from gameopt.web.reversi_page import SEARCHES_ENV


def positions(n: int, seed: int) -> list[str]:
    """``n`` move lists from the start, 16 to 30 plies of a seeded random walk (no pass
    at the end, game not over)."""
    rng = np.random.default_rng(seed)
    out: list[str] = []
    while len(out) < n:
        b, moves = Board.start(), []
        for _ in range(int(rng.integers(16, 31))):
            legal = b.legal_moves()
            if not legal:
                break
            m = legal[int(rng.integers(len(legal)))]
            moves.append(str(m))
            b = b.play(m)
        if not b.is_game_over() and not b.must_pass():
            out.append("".join(moves))
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(data: str, searches: int) -> tuple[subprocess.Popen[str], str]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "gameopt.cli.main", "serve", "--port",
                             str(port), "--data-dir", data], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, SEARCHES_ENV: str(searches)})
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url + "/reversi", timeout=2) as r:
                if r.status == 200:
                    return proc, url
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit(f"gameopt serve did not start: {proc.communicate()[0]}")


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (all its threads), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def ask(ws: Any, request: dict[str, Any], timeout: float) -> tuple[float | None, float | None,
                                                                   str]:
    """Seconds to the first ``search`` line and to the answer (None if not reached), and
    how it ended (``ok``, ``refused NNN``, ``timeout``)."""
    t0 = time.perf_counter()
    first = None
    ws.settimeout(timeout)
    ws.send(json.dumps(request))
    try:
        while True:
            m = json.loads(ws.recv())
            now = time.perf_counter() - t0
            if m["type"] == "search" and first is None:
                first = now
            elif m["type"] == "error":
                return first, None, f"refused {m['status']}"
            elif m["type"] == "result":
                return first, now, "ok" if not m["stopped"] else f"stopped {m['why']}"
            if now > timeout:
                return first, None, "timeout"
    except websocket.WebSocketTimeoutException:
        return first, None, "timeout"


def run(url: str, pid: int, clients: int, jobs: list[list[str]], depth: int,
        timeout: float) -> dict[str, Any]:
    ws_url = url.replace("http://", "ws://") + "/reversi/ws"
    records: list[tuple[int, float | None, float | None, str]] = []
    lock = threading.Lock()

    def client(k: int) -> None:
        with urllib.request.urlopen(url + "/reversi", timeout=timeout) as page:  # as a browser
            page.read()
        ws = websocket.create_connection(ws_url, timeout=timeout)
        try:
            for moves in jobs[k]:
                first, final, how = ask(ws, {"op": "hint", "moves": moves, "depth": depth,
                                             "top": 4}, timeout)
                with lock:
                    records.append((k, first, final, how))
        finally:
            ws.close()

    probes: list[float] = []
    finished = threading.Event()

    def prober() -> None:  # is the event loop free while the engine thinks?
        while not finished.wait(0.2):
            t = time.perf_counter()
            with urllib.request.urlopen(url + "/reversi/api/status", timeout=timeout) as r:
                r.read()
            probes.append(time.perf_counter() - t)

    cpu0, t0 = cpu_seconds(pid), time.perf_counter()
    threads = [threading.Thread(target=client, args=(k,)) for k in range(clients)]
    probe = threading.Thread(target=prober)
    probe.start()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall, cpu = time.perf_counter() - t0, cpu_seconds(pid) - cpu0
    finished.set()
    probe.join()
    firsts = [f for _, f, _, how in records if f is not None and how == "ok"]
    finals = [x for _, _, x, how in records if x is not None and how == "ok"]
    per_client = [sum(1 for c, _, _, how in records if c == k and how == "ok")
                  for k in range(clients)]
    return {"requests": len(records), "firsts": firsts, "finals": finals, "wall": wall,
            "cpu": cpu, "starved": sum(1 for *_, how in records if how != "ok"),
            "per_client": per_client, "probes": probes}


def percentile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[max(0, math.ceil(q * len(s)) - 1)] if s else float("nan")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--requests", type=int, default=6, help="hints per client")
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per request")
    ap.add_argument("--searches", type=int, nargs="+", default=[2, 4],
                    help="the server's search threads ($GAMEOPT_REVERSI_SEARCHES), one "
                         "server per value")
    args = ap.parse_args(argv)
    if not 1 <= args.clients <= 16 or not 1 <= args.requests <= 50 \
            or not 1 <= args.depth <= 20:
        ap.error("--clients 1..16, --requests 1..50, --depth 1..20")
    lists = positions(args.clients * args.requests, args.seed)
    concurrent = [lists[k::args.clients] for k in range(args.clients)]
    runs: list[tuple[str, dict[str, Any]]] = []
    for searches in args.searches:
        with tempfile.TemporaryDirectory() as data:
            proc, url = start_server(data, searches)
            try:
                # warm: the page view loads the kernels; one small hint waits for them
                run(url, proc.pid, 1, [[lists[0]]], 2, 600)
                if not runs:
                    name = (f"1 client, {len(lists)} hints in turn, {searches} searches at "
                            "once (baseline)")
                    runs.append((name, run(url, proc.pid, 1, [lists], args.depth,
                                           args.timeout)))
                runs.append((f"{args.clients} clients at once, {args.requests} hints each, "
                             f"{searches} searches at once", run(url, proc.pid, args.clients,
                                                        concurrent, args.depth, args.timeout)))
            finally:
                proc.terminate()
                proc.communicate(timeout=10)
    rows = []
    for name, r in runs:
        med = statistics.median(r["finals"]) if r["finals"] else float("nan")
        rows.append([name, r["requests"], percentile(r["firsts"], 0.5),
                     percentile(r["firsts"], 0.99), med, percentile(r["finals"], 0.99),
                     max(r["finals"], default=float("nan")) / med, r["cpu"], r["wall"],
                     r["starved"], "/".join(map(str, r["per_client"])),
                     1000 * percentile(r["probes"], 0.5), 1000 * percentile(r["probes"], 0.99)])
    print(f"depth-{args.depth} hints, top 4, on 127.0.0.1; seconds on the wall clock (client "
          "side) unless said; server CPU = user+system of the server process")
    print(format_table(["run", "requests", "first line median", "first line p99",
                        "answer median", "answer p99", "slowest/median", "server CPU s",
                        "wall s", "starved", "answered per client", "status GET median ms",
                        "status GET p99 ms"], rows))
    return 0 if all(r["starved"] == 0 for _, r in runs) else 1


if __name__ == "__main__":
    raise SystemExit(main())
