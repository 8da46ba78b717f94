"""Random Swiss events played out under a pairing rule, to compare rules.

Players get hidden strengths (Elo ratings ~ N(1500, σ)); a game is won with the Elo
probability 1 / (1 + 10^(−Δ/400)), drawn rarely, and ends with a disc margin drawn around
a strength-dependent mean. Each event is paired round by round with
:func:`~gameopt.pairing.pairer.pair_round` and judged on what a director cares about:
rematches, floats (games between different scores), colour imbalance, breaks of the colour
tier (a third same colour in a row of played games, or a colour difference beyond 2), byes
given above the lowest score group, and how well the final standings recover the true
strengths (Kendall τ).
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gameopt.core.limit import check_count, check_finite
from gameopt.core.parallel import parallel_map
from gameopt.core.progress import ProgressCallback
from gameopt.core.rng import make_rng, spawn_seeds
from gameopt.errors import InvalidInputError
from gameopt.pairing.model import BYE, METHODS
from gameopt.pairing.penalties import MAX_COLOUR_DIFFERENCE, PenaltyParams
from gameopt.pairing.records import GameRecord, PlayerRecord
from gameopt.pairing.standings import build_round_input, compute_standings

__all__ = ["SIM_RULES", "SUMMARY_COLUMNS", "EventStats", "SimConfig", "kendall_tau",
           "simulate_event", "simulate_rules"]

#: The rules a simulation may use: the methods of ``pair_round`` and ``"dutch"``, the
#: Dutch-like comparison rule (:func:`gameopt.pairing.dutch.dutch_round`).
SIM_RULES = (*METHODS, "dutch")

#: The columns of :func:`simulate_rules`' rows.
SUMMARY_COLUMNS = ("rule", "events", "rematches/event", "floats/event", "mean |colour diff|",
                   "max |colour diff|", "colour breaks/event", "high byes/event", "Kendall τ",
                   "pairing CPU s/round")


@dataclass(frozen=True)
class SimConfig:
    """Shape of a simulated event.

    Attributes
    ----------
    players, rounds : int
    rating_sd : float
        Spread of the hidden Elo strengths.
    draw_prob : float
        Chance of a 32-32 draw (Othello draws are rare).
    """

    players: int = 100
    rounds: int = 9
    rating_sd: float = 200.0
    draw_prob: float = 0.02

    def __post_init__(self) -> None:
        check_count(self.players, "simulation: players", minimum=2)
        check_count(self.rounds, "simulation: rounds")
        check_finite(self.rating_sd, "simulation: rating_sd")
        check_finite(self.draw_prob, "simulation: draw_prob")
        if self.rounds >= self.players:
            raise InvalidInputError(f"simulation: need 2 <= players and 1 <= rounds < players,"
                                    f" got players={self.players}, rounds={self.rounds}")
        if not 0 <= self.draw_prob < 1 or self.rating_sd < 0:
            raise InvalidInputError("simulation: draw_prob must be in [0, 1) and rating_sd "
                                    ">= 0")


@dataclass(frozen=True)
class EventStats:
    """What one event under one rule produced (a :class:`gameopt.core.Outcome`).

    Attributes
    ----------
    rule : str
        The ``pair_round`` method.
    rematches, floats : int
        Games between players who had met, and between different scores.
    colour_diffs : tuple of int
        Every player's final ``|blacks − whites|``.
    kendall_tau : float
        Kendall's τ between the hidden strengths and the final ranks.
    seconds : float
        Time the pairings took in all (the rounds' :attr:`Pairing.seconds
        <gameopt.pairing.model.Pairing.seconds>`), on ``clock``.
    clock : str
        ``"cpu"``.
    proven : bool
        Every round's pairing was proven of least penalty.
    bound : None
        A simulation proves no bound.
    stats : dict
        ``rounds``: the rounds paired; ``colour_breaks``: games in which a player broke the
        colour tier (a third same colour in a row of played games, or ``|blacks − whites|``
        beyond 2 after the game); ``high_byes``: byes given to a player whose score was
        above the lowest score of the players of the round without a bye so far.
    """

    rule: str
    rematches: int
    floats: int
    colour_diffs: tuple[int, ...]
    kendall_tau: float
    seconds: float
    clock: str = "cpu"
    proven: bool = False
    bound: float | None = None
    stats: dict[str, Any] = field(default_factory=dict)

    @property
    def seconds_per_round(self) -> float:
        """Pairing time per round, on ``clock``."""
        return self.seconds / max(1, int(self.stats.get("rounds", 1)))


def kendall_tau(a: list[float], b: list[float]) -> float:
    """Kendall's τ-b between two score lists (O(n²); ties in either list handled)."""
    n = len(a)
    conc = disc = ta = tb = 0
    for i in range(n):
        for j in range(i + 1, n):
            da = (a[i] > a[j]) - (a[i] < a[j])
            db = (b[i] > b[j]) - (b[i] < b[j])
            if da == 0 and db == 0:
                continue
            if da == 0:
                ta += 1
            elif db == 0:
                tb += 1
            elif da == db:
                conc += 1
            else:
                disc += 1
    denom = ((conc + disc + ta) * (conc + disc + tb)) ** 0.5
    return (conc - disc) / denom if denom else 0.0


def _play(rng: np.random.Generator, ra: float, rb: float, draw_prob: float
          ) -> tuple[int, int]:
    """Discs (a, b) of one game between strengths ``ra`` and ``rb``."""
    if rng.random() < draw_prob:
        return 32, 32
    p_a = 1.0 / (1.0 + 10.0 ** (-(ra - rb) / 400.0))
    a_wins = rng.random() < p_a
    margin = int(min(64, max(2, 2 * round(abs(rng.normal(8 + abs(ra - rb) / 40, 8))))))
    win, lose = 32 + margin // 2, 32 - margin // 2
    return (win, lose) if a_wins else (lose, win)


def simulate_event(rule: str, cfg: SimConfig, seed: int,
                   params: PenaltyParams | None = None) -> EventStats:
    """Play one event of ``cfg`` under pairing ``rule`` (one of :data:`SIM_RULES`) with the
    penalty ``params`` (default ``PenaltyParams()``, whatever the rule).

    Raises
    ------
    InvalidInputError
        An unknown rule.
    """
    from gameopt.pairing.dutch import dutch_round
    from gameopt.pairing.pairer import pair_round  # numba: loaded on first use

    if rule not in SIM_RULES:
        raise InvalidInputError(f"simulation: unknown rule {rule!r} ({', '.join(SIM_RULES)})")

    rng = make_rng(seed)
    strengths = rng.normal(1500.0, cfg.rating_sd, cfg.players)
    players = [PlayerRecord(id=f"P{i + 1:04d}", name=f"Player {i + 1}",
                            rating=float(round(strengths[i])), seq=i + 1)
               for i in range(cfg.players)]
    strength = {p.id: float(s) for p, s in zip(players, strengths, strict=True)}
    games: list[GameRecord] = []
    met: set[frozenset[str]] = set()
    colour = dict.fromkeys(strength, 0)
    runs: dict[str, list[int]] = {i: [] for i in strength}  # played colours, +1 black
    rematches = floats = breaks = high_byes = 0
    had_bye: set[str] = set()
    seconds = 0.0
    proven = True
    for k in range(1, cfg.rounds + 1):
        ri = build_round_input(k, players, games)
        score = {s.id: s.score for s in ri.players}
        pairing = (dutch_round(ri, params) if rule == "dutch"
                   else pair_round(ri, params, method=rule))
        seconds += pairing.seconds
        proven &= pairing.proven
        for t in pairing.tables:
            if t.white == BYE:
                eligible = [v for pid, v in score.items() if pid not in had_bye]
                high_byes += bool(eligible) and score[t.black] > min(eligible)
                had_bye.add(t.black)
                games.append(GameRecord(k, t.number, t.black, BYE))
                continue
            pair = frozenset((t.black, t.white))
            rematches += pair in met
            met.add(pair)
            floats += score[t.black] != score[t.white]
            colour[t.black] += 1
            colour[t.white] -= 1
            for pid, step in ((t.black, 1), (t.white, -1)):
                runs[pid].append(step)
                breaks += (abs(colour[pid]) > MAX_COLOUR_DIFFERENCE
                           or runs[pid][-3:] == [step] * 3)
            b, w = _play(rng, strength[t.black], strength[t.white], cfg.draw_prob)
            games.append(GameRecord(k, t.number, t.black, t.white, b, w))
    final = compute_standings(players, games, through_round=cfg.rounds)
    rank = {s.id: s.rank for s in final}
    ids = list(strength)
    tau = kendall_tau([strength[i] for i in ids], [-float(rank[i]) for i in ids])
    return EventStats(rule, rematches, floats, tuple(abs(v) for v in colour.values()), tau,
                      seconds, "cpu", proven, None,
                      {"rounds": cfg.rounds, "colour_breaks": breaks, "high_byes": high_byes})


def _event_job(job: tuple[str, SimConfig, int, PenaltyParams | None]) -> EventStats:
    return simulate_event(*job)


def simulate_rules(rules: list[str], cfg: SimConfig, *, events: int, seed: int | None = 0,
                   workers: int | None = None, scheduler: str | None = None,
                   progress: ProgressCallback | None = None,
                   params: PenaltyParams | None = None) -> list[list[object]]:
    """``events`` events per rule (the same seeds, so the same players and luck draws for
    every rule), spread over processes or a Dask cluster; one summary row per rule, with
    the columns :data:`SUMMARY_COLUMNS`: ``[rule, events, rematches/event, floats/event,
    mean |colour diff|, max |colour diff|, colour breaks/event, high byes/event, mean
    Kendall τ, pairing CPU s/round]``. ``params`` are the penalty parameters of every rule
    (default ``PenaltyParams()``).

    ``progress`` hears of each event as it finishes (``Progress(task="parallel_map",
    done, total)``, see :func:`gameopt.core.parallel_map`).

    Raises
    ------
    InvalidInputError
        An unknown rule, or ``events`` not a whole number ≥ 1.
    """
    check_count(events, "simulation: events")
    unknown = [r for r in rules if r not in SIM_RULES]
    if unknown:
        raise InvalidInputError(f"simulation: unknown rule {unknown[0]!r} "
                                f"({', '.join(SIM_RULES)})")
    seeds = spawn_seeds(seed, events)
    jobs = [(rule, cfg, s, params) for rule in rules for s in seeds]
    out = parallel_map(_event_job, jobs, workers=workers, scheduler=scheduler,
                       progress=progress)
    rows: list[list[object]] = []
    for rule in rules:
        stats = [s for s in out if s.rule == rule]
        diffs = [d for s in stats for d in s.colour_diffs]
        rows.append([rule, len(stats), round(statistics.fmean(s.rematches for s in stats), 3),
                     round(statistics.fmean(s.floats for s in stats), 2),
                     round(statistics.fmean(diffs), 3), max(diffs),
                     round(statistics.fmean(s.stats["colour_breaks"] for s in stats), 2),
                     round(statistics.fmean(s.stats["high_byes"] for s in stats), 3),
                     round(statistics.fmean(s.kendall_tau for s in stats), 4),
                     round(statistics.fmean(s.seconds_per_round for s in stats), 4)])
    return rows
