"""Why a deck looks the way it does: each piece's share of the score and the binding rules.

A rule *binds* when dropping it lets a better deck exist. :func:`binding_rules` measures
that: for each active rule it rebuilds the deck without that rule, starting from the
deck itself (so the relaxed score is never lower), and reports the gain. The gain is a
lower bound on what the rule costs (the rebuild is a heuristic); a gain of 0 means no
better deck was found without the rule.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from gameopt.deck.build import build_deck
from gameopt.deck.pool import ATTRIBUTES, PieceId, Pool
from gameopt.deck.problem import DeckProblem, deck_score

__all__ = ["RuleEffect", "binding_rules", "contributions", "deck_totals"]


@dataclass(frozen=True)
class RuleEffect:
    """One active rule: its name, how the deck stands against it, and the score gained
    by dropping it (≥ 0)."""

    rule: str
    usage: str
    gain: float

    @property
    def binds(self) -> bool:
        return self.gain > 1e-9


def contributions(problem: DeckProblem, deck: Sequence[int]) -> npt.NDArray[np.float64]:
    """Each piece's share: half its scores with the other pieces plus its leader score.

    The shares sum to :func:`~gameopt.deck.problem.deck_score`.
    """
    d = np.asarray(deck, dtype=np.int64)
    share = problem.R[np.ix_(d, d)].astype(np.float64).sum(axis=1) / 2.0
    if problem.leader_scores is not None:
        share += problem.leader_scores[d]
    return np.asarray(share, dtype=np.float64)


def _relaxations(p: DeckProblem, deck: Sequence[int]) -> list[tuple[str, str, DeckProblem]]:
    d = list(deck)
    out = []
    if p.cost_cap is not None and p.cost is not None:
        out.append(("cost cap", f"{int(p.cost[d].sum())}/{p.cost_cap}",
                    dataclasses.replace(p, cost_cap=None)))
    if p.character is not None:
        counts = np.bincount(p.character[d], minlength=len(p.char_limits()))
        full = int((counts >= p.char_limits()).sum())
        if full:
            out.append(("character limit", f"{full} characters at their limit",
                        dataclasses.replace(p, char_limit=10**9)))
    if p.attribute_min > 0 and p.attribute is not None:
        out.append(("attribute minimum",
                    f"{int((p.attribute[d] != 0).sum())}/{p.attribute_min}",
                    dataclasses.replace(p, attribute_min=0)))
    if p.must:
        out.append(("must-include", f"{len(p.must)} pieces", dataclasses.replace(p, must=())))
    return out


def binding_rules(problem: DeckProblem, deck: Sequence[int], *, seed: int | None = 0,
                  restarts: int = 5) -> list[RuleEffect]:
    """The gain of dropping each active rule, one at a time.

    Parameters
    ----------
    problem : DeckProblem
    deck : sequence of int
        A deck that keeps every rule (the start of each rebuild).
    seed, restarts
        Of each VDS rebuild.

    Returns
    -------
    list of RuleEffect
        One per active rule (cost cap, character limits with a character at its limit,
        attribute minimum, must-include), in that order.

    Notes
    -----
    One VDS build per active rule (at most four).
    """
    base = deck_score(problem, deck)
    out = []
    for name, usage, relaxed in _relaxations(problem, deck):
        r = build_deck(relaxed, "vds", seed=seed, restarts=restarts, start=deck)
        out.append(RuleEffect(name, usage, max(0.0, r.score - base)))
    return out


def deck_totals(pool: Pool, pieces: Sequence[PieceId], leader: PieceId | None = None
                ) -> tuple[int, dict[str, int]]:
    """Total cost and pieces of each attribute of a deck, its leader included."""
    whole = list(pieces) + ([leader] if leader is not None else [])
    attrs = {a: 0 for a in ATTRIBUTES}
    for pid in whole:
        attrs[pool[pid].attribute] = attrs.get(pool[pid].attribute, 0) + 1
    return sum(pool[pid].cost for pid in whole), attrs
