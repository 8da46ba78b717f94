"""The deck rules as CP-SAT constraints, written once for every CP-SAT model of a deck.

Two models use them: the exact model of the score (:func:`gameopt.deck.exact.build_deck_model`)
and the least-cost model that gives the heuristics a start when their greedy construction
finds none (:func:`build_start_model`). Both are solved through :func:`gameopt.ip.solve`.
"""

from __future__ import annotations

import numpy as np
from ortools.sat.python import cp_model

from gameopt.deck.problem import DeckProblem

__all__ = ["add_rule_constraints", "build_start_model", "choice_variables"]


def choice_variables(model: cp_model.CpModel, problem: DeckProblem) -> list[cp_model.IntVar]:
    """One 0/1 variable per piece: ``x[i]`` is 1 when piece i is in the deck."""
    return [model.new_bool_var(f"x{i}") for i in range(problem.n)]


def add_rule_constraints(model: cp_model.CpModel, problem: DeckProblem,
                         x: list[cp_model.IntVar]) -> None:
    """Add every rule of ``problem`` over the choice variables ``x``.

    One block per constraint family: size, must-include, cost cap, per-character limit
    (only for characters with more pieces than their limit), attribute minimum,
    forbidden pairs.
    """
    # Size
    model.add(sum(x) == problem.size)
    # Must-include
    for i in problem.must:
        model.add(x[i] == 1)
    # Cost cap
    if problem.cost_cap is not None and problem.cost is not None:
        model.add(sum(int(c) * xi for c, xi in zip(problem.cost, x, strict=True) if c)
                  <= problem.cost_cap)
    # Per-character limit
    if problem.character is not None:
        limits = problem.char_limits()
        for ch in np.unique(problem.character):
            members = np.flatnonzero(problem.character == ch)
            if len(members) > limits[ch]:
                model.add(sum(x[int(i)] for i in members) <= int(limits[ch]))
    # Attribute minimum
    if problem.attribute_min > 0:
        have = [x[int(i)] for i in np.flatnonzero(problem.attribute)] \
            if problem.attribute is not None else []
        model.add(sum(have) >= problem.attribute_min)
    # Forbidden pairs
    for i, j in problem.forbidden_pairs:
        model.add(x[i] + x[j] <= 1)


def build_start_model(problem: DeckProblem
                      ) -> tuple[cp_model.CpModel, list[cp_model.IntVar]]:
    """A deck of least cost under every rule: ``(model, x)``.

    Its optimum is a feasible deck, and its infeasibility a proof that no deck keeps the
    rules.
    """
    model = cp_model.CpModel()
    model.name = "deck start"
    x = choice_variables(model, problem)
    add_rule_constraints(model, problem, x)
    # Objective: least cost
    cost = problem.cost if problem.cost is not None else np.zeros(problem.n, np.int32)
    model.minimize(sum(int(cost[i]) * x[i] for i in range(problem.n)))
    return model, x
