"""Template of the combinatorial evolution kernel (see :mod:`gameopt.localsearch.evolution`).

This file is the one source of the engine. :mod:`gameopt.localsearch._specialise` writes,
per problem, a copy whose line marked ``OPERATORS`` imports that problem's operators as
module globals, so numba compiles a kernel with the operators inlined at native speed and
caches it on disk (numba cannot cache kernels that take dispatchers as arguments across
processes). Imported as it is, the placeholders below make the kernel raise.

The whole population state lives in arrays owned by the caller, so a search can be cut
into chunks of epochs (to check deadlines and report progress) without changing its
course: same seed, same result.

State arrays (``P`` organisms, solutions of length ``L``):

* ``pop``   (P, L)  solutions
* ``err``   (P,)    int64 error of each solution (always equal to ``error(pop[i])``)
* ``age``   (P,)    int64 epochs without improvement
* ``best``  (L,)    best solution of this run; ``stat[0]`` its error
* ``stat``  int64 [best_err, epochs_done, neighbour_evals, accepted, deaths, merges]
"""

from __future__ import annotations

from numba import njit

import gameopt.localsearch._placeholder_ops as ops  # OPERATORS

# Indices into the int64 ``stat`` array.
BEST_ERR = 0
EPOCHS = 1
EVALS = 2
ACCEPTED = 3
DEATHS = 4
MERGES = 5
STAT_SIZE = 6


@njit(cache=True)
def init_population(data, rng, pop, err, age, best, stat):
    """Fill every organism with a fresh random solution; reset the run's best."""
    stat[:] = 0
    stat[BEST_ERR] = -1
    for i in range(pop.shape[0]):
        ops.random_fill(data, rng, pop[i])
        err[i] = ops.error(data, pop[i])
        age[i] = 0
        if stat[BEST_ERR] < 0 or err[i] < stat[BEST_ERR]:
            stat[BEST_ERR] = err[i]
            best[:] = pop[i]


@njit(cache=True)
def run_epochs(data, rng, pop, err, age,
               best, stat, move, n_workers, n_epochs,
               mistake_prob, max_age, merge_prob, accept_equal, target):
    """Run up to ``n_epochs`` epochs; stop early when the best error reaches ``target``.

    Organisms ``0 .. n_workers-1`` are workers, the rest explorers.
    Per epoch: each worker tries one neighbour (kept if better, or equal when
    ``accept_equal``, or by mistake with probability ``mistake_prob``; else undone and the
    organism ages, dying into a fresh random solution past ``max_age``); each explorer
    draws a fresh random solution; then the best worker and best explorer merge into a
    child that replaces the worst worker.
    """
    n_org = pop.shape[0]
    for _ in range(n_epochs):
        if stat[BEST_ERR] <= target:
            return
        for i in range(n_org):
            if i < n_workers:
                old = err[i]
                new = ops.neighbour(data, rng, pop[i], old, move)
                stat[EVALS] += 1
                if new < old or (accept_equal and new == old) or rng.random() < mistake_prob:
                    err[i] = new
                    stat[ACCEPTED] += 1
                    if new < old:
                        age[i] = 0
                    else:
                        age[i] += 1
                else:
                    ops.undo(data, pop[i], move)
                    age[i] += 1
                if age[i] > max_age:
                    ops.random_fill(data, rng, pop[i])
                    err[i] = ops.error(data, pop[i])
                    age[i] = 0
                    stat[DEATHS] += 1
            else:
                ops.random_fill(data, rng, pop[i])
                err[i] = ops.error(data, pop[i])
            if err[i] < stat[BEST_ERR]:
                stat[BEST_ERR] = err[i]
                best[:] = pop[i]
        stat[EPOCHS] += 1
        if n_workers < n_org and n_workers > 1:
            bw = 0
            ww = 0
            for i in range(1, n_workers):
                if err[i] < err[bw]:
                    bw = i
                if err[i] > err[ww]:
                    ww = i
            be = n_workers
            for i in range(n_workers + 1, n_org):
                if err[i] < err[be]:
                    be = i
            if ww != bw:
                ops.merge(data, rng, pop[bw], pop[be], pop[ww], merge_prob)
                err[ww] = ops.error(data, pop[ww])
                age[ww] = 0
                stat[MERGES] += 1
                if err[ww] < stat[BEST_ERR]:
                    stat[BEST_ERR] = err[ww]
                    best[:] = pop[ww]
