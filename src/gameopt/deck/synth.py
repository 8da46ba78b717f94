"""Seeded synthetic deck data: a pool in archetypes, a collection and a deck corpus.

The model, in the spirit of a collectible piece game:

* **Archetypes.** Piece kinds are split into ``archetypes`` themes (sizes vary around
  the mean) plus a share of generic *staples*. Each archetype has a main attribute
  that most of its pieces carry. Archetype popularity follows a Zipf-like law.
* **Characters and evolved forms.** Kinds come in runs of 1–3 forms of one character
  (same archetype and attribute), the later forms rarer.
* **Costs by rarity.** Rarity C/B/A/S with decreasing frequency; cost drawn uniformly
  from a per-rarity range (C 5–10, B 8–14, A 12–20, S 18–28).
* **Collection.** ``collection`` distinct kinds, sampled with weights favouring
  common rarities.
* **Decks.** A deck picks an archetype, a leader among its A/S pieces, then 15 pieces
  by weighted sampling without replacement (Gumbel top-k) from the archetype (most
  of the weight), the staples, and a little from everything else — one piece per
  character. Row format: leader first.

Everything is vectorised per archetype.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from gameopt.core.rng import make_rng
from gameopt.deck.formats import write_collection, write_decks, write_pool
from gameopt.deck.pool import ATTRIBUTES, Collection, Piece, Pool, Scores
from gameopt.deck.scores import deck_scores
from gameopt.errors import InvalidInputError

__all__ = ["SynthData", "synthesize", "synthetic_data", "write_synth", "RARITY_COST"]

RARITIES = ("C", "B", "A", "S")
RARITY_P = (0.40, 0.30, 0.20, 0.10)
RARITY_COST = {"C": (5, 10), "B": (8, 14), "A": (12, 20), "S": (18, 28)}
DECK_SIZE = 16


@dataclass(frozen=True, eq=False)
class SynthData:
    """Synthetic data set.

    Attributes
    ----------
    pool : Pool
    collection : Collection
    decks : ndarray of int64, shape (N, 16)
        Piece ids, leader first.
    archetype : ndarray of int64, shape (kinds,)
        Archetype of each pool piece (pool order); -1 for staples.
    """

    pool: Pool
    collection: Collection
    decks: npt.NDArray[np.int64]
    archetype: npt.NDArray[np.int64]


def synthesize(seed: int | None = 0, kinds: int = 4000, collection: int = 2000,
               decks: int = 20000, archetypes: int = 40, staples: float = 0.15) -> SynthData:
    """Generate a pool, a collection and a deck corpus (see the module notes).

    Parameters
    ----------
    seed : int or None
    kinds, collection, decks : int
        Piece kinds, owned kinds, decks in the corpus.
    archetypes : int
        Number of themes.
    staples : float
        Share of kinds that belong to no archetype.

    Returns
    -------
    SynthData

    Raises
    ------
    InvalidInputError
        Sizes too small to fill a deck (too few kinds for the archetypes, an archetype
        that drew no pieces or fewer than 16 characters to draw on), or a collection
        larger than the pool.

    Notes
    -----
    O(kinds + decks · (m + s log s)) time, m = candidates per archetype.
    """
    if archetypes < 1 or kinds < archetypes * 2 * DECK_SIZE:
        raise InvalidInputError(f"synth: kinds={kinds} too few for {archetypes} archetypes "
                                f"of at least {2 * DECK_SIZE} pieces")
    if not 0 <= collection <= kinds or decks < 0 or not 0 <= staples < 1:
        raise InvalidInputError(f"synth: collection={collection}, decks={decks}, "
                                f"staples={staples} out of range for kinds={kinds}")
    rng = make_rng(seed)
    pool, arch, weight = _make_pool(rng, kinds, archetypes, staples)
    sizes = np.bincount(arch[arch >= 0], minlength=archetypes)
    if decks and (sizes == 0).any():  # a deck of that archetype would have no leader
        raise InvalidInputError(f"synth: archetype {int(np.argmin(sizes))} drew no pieces "
                                f"with kinds={kinds}, archetypes={archetypes}, "
                                f"staples={staples}: give more kinds or fewer archetypes")
    owned = _make_collection(rng, pool, collection)
    corpus = _make_decks(rng, pool, arch, weight, archetypes, decks)
    return SynthData(pool, owned, corpus, arch)


def _make_pool(rng: np.random.Generator, kinds: int, n_arch: int, staples: float
               ) -> tuple[Pool, npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    # character runs of 1-3 evolved forms
    forms = rng.choice([1, 2, 3], size=kinds, p=[0.5, 0.3, 0.2])
    char = np.repeat(np.arange(kinds), forms)[:kinds]
    n_char = int(char[-1]) + 1
    form = np.arange(kinds) - np.searchsorted(char, char)  # 0 for the base form
    # archetype per character: staples (-1) or a theme, sizes varying (Dirichlet shares)
    shares = rng.dirichlet(np.full(n_arch, 4.0))
    char_arch = np.where(rng.random(n_char) < staples, -1,
                         rng.choice(n_arch, size=n_char, p=shares)).astype(np.int64)
    arch = char_arch[char]
    main_attr = rng.integers(0, 3, size=n_arch)
    char_attr = np.where((char_arch >= 0) & (rng.random(n_char) < 0.8),
                         main_attr[np.maximum(char_arch, 0)], rng.integers(0, 3, size=n_char))
    attr = char_attr[char]
    base_r = rng.choice(4, size=n_char, p=RARITY_P)
    rarity = np.minimum(base_r[char] + form, 3)
    lo = np.array([RARITY_COST[r][0] for r in RARITIES])[rarity]
    hi = np.array([RARITY_COST[r][1] for r in RARITIES])[rarity]
    cost = rng.integers(lo, hi + 1)
    # in-archetype popularity: rarer pieces are played more, with a heavy tail
    weight = rng.lognormal(0.0, 0.8, size=kinds) * (1.0 + 0.5 * rarity)
    ids = 1000 + np.arange(kinds)
    pieces = tuple(
        Piece(id=int(ids[i]), name=f"{'staple' if arch[i] < 0 else f'a{arch[i]}'}-c{char[i]}"
              f"-f{form[i]}", character=int(char[i]), attribute=ATTRIBUTES[int(attr[i])],
              cost=int(cost[i]), rarity=RARITIES[int(rarity[i])])
        for i in range(kinds))
    return Pool(pieces), arch, weight


def _make_collection(rng: np.random.Generator, pool: Pool, size: int) -> Collection:
    r = np.array([RARITIES.index(p.rarity) for p in pool.pieces])
    w = np.array([1.0, 0.8, 0.55, 0.35])[r]
    keys = np.log(w) + rng.gumbel(size=len(w))
    pick = np.sort(np.argsort(-keys)[:size])
    return Collection(tuple(pool.pieces[i].id for i in pick.tolist()))


def _make_decks(rng: np.random.Generator, pool: Pool, arch: npt.NDArray[np.int64],
                weight: npt.NDArray[np.float64], n_arch: int, n_decks: int
                ) -> npt.NDArray[np.int64]:
    ids = np.array(pool.ids, dtype=np.int64)
    char = np.array([p.character for p in pool.pieces], dtype=np.int64)
    rarity = np.array([RARITIES.index(p.rarity) for p in pool.pieces])
    pop = 1.0 / np.arange(1, n_arch + 1) ** 0.8
    deck_arch = rng.choice(n_arch, size=n_decks, p=pop / pop.sum())
    out = np.empty((n_decks, DECK_SIZE), dtype=np.int64)
    for a in range(n_arch):
        rows = np.flatnonzero(deck_arch == a)
        if rows.size:
            out[rows] = _decks_of(rng, a, rows.size, arch, weight, char, rarity, ids)
    return out


def _decks_of(rng: np.random.Generator, a: int, m: int, arch: npt.NDArray[np.int64],
              weight: npt.NDArray[np.float64], char: npt.NDArray[np.int64],
              rarity: npt.NDArray[np.int64], ids: npt.NDArray[np.int64]
              ) -> npt.NDArray[np.int64]:
    members = np.flatnonzero(arch == a)
    staples = np.flatnonzero(arch < 0)
    rest = np.flatnonzero((arch >= 0) & (arch != a))
    others = rng.choice(rest, size=min(64, len(rest)), replace=False)  # few archetypes: all
    parts = [(g, share) for g, share in ((members, 30.0), (staples, 4.0), (others, 1.0))
             if len(g)]
    cand = np.concatenate([g for g, _ in parts])
    w = np.concatenate([weight[g] * share / weight[g].sum() for g, share in parts])
    if len(np.unique(char[cand])) < DECK_SIZE:
        raise InvalidInputError(f"synth: archetype {a} can draw on only "
                                f"{len(np.unique(char[cand]))} characters, a deck needs "
                                f"{DECK_SIZE}: give more kinds or fewer archetypes")
    lw = rarity[members] >= 2
    leaders_pool = members[lw] if lw.any() else members
    lp = weight[leaders_pool] / weight[leaders_pool].sum()
    leaders = rng.choice(leaders_pool, size=m, p=lp)
    depth = min(len(cand), 40)
    keys = np.log(w) + rng.gumbel(size=(m, len(cand)))
    order = np.argpartition(-keys, depth - 1, axis=1)[:, :depth]
    order = np.take_along_axis(order, np.argsort(-np.take_along_axis(keys, order, 1), 1), 1)
    out = np.empty((m, DECK_SIZE), dtype=np.int64)
    cand_char = char[cand]
    for r in range(m):
        lead = int(leaders[r])
        seen = {int(char[lead])}
        deck = [lead]
        _fill(deck, seen, order[r].tolist(), cand, cand_char)
        if len(deck) < DECK_SIZE:  # rare: fall back to a full ranking
            _fill(deck, seen, np.argsort(-keys[r]).tolist(), cand, cand_char)
        out[r] = ids[deck]
    return out


def synthetic_data(seed: int | None = 0) -> tuple[Pool, Collection, Scores]:
    """The pool and collection of ``synthesize(seed)``, with scores learnt from its decks
    (:func:`gameopt.deck.scores.deck_scores`): the default data of ``gameopt deck build``."""
    data = synthesize(seed)
    return data.pool, data.collection, deck_scores(data.decks, data.pool.ids)


def write_synth(directory: str | Path, data: SynthData | None = None, *,
                seed: int | None = 0) -> dict[str, Path]:
    """Write ``pool.csv``, ``collection.csv`` and ``decks.csv`` into ``directory``.

    Each file is written atomically. ``data`` defaults to ``synthesize(seed)``.
    Returns the paths by name.
    """
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    data = data if data is not None else synthesize(seed)
    paths = {"pool": d / "pool.csv", "collection": d / "collection.csv",
             "decks": d / "decks.csv"}
    write_pool(paths["pool"], data.pool)
    write_collection(paths["collection"], data.collection)
    write_decks(paths["decks"], data.decks)
    return paths


def _fill(deck: list[int], seen: set[int], ranked: list[int], cand: npt.NDArray[np.int64],
          cand_char: npt.NDArray[np.int64]) -> None:
    """Append candidates in ``ranked`` order, one per character, until the deck is full."""
    for c in ranked:
        ch = int(cand_char[c])
        if ch not in seen:
            seen.add(ch)
            deck.append(int(cand[c]))
            if len(deck) == DECK_SIZE:
                return
