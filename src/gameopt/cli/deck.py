"""``gameopt deck``: build decks, learn synergy scores, make synthetic data, solve MDPs."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from gameopt.cli.common import progress_for
from gameopt.core.limit import Limit, check_count, check_finite, check_seconds
from gameopt.core.table import format_table
from gameopt.deck.problem import MAX_COST_CAP
from gameopt.deck.solve import DECK_METHODS, MDP_METHODS, METHODS
from gameopt.errors import InvalidInputError

if TYPE_CHECKING:
    from gameopt.deck import DeckProblem, DeckResult
    from gameopt.deck.explain import RuleEffect
    from gameopt.deck.pool import Pool

__all__ = ["register"]


def _method_help(names: Sequence[str]) -> str:
    return "; ".join(f"{m}: {METHODS[m].summary} ({METHODS[m].clock} time)" for m in names)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("deck", help="deck building: pairwise synergy, VDS hill climbing")
    ss = p.add_subparsers(dest="deck_command", metavar="ACTION", required=True)

    b = ss.add_parser("build", help="build a deck (default data: the embedded synthetic set)")
    b.add_argument("--pool", default=None, help="pool CSV/JSON (default: synthetic)")
    b.add_argument("--collection", default=None, help="owned pieces CSV/JSON")
    b.add_argument("--scores", default=None, help="scores NPZ/CSV (default: learnt from the "
                                                   "synthetic deck corpus)")
    b.add_argument("--cost", required=True, metavar="C",
                   help=f"cost cap, a whole number 0..{MAX_COST_CAP}")
    b.add_argument("--attribute", default=None, choices=["god", "demon", "dragon"])
    b.add_argument("--attribute-min", type=int, default=10)
    b.add_argument("--must", default="", metavar="ID,...", help="pieces that must be in")
    b.add_argument("--leader", type=int, default=None, metavar="ID")
    b.add_argument("--forbid", action="append", default=[], metavar="A,B",
                   help="two piece ids that may not be in one deck (a hard rule; repeat "
                   "for more pairs). Prefer it to a huge negative score")
    b.add_argument("--char-limit", type=int, default=1)
    b.add_argument("--method", default="vds", choices=list(DECK_METHODS),
                   help=_method_help(DECK_METHODS) + " (greedy, hc, tabu: below VDS on the "
                   "benchmark decks; hc and tabu: deck mdp)")
    b.add_argument("--seed", type=int, default=0)
    b.add_argument("--time-limit", type=float, default=None, metavar="S",
                   help="seconds on the method's clock (default: "
                   + ", ".join(f"{m.default_time:g} for {m.name}" for m in METHODS.values()
                               if m.default_time is not None and m.deck) + ", none for the others)")
    b.add_argument("--no-explain", action="store_true",
                   help="skip the binding-rule analysis (each active rule dropped in turn "
                   "and the problem re-solved by the same method, within the search's "
                   "time)")
    b.add_argument("--synth-seed", type=int, default=0, help="seed of the synthetic data")
    b.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    b.set_defaults(func=cmd_build)

    s = ss.add_parser("scores", help="learn pair scores from a deck corpus (one deck a line)")
    s.add_argument("decks")
    s.add_argument("-o", "--output", required=True, help="scores file (.npz or .csv)")
    s.add_argument("--pool", default=None, help="pool file, to check ids and fix the order")
    s.set_defaults(func=cmd_scores)

    y = ss.add_parser("synth", help="write the synthetic pool, collection and decks")
    y.add_argument("directory")
    y.add_argument("--seed", type=int, default=0)
    y.set_defaults(func=cmd_synth)

    m = ss.add_parser("mdp", help="solve an MDPLIB instance (maximum diversity problem)")
    m.add_argument("file")
    m.add_argument("--time-limit", type=float, default=10.0, help="CPU seconds")
    m.add_argument("--seed", type=int, default=0)
    m.add_argument("--target", type=float, default=None, help="stop at this value")
    m.add_argument("--method", default="tabu", choices=list(MDP_METHODS),
                   help=_method_help(MDP_METHODS))
    m.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    m.set_defaults(func=cmd_mdp)


def _ids(text: str, flag: str) -> tuple[int, ...]:
    try:
        return tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise InvalidInputError(f"{flag} {text!r}: expected piece ids like 1001,1002") from None


def _cost(text: str) -> int:
    """``--cost`` as a whole number in 0..MAX_COST_CAP (``1e3`` is accepted)."""
    try:
        value: float = int(text)
    except ValueError:
        try:
            value = float(text)
        except ValueError:
            raise InvalidInputError(f"--cost {text!r}: expected a whole number") from None
    cap = check_count(value, "--cost", minimum=0, maximum=MAX_COST_CAP)
    assert cap is not None
    return cap


def _pair(text: str) -> tuple[int, int]:
    ids = _ids(text, "--forbid")
    if len(ids) != 2:
        raise InvalidInputError(f"--forbid {text!r}: expected two piece ids like 1001,1002")
    return ids[0], ids[1]


def _limit(method: str, seconds: float | None) -> Limit:
    spec = METHODS[method]
    seconds = check_seconds(seconds, "--time-limit")
    return Limit(time=seconds if seconds is not None else spec.default_time, clock=spec.clock)


def _how(r: DeckResult) -> str:
    took = (f"{r.seconds * 1000:.0f} ms" if r.seconds < 1 else f"{r.seconds:.1f} s")
    how = f"{r.method} in {took} {r.clock} time"
    if r.bound is not None:
        how += (", proven optimal" if r.proven else
                f", not proven: bound {r.bound:.3f}, gap {100 * (r.gap or 0.0):.2f}%")
    if "load_seconds" in r.stats:
        how += f" (kernels loaded in {r.stats['load_seconds']:.1f} s wall, not counted)"
    return how


def cmd_build(args: argparse.Namespace) -> int:
    from gameopt.deck import Rules, load_data, solve, to_problem
    from gameopt.deck.explain import binding_rules, deck_totals, leader_part
    from gameopt.deck.synth import synthetic_data

    if args.pool:
        if not args.collection or not args.scores:
            raise InvalidInputError("deck build: --pool needs --collection and --scores")
        pool, collection, scores = load_data(args.pool, args.collection, args.scores)
    else:
        pool, collection, scores = synthetic_data(args.synth_seed)
    args.cost = _cost(args.cost)
    rules = Rules(cost_cap=args.cost, char_limit=args.char_limit, attribute=args.attribute,
                  attribute_min=args.attribute_min if args.attribute else 0,
                  must=_ids(args.must, "--must"), leader=args.leader,
                  forbid=tuple(_pair(text) for text in args.forbid))
    problem, ids = to_problem(pool, collection, rules, scores)
    progress = progress_for(args.quiet)
    try:
        res = solve(problem, args.method, limit=_limit(args.method, args.time_limit),
                    seed=args.seed, progress=progress)
    finally:
        if progress is not None:
            progress.close()
    _print_deck(problem, res.deck, ids, pool, args)
    total_cost, attrs = deck_totals(pool, [ids[i] for i in res.deck], args.leader)
    print(f"\nscore {res.score:.3f}, cost {total_cost}/{args.cost}, attributes "
          + ", ".join(f"{a} {n}" for a, n in attrs.items()) + f"; {_how(res)}")
    if not args.no_explain:
        # the same method, within the search's own time (shared out over the rules)
        budget = Limit(time=max(res.seconds, 1e-3),
                       clock="wall" if res.clock == "wall" else "cpu")
        for e in binding_rules(problem, res.deck, seed=args.seed, method=args.method,
                               limit=budget, leader=leader_part(pool, rules)):
            print(f"rule {e.rule} ({e.usage}): {_verdict(e)}")
    return 0


def _verdict(e: RuleEffect) -> str:
    """A rule line's verdict: the gain, and whether it is proven, bounded or an estimate."""
    if e.bound is not None and not e.estimate:
        return (f"binds: +{e.gain:.3f} without it (proven by {e.method})" if e.binds
                else f"does not bind (proven by {e.method})")
    if e.bound is not None:
        return (f"estimate: +{e.gain:.3f} to +{e.bound:.3f} without it (a {e.method} "
                "re-solve and a bound)")
    return (f"binds: +{e.gain:.3f} without it (estimate: a {e.method} re-solve)" if e.binds
            else f"does not bind as far as a {e.method} re-solve finds (an estimate)")


