"""``gameopt deck``: build decks, learn synergy scores, make synthetic data, solve MDPs."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from gameopt.core.table import format_table
from gameopt.errors import InvalidInputError

if TYPE_CHECKING:
    from gameopt.deck.pool import Pool
    from gameopt.deck.problem import DeckProblem

__all__ = ["register"]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("deck", help="deck building: pairwise synergy, VDS hill climbing")
    ss = p.add_subparsers(dest="deck_command", metavar="ACTION", required=True)

    b = ss.add_parser("build", help="build a deck (default data: the embedded synthetic set)")
    b.add_argument("--pool", default=None, help="pool CSV/JSON (default: synthetic)")
    b.add_argument("--collection", default=None, help="owned pieces CSV/JSON")
    b.add_argument("--scores", default=None, help="scores NPZ/CSV (default: learnt from the "
                                                   "synthetic deck corpus)")
    b.add_argument("--cost", type=int, required=True, metavar="C", help="cost cap")
    b.add_argument("--attribute", default=None, choices=["god", "demon", "dragon"])
    b.add_argument("--attribute-min", type=int, default=10)
    b.add_argument("--must", default="", metavar="ID,...", help="pieces that must be in")
    b.add_argument("--leader", type=int, default=None, metavar="ID")
    b.add_argument("--char-limit", type=int, default=1)
    b.add_argument("--method", default="vds", choices=["vds", "hc", "greedy", "tabu", "exact",
                                                         "bnb"])
    b.add_argument("--seed", type=int, default=0)
    b.add_argument("--time-limit", type=float, default=None, metavar="S",
                   help="CPU seconds for the heuristics and bnb; wall seconds for exact "
                   "(default 60 for exact and bnb)")
    b.add_argument("--no-explain", action="store_true",
                   help="skip the binding-rule analysis (one rebuild per active rule)")
    b.add_argument("--synth-seed", type=int, default=0, help="seed of the synthetic data")
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
    m.add_argument("--time-limit", type=float, default=10.0)
    m.add_argument("--seed", type=int, default=0)
    m.add_argument("--target", type=float, default=None, help="stop at this value")
    m.add_argument("--method", default="tabu", choices=["tabu", "vds", "hc"])
    m.set_defaults(func=cmd_mdp)


def _ids(text: str, flag: str) -> tuple[int, ...]:
    try:
        return tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise InvalidInputError(f"{flag} {text!r}: expected piece ids like 1001,1002") from None


def cmd_build(args: argparse.Namespace) -> int:
    from gameopt.deck.build import build_deck
    from gameopt.deck.pool import Rules, read_collection, read_pool, read_scores, to_problem
    from gameopt.deck.scores import deck_scores
    from gameopt.deck.synth import synthesize

    if args.pool:
        pool = read_pool(args.pool)
        if not args.collection or not args.scores:
            raise InvalidInputError("deck build: --pool needs --collection and --scores")
        collection = read_collection(args.collection, pool)
        scores = read_scores(args.scores, pool)
    else:
        data = synthesize(args.synth_seed)
        pool, collection = data.pool, data.collection
        scores = deck_scores(data.decks, pool.ids)
    rules = Rules(cost_cap=args.cost, char_limit=args.char_limit, attribute=args.attribute,
                  attribute_min=args.attribute_min if args.attribute else 0,
                  must=_ids(args.must, "--must"), leader=args.leader)
    problem, ids = to_problem(pool, collection, rules, scores)
    if args.method in ("exact", "bnb"):
        from gameopt.deck.bnb import solve_bnb
        from gameopt.deck.exact import solve_exact

        if args.method == "bnb":
            ex = solve_bnb(problem, time_limit=args.time_limit or 60.0, seed=args.seed)
        else:
            ex = solve_exact(problem, time_limit=args.time_limit or 60.0)
        chosen, score = ex.deck, ex.score
        unit = "CPU" if args.method == "bnb" else "wall"
        how = (f"{args.method} in {ex.seconds:.1f} s {unit}, "
               + ("proven optimal" if ex.proven else
                  f"not proven: bound {ex.upper_bound:.3f}, gap {100 * ex.gap:.2f}%"))
    else:
        res = build_deck(problem, args.method, seed=args.seed, time_limit=args.time_limit)
        chosen, score = res.deck, res.score
        how = f"{res.method} in {res.seconds * 1000:.0f} ms CPU"
    _print_deck(problem, chosen, ids, pool, args)
    attrs = {a: 0 for a in ("god", "demon", "dragon")}
    total_cost = sum(pool[ids[i]].cost for i in chosen)
    for pid in [ids[i] for i in chosen] + ([args.leader] if args.leader is not None else []):
        attrs[pool[pid].attribute] = attrs.get(pool[pid].attribute, 0) + 1
    if args.leader is not None:
        total_cost += pool[args.leader].cost
    print(f"\nscore {score:.3f}, cost {total_cost}/{args.cost}, attributes "
          + ", ".join(f"{a} {n}" for a, n in attrs.items()) + f"; {how}")
    if not args.no_explain:
        from gameopt.deck.explain import binding_rules

        effects = binding_rules(problem, chosen, seed=args.seed)
        for e in effects:
            verdict = (f"binds: +{e.gain:.3f} without it" if e.binds
                       else "does not bind (no better deck without it)")
            print(f"rule {e.rule} ({e.usage}): {verdict}")
    return 0


def _print_deck(problem: DeckProblem, chosen: Sequence[int], ids: Sequence[int], pool: Pool,
                args: argparse.Namespace) -> None:
    from gameopt.deck.explain import contributions

    share = contributions(problem, chosen)
    rows: list[list[object]] = []
    for k, i in enumerate(chosen):
        piece = pool[ids[i]]
        rows.append([piece.id, piece.name, piece.attribute, piece.cost,
                     round(float(share[k]), 3)])
    if args.leader is not None:
        lp = pool[args.leader]
        rows.insert(0, [lp.id, lp.name + " (leader)", lp.attribute, lp.cost, "-"])
    print(format_table(["id", "name", "attribute", "cost", "contribution"], rows))


def cmd_scores(args: argparse.Namespace) -> int:
    from gameopt.deck.pool import read_pool, write_scores
    from gameopt.deck.scores import deck_scores, read_decks

    pool = read_pool(args.pool) if args.pool else None
    decks = read_decks(args.decks, pool)
    scores = deck_scores(decks, pool.ids if pool is not None else None)
    write_scores(scores, args.output)
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
    from gameopt.deck.mdp import solve_mdp

    if not Path(args.file).exists():
        raise InvalidInputError(f"{args.file}: no such file")
    r = solve_mdp(args.file, args.time_limit, args.seed, target=args.target,
                  method=args.method)
    print(f"{args.file}: value {r.value:.6f} after {r.cpu_to_best:.3f} s CPU (ran "
          f"{r.cpu_seconds:.3f} s){'; target reached' if r.reached else ''}")
    print("subset: " + " ".join(map(str, r.subset)))
    return 0
