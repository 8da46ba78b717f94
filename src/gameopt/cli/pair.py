"""``gameopt pair``: a Swiss Othello tournament from the command line, one SQLite file."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from gameopt.core import Limit, check_seconds
from gameopt.errors import InvalidInputError
from gameopt.pairing import DEFAULT_TIEBREAKS, METHODS, Tournament, formats
from gameopt.pairing.records import result_text

if TYPE_CHECKING:
    from gameopt.pairing import PenaltyParams, SimConfig

__all__ = ["register"]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("pair", help="Othello Swiss pairing: PAPP penalties, exact matching")
    ss = p.add_subparsers(dest="pair_command", metavar="ACTION", required=True)

    a = ss.add_parser("new", help="create a tournament file")
    a.add_argument("file", help="the tournament file to create (SQLite)")
    a.add_argument("--name", required=True, help="the tournament's name")
    a.add_argument("--country", default=None, help="the host country (one word, e.g. FRA)")
    a.add_argument("--date", default=None, help="YYYY-MM-DD")
    a.add_argument("--rounds", type=int, default=None, help="planned rounds")
    a.add_argument("--preset", default=None, choices=["tuned", "papp", "slim"],
                   help="the penalty weights stored with the tournament (default tuned: "
                        "chosen by simulation; papp: PAPP's terms alone)")
    a.add_argument("--params", default=None, metavar="PENALTIES.toml",
                   help="penalty weights to store (overrides of --preset)")
    a.set_defaults(func=cmd_new)

    a = ss.add_parser("penalties", help="show or change the tournament's penalty weights")
    a.add_argument("file", help="the tournament file")
    a.add_argument("--preset", default=None, choices=["tuned", "papp", "slim"],
                   help="store this preset (from the next round paired)")
    a.add_argument("--params", default=None, metavar="PENALTIES.toml",
                   help="store these weights (overrides of --preset, or of the stored "
                        "weights)")
    a.set_defaults(func=cmd_penalties)

    a = ss.add_parser("add", help="register players (one, or a CSV name,id,country,rating)")
    a.add_argument("file", help="the tournament file")
    a.add_argument("name", nargs="?", default=None,
                   help="the player's name (at most 100 characters)")
    a.add_argument("--id", default=None,
                   help="the player's id (default: the smallest unused number)")
    a.add_argument("--country", default=None, help="the player's country (one word, e.g. JPN)")
    a.add_argument("--rating", type=float, default=None, help="the player's rating")
    a.add_argument("--csv", default=None, metavar="PLAYERS.csv",
                   help="columns name[,id,country,rating]; all registered or none")
    a.add_argument("--from-round", type=int, default=None, metavar="R",
                   help="late entry: first round the player is paired in (default: next)")
    a.add_argument("--score", default=None, metavar="S",
                   help="late entry: points given for the rounds missed (0, 0.5, 1, ...)")
    a.set_defaults(func=cmd_add)

    a = ss.add_parser("pair", help="pair the next round and store it")
    a.add_argument("file", help="the tournament file")
    a.add_argument("--method", default="exact",
                   choices=[m for m in METHODS if m != "brute"],
                   help="pairing method (default exact)")
    a.add_argument("--params", default=None, metavar="PENALTIES.toml",
                   help="penalty weights for this round only (overrides of the stored "
                        "weights; default: the stored weights, see 'pair penalties')")
    a.add_argument("--why", action="store_true", help="show each table's penalty terms")
    a.add_argument("--stats", action="store_true",
                   help="show the run: CPU seconds, whether proven optimal, statistics")
    a.add_argument("--extra-round", action="store_true",
                   help="pair a round beyond the planned number of rounds")
    a.add_argument("--time-limit", type=float, default=None, metavar="S",
                   help="give up (storing nothing) after S seconds of CPU time (the clock "
                        "--stats reports); "
                        "default: no limit")
    a.set_defaults(func=cmd_pair)

    a = ss.add_parser("unpair", help="remove the last paired round (while it has no result)")
    a.add_argument("file", help="the tournament file")
    a.set_defaults(func=cmd_unpair)

    a = ss.add_parser("show", help="show a paired round's tables")
    a.add_argument("file", help="the tournament file")
    a.add_argument("round", type=int, help="the round to show")
    a.add_argument("--why", action="store_true", help="show each table's penalty terms")
    a.set_defaults(func=cmd_show)

    a = ss.add_parser(
        "result", help="enter results: one game, or a CSV who,black,white",
        description="One game: --table N BLACK WHITE or --player ID|NAME BLACK WHITE (or "
                    "WHO BLACK WHITE, where a number that could be a table or a player id "
                    "is refused). A no-show: --forfeit ID|NAME (the opponent wins by "
                    "forfeit: a win and 32 discs, the absent player a loss and 0 discs; "
                    "--forfeit ID|NAME --both when neither came). A sheet: --csv "
                    "RESULTS.csv.")
    a.add_argument("file", help="the tournament file")
    a.add_argument("round", type=int, help="the round of the game(s)")
    a.add_argument("values", nargs="*", metavar="WHO BLACK WHITE",
                   help="a table number or player id/name, then the disc counts")
    who = a.add_mutually_exclusive_group()
    who.add_argument("--table", nargs=3, default=None, metavar=("N", "BLACK", "WHITE"),
                     help="the game at table N")
    who.add_argument("--player", nargs=3, default=None, metavar=("ID|NAME", "BLACK", "WHITE"),
                     help="the game of a player (id or name)")
    who.add_argument("--forfeit", default=None, metavar="ID|NAME",
                     help="the player did not turn up: their opponent wins by forfeit")
    a.add_argument("--both", action="store_true",
                   help="with --forfeit: neither player turned up, both lose")
    a.add_argument("--csv", default=None, metavar="RESULTS.csv",
                   help="columns who,black,white; all entered or none")
    a.add_argument("--replace", action="store_true", help="correct a result already entered")
    a.set_defaults(func=cmd_result)

    a = ss.add_parser("replace", help="put a player (or BYE) in another's seat of the "
                                      "last round")
    a.add_argument("file", help="the tournament file")
    a.add_argument("round", type=int, help="the last paired round")
    a.add_argument("old", help="player id or name, or BYE")
    a.add_argument("new", help="player id or name, or BYE")
    a.set_defaults(func=cmd_replace)

    a = ss.add_parser("withdraw", help="withdraw a player from a round on")
    a.add_argument("file", help="the tournament file")
    a.add_argument("player", help="player id or name")
    a.add_argument("--from-round", type=int, default=None,
                   help="first round the player misses (default: the next round to pair)")
    a.set_defaults(func=cmd_withdraw)

    a = ss.add_parser("forbid", help="forbid two players to meet")
    a.add_argument("file", help="the tournament file")
    a.add_argument("a", help="player id or name")
    a.add_argument("b", help="player id or name")
    a.set_defaults(func=cmd_forbid)

    a = ss.add_parser("allow", help="remove a forbidden pair")
    a.add_argument("file", help="the tournament file")
    a.add_argument("a", help="player id or name")
    a.add_argument("b", help="player id or name")
    a.set_defaults(func=cmd_allow)

    a = ss.add_parser("swap", help="manually swap two players of an unplayed round")
    a.add_argument("file", help="the tournament file")
    a.add_argument("round", type=int, help="the last paired round")
    a.add_argument("a", help="player id or name")
    a.add_argument("b", help="player id or name")
    a.set_defaults(func=cmd_swap)

    a = ss.add_parser("standings", help="standings with Othello tie-breaks")
    a.add_argument("file", help="the tournament file")
    a.add_argument("--after-round", type=int, default=None,
                   help="standings after this paired round (default: the last)")
    a.add_argument("--buchholz", action="store_true", help="add the Buchholz tie-break")
    a.add_argument("--csv", action="store_true", help="print CSV instead of a table")
    a.set_defaults(func=cmd_standings)

    a = ss.add_parser("export", help="write pairings, standings, .ELO or TRF-like files")
    a.add_argument("file", help="the tournament file")
    a.add_argument("--elo", default=None, metavar="OUT.elo", help="WOF results file")
    a.add_argument("--trf", default=None, metavar="OUT.trf", help="TRF-like interchange")
    a.add_argument("--standings-csv", default=None, metavar="OUT.csv", help="the standings as CSV")
    a.add_argument("--pairing-csv", default=None, metavar="OUT.csv",
                   help="the last round's pairing")
    a.set_defaults(func=cmd_export)

    a = ss.add_parser("import", help="build a tournament file from an .ELO or TRF-like file")
    a.add_argument("source",
                   help="a .elo file (WOF) or a TRF file (FIDE TRF-16, ours or another program's)")
    a.add_argument("file", help="the tournament file to create")
    a.set_defaults(func=cmd_import)

    a = ss.add_parser(
        "check", help="list every rule the paired rounds break",
        description="Audit the rounds of a tournament file (.sqlite) or of a TRF or .ELO "
                    "file from another program: unpaired or twice-paired players, "
                    "forbidden pairs, rematches, second byes, the bye order, third same "
                    "colours in a row, colour differences beyond 2, and pairings that the "
                    "exact method beats. Exit status 1 when a rule is broken.")
    a.add_argument("file", help="a tournament file, or a .trf/.elo file")
    a.add_argument("--round", type=int, default=None, metavar="K",
                   help="check round K only (default: every paired round)")
    a.add_argument("--no-optimality", action="store_true",
                   help="skip the comparison with the exact pairing (one pairing a round)")
    a.add_argument("--params", default=None, metavar="PENALTIES.toml",
                   help="penalty weights for the comparison (default: a tournament file's "
                        "stored weights; the built-in defaults for a .trf/.elo file)")
    a.set_defaults(func=cmd_check)

    a = ss.add_parser("simulate", help="simulate random events under several pairing rules")
    a.add_argument("--events", type=int, default=100, help="events per rule (default 100)")
    a.add_argument("--players", type=int, default=100, help="players per event (default 100)")
    a.add_argument("--rounds", type=int, default=9, help="rounds per event (default 9)")
    a.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    a.add_argument("--rules", default="exact,slim,naive",
                   help="comma-separated methods (exact, networkx, slim, naive, brute) or "
                   "dutch, the Dutch-like comparison rule")
    a.add_argument("--workers", type=int, default=None,
                   help="worker processes (default: one per core)")
    a.add_argument("--scheduler", default=None, metavar="tcp://HOST:PORT",
                   help="a Dask scheduler to run the events on")
    a.add_argument("--params", default=None, metavar="PENALTIES.toml",
                   help="penalty weights of every rule (default: the built-in defaults, "
                        "the tuned preset; a file with preset = \"papp\" for PAPP's)")
    a.set_defaults(func=cmd_simulate)

    a = ss.add_parser("tune", help="tune the penalty weights for Kendall τ by simulation",
                      description="Coordinate search of the penalty weights (gameopt."
                      "pairing.tune.GRID) for the mean Kendall τ of final standings against "
                      "true strength, with no rematch, no bye above the lowest group and no "
                      "more colour-tier breaks; judged again on held-out seeds.")
    a.add_argument("--sizes", default="40x7,100x9", metavar="PxR,...",
                   help="event sizes, players x rounds (default 40x7,100x9)")
    a.add_argument("--events", type=int, default=20,
                   help="training events per size and candidate (default 20)")
    a.add_argument("--holdout", type=int, default=50,
                   help="held-out events per size (default 50)")
    a.add_argument("--max-evals", type=int, default=24,
                   help="candidates evaluated at most (default 24)")
    a.add_argument("--seed", type=int, default=0,
                   help="training seed; the held-out events use seed + 1 (default 0)")
    a.add_argument("--start", default=None, metavar="PENALTIES.toml",
                   help="starting weights (default: the built-in defaults)")
    a.add_argument("--out", default=None, metavar="TUNED.toml",
                   help="write the tuned weights here (only if better on the held-out set)")
    a.add_argument("--history", action="store_true",
                   help="print every candidate's training figures")
    a.add_argument("--compare", action="store_true",
                   help="also print exact, slim, dutch and naive before/after on the held-out "
                   "seeds")
    a.add_argument("--time-limit", type=float, default=None, metavar="S",
                   help="stop the search after S wall-clock seconds (the events run in workers)")
    a.add_argument("--workers", type=int, default=None,
                   help="worker processes (default: one per core)")
    a.add_argument("--scheduler", default=None, metavar="tcp://HOST:PORT",
                   help="a Dask scheduler to run the events on")
    a.set_defaults(func=cmd_tune)


def _open(path: str) -> Tournament:
    if not Path(path).exists():
        raise InvalidInputError(f"{path}: no such tournament file (create it with "
                                "'gameopt pair new')")
    return Tournament.open(path)


def _stored_params(args: argparse.Namespace, base: PenaltyParams) -> PenaltyParams:
    """The weights of ``--preset`` and ``--params`` over ``base``."""
    from gameopt.pairing import PenaltyParams

    if args.preset:
        base = PenaltyParams.preset(args.preset)
    return PenaltyParams.from_toml(args.params, base=base) if args.params else base


def _describe(params: PenaltyParams) -> str:
    from gameopt.pairing.tune import params_toml

    name = params.preset_name
    return f'preset = "{name}"\n' if name else params_toml(params)


def cmd_new(args: argparse.Namespace) -> int:
    from gameopt.pairing import PenaltyParams

    params = _stored_params(args, PenaltyParams())
    Tournament.create(args.file, args.name, args.country, args.date, args.rounds,
                      penalties=params).close()
    print(f"created {args.file} (penalties: {params.preset_name or 'custom'})")
    return 0


def cmd_penalties(args: argparse.Namespace) -> int:
    t = _open(args.file)
    if args.preset or args.params:
        t.set_penalties(_stored_params(args, t.penalties))
        print(f"{args.file}: penalties stored; they apply from round {t.next_round}")
    print(_describe(t.penalties), end="")
    return 0


def cmd_add(args: argparse.Namespace) -> int:
    t = _open(args.file)
    if args.csv:
        added = t.add_players(formats.read_players_csv(args.csv))
        print(f"registered {len(added)} players")
    else:
        if not args.name:
            raise InvalidInputError("pair add: give a NAME or --csv PLAYERS.csv")
        p = t.add_player(args.name, args.id, args.country, args.rating,
                         joined_round=args.from_round, score=_half_points(args.score))
        late = (f", from round {p.joined_round} with {p.initial_score / 2:g} points"
                if p.joined_round > 1 else "")
        print(f"registered {p.name} (id {p.id}{late})")
    return 0


def _half_points(text: str | None) -> int:
    """``--score`` in points (a multiple of 0.5) as half points."""
    if text is None:
        return 0
    try:
        half = float(text) * 2
    except ValueError:
        half = float("nan")
    if not half >= 0 or half != int(half) or half > 10_000:
        raise InvalidInputError(f"--score {text!r}: points as 0, 0.5, 1, 1.5, ...")
    return int(half)


def cmd_pair(args: argparse.Namespace) -> int:
    from gameopt.pairing import PenaltyParams, pair_round

    limit = Limit(time=check_seconds(args.time_limit, "--time-limit"), clock="cpu")
    t = _open(args.file)
    params = (PenaltyParams.from_toml(args.params, base=t.penalties) if args.params
              else t.penalties)
    t.check_planned(t.next_round, extra_round=args.extra_round)
    pairing = pair_round(t.round_input(), params, method=args.method, limit=limit)
    t.store_pairing(pairing, extra_round=args.extra_round)
    players = t.players()
    before = t.standings(pairing.round_no - 1)  # points before the round (and its bye)
    print(formats.format_pairing(pairing, players, before), end="")
    if args.why:
        print(formats.format_pairing_terms(pairing, players), end="")
    if args.stats:
        print(formats.format_pairing_run(pairing), end="")
    return 0


def cmd_unpair(args: argparse.Namespace) -> int:
    t = _open(args.file)
    last = t.last_round
    if last < 1:
        raise InvalidInputError(f"{args.file}: no round paired yet")
    t.delete_round(last)
    print(f"round {last} removed")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    t = _open(args.file)
    pairing = t.pairing(args.round)
    players = t.players()
    print(formats.format_pairing(pairing, players, t.standings(args.round - 1)), end="")
    if args.why:
        print(formats.format_pairing_terms(pairing, players), end="")
    return 0


def cmd_result(args: argparse.Namespace) -> int:
    t = _open(args.file)
    if args.both and args.forfeit is None:
        raise InvalidInputError("pair result: --both goes with --forfeit ID|NAME")
    if args.forfeit is not None:
        if args.values or args.csv:
            raise InvalidInputError("pair result: --forfeit ID|NAME takes no disc counts "
                                    "and no --csv")
        g = t.set_forfeit(args.round, args.forfeit, both=args.both, replace=args.replace)
        print(f"round {args.round} table {g.table}: {result_text(g)}")
        return 0
    named = args.table is not None or args.player is not None
    if args.csv:
        if args.values or named:
            raise InvalidInputError("pair result: --csv takes no WHO, --table or --player")
        results = formats.read_results_csv(args.csv)
        t.set_results(args.round, results, replace=args.replace)
        print(f"round {args.round}: {len(results)} results entered")
        return 0
    if len(args.values) != (0 if named else 3):
        raise InvalidInputError("pair result: give --table N BLACK WHITE, --player ID|NAME "
                                "BLACK WHITE, WHO BLACK WHITE or --csv RESULTS.csv")
    if args.table is not None:
        (key, black, white), by = args.table, "table"
    elif args.player is not None:
        (key, black, white), by = args.player, "player"
    else:
        (key, black, white), by = args.values, "auto"
    discs = [_discs(v, what) for v, what in ((black, "black"), (white, "white"))]
    g = t.set_result(args.round, key, *discs, replace=args.replace, by=by)
    print(f"round {args.round} table {g.table}: {result_text(g)}")
    return 0


def _discs(text: str, side: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise InvalidInputError(f"pair result: {side} discs {text!r} is not an integer"
                                ) from None


def cmd_replace(args: argparse.Namespace) -> int:
    warnings = _open(args.file).replace_player(args.round, args.old, args.new)
    for w in warnings:
        print(f"warning: {w}", file=sys.stderr)
    print(f"round {args.round}: {args.new} in {args.old}'s seat")
    return 0


def cmd_withdraw(args: argparse.Namespace) -> int:
    p = _open(args.file).withdraw(args.player, args.from_round)
    print(f"{p.name} (id {p.id}) withdrawn from round {p.withdrawn_round} on")
    return 0


def cmd_forbid(args: argparse.Namespace) -> int:
    t = _open(args.file)
    a, b = t.player(args.a), t.player(args.b)
    t.forbid(a.id, b.id)
    print(f"{a.name} (id {a.id}) and {b.name} (id {b.id}) will not be paired")
    return 0


def cmd_allow(args: argparse.Namespace) -> int:
    t = _open(args.file)
    a, b = t.player(args.a), t.player(args.b)
    t.allow(a.id, b.id)
    print(f"{a.name} and {b.name} may be paired again")
    return 0


def cmd_swap(args: argparse.Namespace) -> int:
    warnings = _open(args.file).swap_players(args.round, args.a, args.b)
    for w in warnings:
        print(f"warning: {w}", file=sys.stderr)
    print(f"round {args.round}: swapped {args.a} and {args.b}")
    return 0


def cmd_standings(args: argparse.Namespace) -> int:
    tiebreaks = DEFAULT_TIEBREAKS + (("buchholz",) if args.buchholz else ())
    t = _open(args.file)
    last = t.last_round
    if args.after_round is not None and not 1 <= args.after_round <= last:
        raise InvalidInputError(
            f"--after-round {args.after_round}: "
            + (f"choose a paired round, 1..{last}" if last else "no round paired yet"))
    rows = t.standings(args.after_round, tiebreaks=tiebreaks)
    print(formats.format_standings_csv(rows, tiebreaks) if args.csv
          else formats.format_standings(rows, tiebreaks), end="")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    t = _open(args.file)
    done = []
    if args.elo:
        formats.write_elo(args.elo, t.snapshot())
        done.append(args.elo)
    if args.trf:
        formats.write_trf(args.trf, t.snapshot())
        done.append(args.trf)
    if args.standings_csv:
        formats.write_standings_csv(args.standings_csv, t.standings())
        done.append(args.standings_csv)
    if args.pairing_csv:
        last = t.last_round
        if last < 1:
            raise InvalidInputError(f"{args.file}: no round paired yet")
        formats.write_pairing_csv(args.pairing_csv, t.pairing(last), t.players(),
                                  t.standings(last - 1))  # points before the round
        done.append(args.pairing_csv)
    if not done:
        raise InvalidInputError("pair export: choose --elo, --trf, --standings-csv or "
                                "--pairing-csv")
    print("wrote " + ", ".join(done))
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    t = formats.import_tournament(args.source, args.file)
    n = t.last_round
    print(f"created {args.file} with {len(t.players())} players, {n} "
          f"round{'' if n == 1 else 's'}")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    from gameopt.pairing import PenaltyParams
    from gameopt.pairing.check import check_round

    path = Path(args.file)
    if not path.is_file():
        raise InvalidInputError(f"{path}: no such file")
    with path.open("rb") as f:
        sqlite = f.read(16) == b"SQLite format 3\x00"
    base = PenaltyParams()
    if sqlite:
        with Tournament.open(path) as t:
            data = t.snapshot()
            base = t.penalties
    else:
        data = formats.read_tournament_file(path)
    params = PenaltyParams.from_toml(args.params, base=base) if args.params else base
    paired = sorted({g.round_no for g in data.games})
    if args.round is not None and args.round not in paired:
        raise InvalidInputError(f"{path}: round {args.round} is not paired (rounds "
                                f"{', '.join(map(str, paired)) or 'none'})")
    rounds = [args.round] if args.round is not None else paired
    broken = 0
    for k in rounds:
        found = check_round(data.players, data.games, k, data.forbidden, params=params,
                            optimality=not args.no_optimality)
        for b in found:
            print(b)
        if not found:
            print(f"round {k}: no rule broken")
        broken += len(found)
    return 1 if broken else 0


def cmd_simulate(args: argparse.Namespace) -> int:
    from gameopt.cli.common import progress_for
    from gameopt.core.table import format_table
    from gameopt.pairing import PenaltyParams, SimConfig, simulate_rules
    from gameopt.pairing.simulate import SUMMARY_COLUMNS

    rules = [r.strip() for r in args.rules.split(",") if r.strip()]
    cfg = SimConfig(players=args.players, rounds=args.rounds)
    params = PenaltyParams.from_toml(args.params) if args.params else None
    rows = simulate_rules(rules, cfg, events=args.events, seed=args.seed,
                          workers=args.workers, scheduler=args.scheduler,
                          progress=progress_for(False), params=params)
    print(format_table(list(SUMMARY_COLUMNS), rows))
    return 0


def _sizes(text: str) -> list[SimConfig]:
    from gameopt.pairing import SimConfig

    out: list[SimConfig] = []
    for part in text.split(","):
        players, sep, rounds = part.strip().lower().partition("x")
        if not sep or not players.isdigit() or not rounds.isdigit():
            raise InvalidInputError(f"--sizes: expected PLAYERSxROUNDS, e.g. 40x7, got "
                                    f"{part.strip()!r}")
        out.append(SimConfig(players=int(players), rounds=int(rounds)))
    return out


def cmd_tune(args: argparse.Namespace) -> int:
    from gameopt.cli.common import progress_for
    from gameopt.core import check_count
    from gameopt.core.files import atomic_write_text
    from gameopt.core.table import format_table
    from gameopt.pairing import PenaltyParams
    from gameopt.pairing.tune import (
        COMPARE_COLUMNS,
        COMPARE_RULES,
        GRID,
        compare_rules,
        params_toml,
        tune_and_validate,
        weight_value,
    )

    configs = _sizes(args.sizes)
    check_count(args.events, "--events")
    check_count(args.holdout, "--holdout", minimum=2)
    check_count(args.max_evals, "--max-evals")
    if args.seed < 0:
        raise InvalidInputError(f"--seed: expected a non-negative integer, got {args.seed}")
    if args.workers is not None:
        check_count(args.workers, "--workers")
    seconds = check_seconds(args.time_limit, "--time-limit")
    start = PenaltyParams.from_toml(args.start) if args.start else PenaltyParams()
    v = tune_and_validate(configs, events=args.events, holdout=args.holdout, seed=args.seed,
                          start=start, max_evals=args.max_evals,
                          limit=Limit(time=seconds, clock="wall"), workers=args.workers,
                          scheduler=args.scheduler, progress=progress_for(False))
    r = v.result
    names = list(GRID)
    print(f"search: {r.stats['evaluations']} candidates, {r.stats['passes']} passes, "
          f"{r.stats['events']} events each, stopped: {r.stats['stopped']}, "
          f"{r.seconds:.1f} s ({r.clock})")
    rows = [[label, *(weight_value(e.params, n) for n in names), round(e.tau, 4), e.rematches,
             e.colour_breaks, e.high_byes]
            for label, e in (("start (training)", r.start), ("tuned (training)", r.best),
                             ("start (held-out)", v.before), ("tuned (held-out)", v.after))]
    print(format_table(["weights", *names, "Kendall τ", "rematches", "colour breaks",
                        "high byes"], rows))
    if args.history:
        print(format_table(["candidate", *names, "Kendall τ", "rematches", "colour breaks",
                            "high byes"],
                           [[k + 1, *(weight_value(e.params, x) for x in names),
                             round(e.tau, 4), e.rematches, e.colour_breaks, e.high_byes]
                            for k, e in enumerate(r.history)]))
    mean, low, high = v.difference
    n = len(v.after.taus)
    print(f"held-out τ difference (tuned − start) over {n} paired events: {mean:+.4f} "
          f"(95% CI {low:+.4f} .. {high:+.4f})")
    print("tuned weights are better on the held-out events" if v.better else
          "tuned weights are NOT better on the held-out events; keep the start")
    if args.compare:
        rows2 = compare_rules({"start": r.start.params, "tuned": r.params},
                              list(COMPARE_RULES), configs, events=args.holdout,
                              seed=args.seed + 1, workers=args.workers,
                              scheduler=args.scheduler)
        print(format_table(list(COMPARE_COLUMNS), rows2))
    if args.out:
        if not v.better:
            print(f"{args.out}: not written (not better on the held-out events)")
        else:
            atomic_write_text(args.out, params_toml(r.params))
            print(f"{args.out}: tuned weights written")
    return 0