def _print_deck(problem: DeckProblem, chosen: Sequence[int], ids: Sequence[int], pool: Pool,
                args: argparse.Namespace) -> None:
    from gameopt.deck.explain import deck_shares

    share, lead_share = deck_shares(problem, chosen)
    rows: list[list[object]] = []
    for k, i in enumerate(chosen):
        piece = pool[ids[i]]
        rows.append([piece.id, piece.name, piece.attribute, piece.cost,
                     round(float(share[k]), 3)])
    if args.leader is not None:
        lp = pool[args.leader]
        rows.insert(0, [lp.id, lp.name + " (leader)", lp.attribute, lp.cost,
                        round(lead_share, 3)])
    print(format_table(["id", "name", "attribute", "cost", "contribution"], rows))


def cmd_scores(args: argparse.Namespace) -> int:
    from gameopt.deck.formats import read_decks, read_pool, write_scores
    from gameopt.deck.scores import deck_scores

    pool = read_pool(args.pool) if args.pool else None
    decks = read_decks(args.decks, pool)
    scores = deck_scores(decks, pool.ids if pool is not None else None)
    write_scores(args.output, scores)
    print(f"wrote {args.output}: {len(scores.ids)} pieces from {len(decks)} decks")
    return 0


def cmd_synth(args: argparse.Namespace) -> int:
    from gameopt.deck.synth import write_synth

    d = Path(args.directory)
    if not d.is_dir():
        raise InvalidInputError(f"{d}: no such directory")
    write_synth(d, seed=args.seed)
    print(f"wrote pool.csv, collection.csv, decks.csv to {d}")
    return 0


def cmd_mdp(args: argparse.Namespace) -> int:
    from gameopt.deck.formats import read_mdp
    from gameopt.deck.mdp import solve_mdp

    problem = read_mdp(args.file)
    limit = Limit(time=check_seconds(args.time_limit, "--time-limit"), clock="cpu",
                  target=check_finite(args.target, "--target"))
    progress = progress_for(args.quiet)
    try:
        r = solve_mdp(problem, args.method, limit=limit, seed=args.seed, progress=progress)
    finally:
        if progress is not None:
            progress.close()
    print(f"{args.file}: value {r.score:.6f} after {r.stats['seconds_to_best']:.3f} s "
          f"{r.clock} time (ran {r.seconds:.3f} s)"
          f"{'; target reached' if r.stats['reached'] else ''}")
    print("subset: " + " ".join(map(str, r.deck)))
    return 0
