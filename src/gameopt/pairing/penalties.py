"""PAPP's pairing penalties and SLIM's changes, one small function per term.

Each Swiss round the engine picks the perfect matching of the field with the least total
penalty (Nakajima 2002, after the PAPP documentation). The penalty of a game with ``i``
black and ``j`` white is

    p_ij = pen_color(i, BLACK) + pen_color(j, WHITE) + pen_undulation(i, j)
           + pen_repetition(i, j) + pen_chauvinism(i, j) + pen_elitism(i, j)

and SLIM (Nakajima's program) drops the colour and country terms and adds
:func:`pen_undulation2`, the rank distance inside and across score groups. Scores are in
half points, ``S = 2·wins + draws``. The edge cost of a pair is the cheaper of its two
colour assignments (:func:`pair_cost`), and that assignment is the one printed.

PAPP's own numbers are not public. The built-in defaults, ``PenaltyParams()``, are the
``"tuned"`` preset (:data:`DEFAULT_PRESET`): PAPP's terms with the Dutch-like halves term
and the first colour alternating down the boards, chosen by simulation for the Kendall τ
of the final standings (:mod:`~gameopt.pairing.tune`; README, "Pairing").
``PenaltyParams.papp()`` (``preset = "papp"``) is PAPP's terms alone, the defaults before
the tuning. The weights of both are chosen to act as tiers, checked by the tests over
events of up to 20 rounds:

* a rematch (``p_clopp`` ≥ 10⁶) costs more than any float (``p_und[40]`` = 160,000 plus
  elitism, flood corrections and colour);
* two one-win floats (``F = 2`` each, 2 × 400) cost less than one two-win float
  (``F = 4``, 1,600), whatever the flood and elitism corrections;
* colour never outweighs a float: a pair's colour cost (≤ 2 × 27) plus the country term
  (20) is below the cheapest float (a draw's ``p_und[1]`` = 100 less 2 × ``min_fac``);
  one place of the bye (``p_byerank`` = 75) lies between the two.

The Dutch-like halves term (:func:`pen_halves`, ``"halves"``) prices how far two players
of one score group are from half the group apart (the Dutch system's top half against
bottom half). It has no colour but the exact methods rank it with the colour cost, below
the colour tier (:data:`COLOUR_TERMS`): it chooses among the pairings that are best on
floats, rematches, the bye and the colour tier, and never buys one of those back.

Tables indexed by a count (``p_col``, ``p_und``) or by the round (``p_chauv``,
``p_elects``, entry ``r − 1`` for round ``r``) take their last entry past their end.

The bye is the dummy player an odd field gets (:data:`~gameopt.pairing.model.BYE`);
:func:`pen_bye` prices it (a second bye to a player costs more than anything else a
pairing can save). Who gets it is a hard tier above these terms, applied by
:func:`~gameopt.pairing.pairer.pair_round` for the optimal methods: the lowest-ranked
player of the lowest score group who has not had one, whenever a pairing without a
rematch or a second bye allows it.

:func:`cost_matrix` builds every pair's cost at once with numpy (what the matching needs);
:func:`pair_cost` is the scalar statement of the same costs, used to explain a table and,
by the tests, as the reference for the matrix.

References
----------
.. [1] T. Nakajima, "Pairing Algorithm", 2002 (PAPP's penalty model, SLIM's changes).
.. [2] PAPP, the Othello pairing program of the World Othello Federation (its documentation
   is the source of [1]).
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from gameopt.core.files import read_text
from gameopt.errors import InvalidInputError
from gameopt.pairing.model import BYE, Colour, PlayerState, RoundInput

__all__ = [
    "ALL_TERMS",
    "DEFAULT_PRESET",
    "PRESETS",
    "TUNED_TERMS",
    "HALVES_TERMS",
    "PAPP_TERMS",
    "SLIM_TERMS",
    "PairCosts",
    "PenaltyParams",
    "COLOUR_TERMS",
    "MAX_COLOUR_DIFFERENCE",
    "colour_balance",
    "colour_violation",
    "last_played",
    "oriented_terms",
    "cost_matrix",
    "float_direction",
    "group_positions",
    "pair_cost",
    "pecorr_flood",
    "pen_bye",
    "pen_chauvinism",
    "pen_color",
    "pen_elitism",
    "pen_halves",
    "pen_repetition",
    "pen_undulation",
    "pen_undulation2",
]

#: PAPP's terms (Nakajima 2002, §3.1-3.5).
PAPP_TERMS = frozenset({"colour", "undulation", "repetition", "chauvinism", "elitism"})
#: SLIM's terms: no colour, no country, plus the rank term ``pen_undulation2`` (§3.6).
SLIM_TERMS = frozenset({"undulation", "repetition", "elitism", "rank"})
#: The Dutch-like halves term (:func:`pen_halves`), off unless switched on.
HALVES_TERMS = frozenset({"halves"})
#: The terms of the ``"tuned"`` preset: PAPP's and the halves term (chosen by
#: simulation, see the README).
TUNED_TERMS = PAPP_TERMS | HALVES_TERMS
#: Every term name (the keys of a table's ``terms``, with ``"bye"``).
ALL_TERMS = PAPP_TERMS | SLIM_TERMS | HALVES_TERMS

#: The named base sets (``preset = NAME`` in a penalty file): the fields each one sets,
#: every other field at its default.
PRESETS: Mapping[str, Mapping[str, Any]] = {
    "tuned": {"terms": TUNED_TERMS, "p_halves": 1, "p_colalt": 1},
    "papp": {"terms": PAPP_TERMS, "p_colalt": 0},
    "slim": {"terms": SLIM_TERMS, "p_colalt": 0},
}
#: The preset of ``PenaltyParams()`` (what a new tournament stores, what every command
#: uses when no penalty file is given).
DEFAULT_PRESET = "tuned"

#: Default ``p_und[F] = 100·F²`` for F = 0..40 (20 wins apart): convex, so floats split.
DEFAULT_P_UND = tuple(100 * f * f for f in range(41))


def _at(table: Sequence[int], k: int) -> int:
    """``table[k]``, the last entry past the end."""
    return table[min(k, len(table) - 1)]


# --------------------------------------------------------------------------------------
# Parameters
# --------------------------------------------------------------------------------------

_TABLES = ("p_col", "p_und", "p_chauv", "p_elects")


@dataclass(frozen=True)
class PenaltyParams:
    """Every penalty parameter, in integer units (defaults act as tiers; module notes).

    Attributes
    ----------
    terms : frozenset of str
        Terms switched on: :data:`TUNED_TERMS` (default: PAPP's and the halves term),
        :data:`PAPP_TERMS`, :data:`SLIM_TERMS`, or any subset of :data:`ALL_TERMS`. The
        bye cost is always on.
    p_col : tuple of int
        ``p_col[k]``: a player's colour imbalance after the game would be ``k`` (§3.1).
        Default ``(0, 0, 5, 15, 25)``.
    p_repcl : int
        Same colour as in the previous round (``pen_color_repetee``). Default 2.
    p_und : tuple of int
        ``p_und[F]``, ``F = |S_i − S_j|`` (§3.2); ``p_und[0]`` must be 0. Default
        :data:`DEFAULT_P_UND` (``100·F²``).
    p_flcum : int
        Floater correction when a player floats the same way as in the previous round.
        Default 20.
    min_fac : int
        Floater correction (subtracted) when a player floats the other way. Default 10.
    p_mcoul : int
        Rematch with the same colours as an earlier game, per earlier game (§3.3).
        Default 1,200,000.
    p_clopp : int
        Rematch with the colours swapped, per earlier game. Default 1,000,000.
    p_desuite : int
        Extra when the two met in the previous round. Default 500,000.
    p_chauv : tuple of int
        ``p_chauv[r − 1]``: same country in round ``r`` (§3.4). Default ``(20,)``; a
        world championship sets huge values for its last rounds.
    p_elects : tuple of int
        ``p_elects[r − 1]``: factor of ``(S_i + S_j)·|S_i − S_j|`` in round ``r`` (§3.5).
        Default ``(1,)``.
    p_rank : int
        Factor of SLIM's ``pen_undulation2`` (§3.6). Default 1 (Nakajima's own scale).
    p_bye2 : int
        Bye cost per bye already received. Default 100,000,000.
    p_byesc : int
        Bye cost per half point of score. Default 250.
    p_byerank : int
        Bye cost per place above the bottom of the player's score group. Default 75:
        more than a pair's colour and country terms, less than the cheapest float.
    p_coltier : int
        The price shown (term ``"colour_tier"``) for each player of a table who breaks the
        colour tier (:func:`colour_violation`: a third same colour in a row of played
        games, or a colour difference beyond 2). The exact methods do not trade it
        against anything: they rank pairings first by the other terms, then by the
        number of breaks, then by the colour terms (:func:`cost_matrix`). Default 50.
    p_halves : int
        Factor of :func:`pen_halves` (term ``"halves"``: the distance of two players of
        one score group from half the group apart, as the Dutch system pairs them).
        Default 1.
    p_halfrnd : int
        The halves term applies in rounds ``1 .. p_halfrnd`` only; 0: every round.
        Default 0.
    p_halfcol : int
        What one unit of colour cost is worth in units of the halves term, where the two
        are ranked together (the third level of the exact order: ``p_halfcol ·
        colour cost + halves``); large values put the colour cost first. Default 1.
    p_colalt : int
        The last colour tiebreak: 1 (default) alternates the first colour down the boards
        as the Dutch system does (the better-ranked player of a table takes black when
        their rank is odd, white when it is even); 0 (PAPP's and SLIM's presets) gives
        black to the better-ranked player.
    """

    terms: frozenset[str] = TUNED_TERMS
    p_col: tuple[int, ...] = (0, 0, 5, 15, 25)
    p_repcl: int = 2
    p_und: tuple[int, ...] = DEFAULT_P_UND
    p_flcum: int = 20
    min_fac: int = 10
    p_mcoul: int = 1_200_000
    p_clopp: int = 1_000_000
    p_desuite: int = 500_000
    p_chauv: tuple[int, ...] = (20,)
    p_elects: tuple[int, ...] = (1,)
    p_rank: int = 1
    p_bye2: int = 100_000_000
    p_byesc: int = 250
    p_byerank: int = 75
    p_coltier: int = 50
    p_halves: int = 1
    p_halfrnd: int = 0
    p_halfcol: int = 1
    p_colalt: int = 1

    def __post_init__(self) -> None:
        for f in fields(self):
            value = _checked(f.name, getattr(self, f.name), "PenaltyParams")
            object.__setattr__(self, f.name, value)

    @classmethod
    def preset(cls, name: str, **overrides: Any) -> PenaltyParams:
        """The preset ``name`` of :data:`PRESETS` (``"tuned"``, ``"papp"``, ``"slim"``)
        with ``overrides``.

        Raises
        ------
        InvalidInputError
            An unknown preset name.
        """
        if name not in PRESETS:
            raise InvalidInputError(f"penalty preset {name!r}: choose "
                                    f"{', '.join(PRESETS)}")
        return cls(**{**PRESETS[name], **overrides})

    @classmethod
    def papp(cls, **overrides: Any) -> PenaltyParams:
        """PAPP's set of terms (the defaults before the tuned ones), black to the
        better-ranked player, with ``overrides``."""
        return cls.preset("papp", **overrides)

    @classmethod
    def tuned(cls, **overrides: Any) -> PenaltyParams:
        """The weights chosen by simulation (the defaults; README, "tuned" preset): PAPP's
        terms, the halves term at ``p_halves`` 1 and the first colour alternating down the
        boards (``p_colalt`` 1), with ``overrides``."""
        return cls.preset("tuned", **overrides)

    @classmethod
    def slim(cls, **overrides: Any) -> PenaltyParams:
        """SLIM's set of terms (no colour, no country, plus the rank term)."""
        return cls.preset("slim", **overrides)

    @property
    def preset_name(self) -> str | None:
        """The name of the preset these parameters are exactly, or None."""
        return next((k for k in PRESETS if self == type(self).preset(k)), None)

    @classmethod
    def from_toml(cls, path: str | Path, base: PenaltyParams | None = None,
                  ) -> PenaltyParams:
        """A base set overridden by the keys of a TOML file.

        Keys are the attribute names; ``preset = "tuned"``, ``"papp"`` or ``"slim"``
        (:data:`PRESETS`) picks the base set, and without it the base is ``base`` (a
        tournament's stored weights) or else the defaults (the ``"tuned"`` preset);
        ``terms = [...]`` lists the terms outright. Example::

            preset = "slim"
            p_und = [0, 100, 400, 900, 1600]
            p_chauv = [20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 1000000, 1000000]

        Raises
        ------
        InvalidInputError
            One line naming the file and the key: unreadable file, bad TOML, unknown key,
            value of the wrong type or out of range.
        """
        p = Path(path)
        text = read_text(p, "penalty file")
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise InvalidInputError(f"{p}: not valid TOML ({exc})") from None
        except ValueError as exc:  # an integer of more than 4300 digits
            raise InvalidInputError(f"{p}: not usable TOML ({str(exc)[:60]})") from None
        except RecursionError:
            raise InvalidInputError(f"{p}: not usable TOML (nested too deeply)") from None
        if "preset" in data:
            preset = data.pop("preset")
            if not isinstance(preset, str) or preset not in PRESETS:
                raise InvalidInputError(f"{p}: preset must be 'tuned', 'papp' or 'slim', "
                                        f"got {preset!r}")
            start = cls.preset(preset)
        else:
            start = base if base is not None else cls()
        return cls.from_dict(data, str(p), base=start)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str,
                  base: PenaltyParams | None = None) -> PenaltyParams:
        """``base`` (default ``PenaltyParams()``) with the fields of ``data`` (the values
        of :meth:`to_dict`), each checked.

        Raises
        ------
        InvalidInputError
            One line naming ``where`` and the key: an unknown key, a value of the wrong
            type or out of range.
        """
        known = {f.name for f in fields(cls)}
        values = {f.name: getattr(base if base is not None else cls(), f.name)
                  for f in fields(cls)}
        for key, value in data.items():
            if key not in known:
                raise InvalidInputError(f"{where}: unknown key {key!r} (known: preset, "
                                        f"{', '.join(sorted(known))})")
            values[key] = _checked(key, value, where)
        return cls(**values)

    def to_dict(self) -> dict[str, Any]:
        """The parameters as TOML-ready values (``terms`` as a sorted list)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name == "terms":
                v = sorted(v)
            elif isinstance(v, tuple):
                v = list(v)
            out[f.name] = v
        return out


def _checked(key: str, value: Any, where: str) -> Any:
    """``value`` normalised for field ``key``, or a one-line InvalidInputError."""
    def nonneg_int(v: Any) -> bool:
        return isinstance(v, int) and not isinstance(v, bool) and v >= 0

    if key == "terms":
        if isinstance(value, str) or not isinstance(value, Iterable):
            raise InvalidInputError(f"{where}: terms must be a list of term names, got "
                                    f"{value!r}")
        terms = frozenset(value)
        bad = sorted(str(t) for t in terms - ALL_TERMS)
        if bad:
            raise InvalidInputError(f"{where}: terms: unknown term {bad[0]!r} (known: "
                                    f"{', '.join(sorted(ALL_TERMS))})")
        return terms
    if key in _TABLES:
        if (isinstance(value, str | bytes) or not isinstance(value, Iterable)):
            raise InvalidInputError(f"{where}: {key} must be a non-empty list of "
                                    f"non-negative integers, got {value!r}")
        table = tuple(value)
        if not table or not all(nonneg_int(v) for v in table):
            raise InvalidInputError(f"{where}: {key} must be a non-empty list of "
                                    f"non-negative integers, got {list(table)!r}")
        if key == "p_und" and table[0] != 0:
            raise InvalidInputError(f"{where}: p_und[0] must be 0 (same score, no "
                                    f"penalty), got {table[0]}")
        return table
    if not nonneg_int(value):
        raise InvalidInputError(f"{where}: {key} must be a non-negative integer, got "
                                f"{value!r}")
    return value


# --------------------------------------------------------------------------------------
# Per-player facts
# --------------------------------------------------------------------------------------


def colour_balance(p: PlayerState) -> int:
    """δ: games with black minus games with white so far."""
    return sum(c is Colour.BLACK for c in p.colours) - sum(c is Colour.WHITE
                                                          for c in p.colours)


def last_played(p: PlayerState, k: int = 1) -> tuple[Colour, ...]:
    """The colours of ``p``'s last ``k`` played games (byes and absences skipped)."""
    played = [c for c in p.colours if c is not Colour.BYE_]
    return tuple(played[-k:]) if k else ()


#: Largest colour difference (blacks − whites, either way) the colour tier allows.
MAX_COLOUR_DIFFERENCE = 2


def colour_violation(p: PlayerState, colour: Colour) -> int:
    """1 if ``p`` playing ``colour`` breaks the colour tier, else 0.

    Broken when it would be ``p``'s third game in a row with that colour, counting
    played games only (a bye or an absence between them does not reset the run), or
    when the colour difference after the game would exceed
    :data:`MAX_COLOUR_DIFFERENCE`.

    Examples
    --------
    Black, black, a bye: black again breaks the tier, white does not.
    """
    if colour is Colour.BYE_:
        return 0
    step = 1 if colour is Colour.BLACK else -1
    if abs(colour_balance(p) + step) > MAX_COLOUR_DIFFERENCE:
        return 1
    return int(last_played(p, 2) == (colour, colour))


def float_direction(p: PlayerState) -> int:
    """+1 if ``p`` met a higher score in the previous round, −1 a lower one, else 0.

    Scores are those before that round (``scores_before``, ``opponent_scores_before``); a
    bye or an absence in the previous round gives 0.
    """
    if not p.opponent_scores_before or p.opponent_scores_before[-1] is None \
            or not p.scores_before:
        return 0
    diff = p.opponent_scores_before[-1] - p.scores_before[-1]
    return (diff > 0) - (diff < 0)


def group_positions(players: Iterable[PlayerState]) -> dict[str, tuple[int, int]]:
    """``id -> (P, R)``: place from the top and from the bottom of the score group.

    Both are 1-based; the order inside a group is ``(rank, id)``. Used by
    :func:`pen_undulation2` and :func:`pen_bye`.
    """
    groups: dict[int, list[PlayerState]] = {}
    for p in players:
        groups.setdefault(p.score, []).append(p)
    out: dict[str, tuple[int, int]] = {}
    for members in groups.values():
        members.sort(key=lambda q: (q.rank, q.id))
        k = len(members)
        for pos, q in enumerate(members, start=1):
            out[q.id] = (pos, k - pos + 1)
    return out


# --------------------------------------------------------------------------------------
# The terms
# --------------------------------------------------------------------------------------


def pen_color(p: PlayerState, colour: Colour, params: PenaltyParams) -> int:
    """Cost of ``p`` playing ``colour`` this round (§3.1).

    ``p_col[|δ + 1|]`` for black, ``p_col[|δ − 1|]`` for white, plus ``p_repcl`` when the
    colour repeats the last played game's (``pen_color_repetee``; a bye in between does
    not reset it).

    Examples
    --------
    δ = +1 (one black more) and black last round: black costs ``p_col[2] + p_repcl`` =
    5 + 2 = 7 with the defaults, white costs ``p_col[0]`` = 0.
    """
    if colour is Colour.BYE_:
        return 0
    step = 1 if colour is Colour.BLACK else -1
    repeat = params.p_repcl if last_played(p) == (colour,) else 0
    return _at(params.p_col, abs(colour_balance(p) + step)) + repeat


def pecorr_flood(p: PlayerState, opponent_score: int, params: PenaltyParams) -> int:
    """Floater correction for ``p`` meeting a score ``opponent_score`` (§3.2).

    ``p_flcum`` when ``p`` floats the same way as in the previous round (up twice or
    down twice), ``−min_fac`` when the other way, 0 when it does not float now or did not
    then.
    """
    now = (opponent_score > p.score) - (opponent_score < p.score)
    before = float_direction(p)
    if now == 0 or before == 0:
        return 0
    return params.p_flcum if now == before else -params.min_fac


def pen_undulation(i: PlayerState, j: PlayerState, params: PenaltyParams) -> int:
    """``p_und[F] + pecorr_flood(i) + pecorr_flood(j)``, ``F = |S_i − S_j|`` (§3.2).

    Examples
    --------
    S_i = 6, S_j = 4 (F = 2), ``i`` floated down last round too, ``j`` floated down last
    round: 400 + 20 − 10 = 410 with the defaults.
    """
    f = abs(i.score - j.score)
    if f == 0:
        return 0
    return (_at(params.p_und, f) + pecorr_flood(i, j.score, params)
            + pecorr_flood(j, i.score, params))


def _meetings(black: PlayerState, white_id: str) -> tuple[int, int]:
    """Earlier games of ``black`` against ``white_id``: (as black, as white)."""
    same = opp = 0
    for c, o in zip(black.colours, black.opponents, strict=False):
        if o == white_id:
            same += c is Colour.BLACK
            opp += c is Colour.WHITE
    return same, opp


def pen_repetition(black: PlayerState, white: PlayerState, params: PenaltyParams) -> int:
    """Rematch cost of ``black`` (as black) against ``white`` (§3.3).

    ``p_mcoul`` for each earlier game with the same colours, ``p_clopp`` for each with the
    colours swapped, plus ``p_desuite`` when they met in the previous round.

    Examples
    --------
    They met last round with ``black`` as white: 1,000,000 + 500,000 = 1,500,000 with the
    defaults (and 1,700,000 with the colours of that game repeated).
    """
    same, opp = _meetings(black, white.id)
    last = ((bool(black.opponents) and black.opponents[-1] == white.id)
            or (bool(white.opponents) and white.opponents[-1] == black.id))
    return params.p_mcoul * same + params.p_clopp * opp + (params.p_desuite if last else 0)


def pen_chauvinism(i: PlayerState, j: PlayerState, round_no: int,
                   params: PenaltyParams) -> int:
    """``p_chauv[round]`` when both come from the same (known) country (§3.4)."""
    if i.country is None or i.country != j.country:
        return 0
    return _at(params.p_chauv, round_no - 1)


def pen_elitism(i: PlayerState, j: PlayerState, round_no: int,
                params: PenaltyParams) -> int:
    """``p_elects[round]·(S_i + S_j)·|S_i − S_j|`` (§3.5): floats cost more at the top.

    Examples
    --------
    5 wins against 4 (S = 10, 8) costs 18·2 = 36, 1 win against 0 costs 2·2 = 4.
    """
    return (_at(params.p_elects, round_no - 1) * (i.score + j.score)
            * abs(i.score - j.score))


def pen_undulation2(i: PlayerState, j: PlayerState, pos_i: tuple[int, int],
                    pos_j: tuple[int, int], params: PenaltyParams) -> int:
    """SLIM's rank distance (§3.6), times ``p_rank``.

    With ``P`` the place from the top of the score group and ``R`` from the bottom
    (:func:`group_positions`): ``(P_i − P_j)²`` for equal scores, ``(R_i + P_j)²`` if
    ``S_i > S_j``, ``(P_i + R_j)²`` if ``S_i < S_j``.

    Examples
    --------
    Last of the 3-win group (R = 1) against the second of the 2-win group (P = 2):
    (1 + 2)² = 9.
    """
    (p_i, r_i), (p_j, r_j) = pos_i, pos_j
    if i.score == j.score:
        d = p_i - p_j
    elif i.score > j.score:
        d = r_i + p_j
    else:
        d = p_i + r_j
    return params.p_rank * d * d


def pen_halves(i: PlayerState, j: PlayerState, pos_i: tuple[int, int],
               pos_j: tuple[int, int], params: PenaltyParams, round_no: int = 1) -> int:
    """How far two players of one score group are from half the group apart, times
    ``p_halves``: ``p_halves·| |P_i − P_j| − ⌊k/2⌋ |`` for equal scores (``k`` the size
    of the group, ``P`` the place from its top: :func:`group_positions`), 0 otherwise
    and past round ``p_halfrnd`` (when that is not 0).

    The Dutch system of the FIDE Handbook (C.04.3) pairs the top half of a score group
    against the bottom half in order (1 against ``k/2 + 1``, 2 against ``k/2 + 2`` ...):
    every such pair costs 0, neighbours in the standings cost the most.

    Examples
    --------
    A group of 8: 1 against 5 costs 0, 1 against 2 costs ``3·p_halves``, 4 against 5
    costs 3 too, 1 against 8 costs 3.
    """
    if i.score != j.score or 0 < params.p_halfrnd < round_no:
        return 0
    (p_i, r_i), (p_j, _) = pos_i, pos_j
    k = p_i + r_i - 1
    return params.p_halves * abs(abs(p_i - p_j) - k // 2)


def pen_bye(p: PlayerState, pos: tuple[int, int], params: PenaltyParams) -> int:
    """Cost of giving ``p`` the bye.

    ``p_bye2·byes + p_byesc·S + p_byerank·(R − 1)``: the lowest score first, then the
    lowest place in the score group, and a second bye only where nothing else works.
    """
    return params.p_bye2 * p.byes + params.p_byesc * p.score + params.p_byerank * (pos[1] - 1)


# --------------------------------------------------------------------------------------
# One pair
# --------------------------------------------------------------------------------------


def oriented_terms(black: PlayerState, white: PlayerState, round_no: int,
                   params: PenaltyParams, pos: Mapping[str, tuple[int, int]],
                   ) -> dict[str, int]:
    """The terms of ``black`` against ``white`` with these colours (switched-on ones);
    ``pos`` is :func:`group_positions` of the field."""
    on = params.terms
    terms: dict[str, int] = {}
    if "colour" in on:
        terms["colour"] = (pen_color(black, Colour.BLACK, params)
                           + pen_color(white, Colour.WHITE, params))
        terms["colour_tier"] = params.p_coltier * _breaks(black, white)
    if "undulation" in on:
        terms["undulation"] = pen_undulation(black, white, params)
    if "repetition" in on:
        terms["repetition"] = pen_repetition(black, white, params)
    if "chauvinism" in on:
        terms["chauvinism"] = pen_chauvinism(black, white, round_no, params)
    if "elitism" in on:
        terms["elitism"] = pen_elitism(black, white, round_no, params)
    if "rank" in on:
        terms["rank"] = pen_undulation2(black, white, pos[black.id], pos[white.id], params)
    if "halves" in on:
        terms["halves"] = pen_halves(black, white, pos[black.id], pos[white.id], params,
                                     round_no)
    return terms


def _breaks(black: PlayerState, white: PlayerState) -> int:
    """Players of the table who break the colour tier with these colours (0, 1, 2)."""
    return colour_violation(black, Colour.BLACK) + colour_violation(white, Colour.WHITE)


def _colour_key(black: PlayerState, white: PlayerState, params: PenaltyParams,
                ) -> tuple[int, int]:
    """(colour-tier breaks, colour cost) of these colours, switched on or not."""
    return (_breaks(black, white),
            pen_color(black, Colour.BLACK, params) + pen_color(white, Colour.WHITE, params))


def _black_by_rank(i: PlayerState, j: PlayerState, params: PenaltyParams) -> bool:
    """The last colour tiebreak: whether ``i`` takes black. With ``p_colalt`` on, the
    better ranked (by rank, then id) takes black when their rank is odd and white when it
    is even (the Dutch system's alternation of the first colour down the boards: 1 black,
    2 white ...); with it off, the better ranked takes black."""
    better = i if (i.rank, i.id) < (j.rank, j.id) else j
    return (better is i) == (better.rank % 2 == 1 or not params.p_colalt)


def _upper(terms: Mapping[str, int]) -> int:
    """The terms ranked above colour: all but :data:`COLOUR_TERMS`."""
    return sum(v for k, v in terms.items() if k not in COLOUR_TERMS)


#: The terms the exact methods rank below every other: the colour tier, then the colour
#: cost with the Dutch-like halves term (:func:`pen_halves`, which has no colour but is
#: ranked with it, below the colour tier).
COLOUR_TERMS = frozenset({"colour", "colour_tier", "halves"})


def pair_cost(i: PlayerState, j: PlayerState | str, round_input: RoundInput,
              params: PenaltyParams | None = None, *,
              positions: Mapping[str, tuple[int, int]] | None = None,
              ) -> tuple[int, str, str, dict[str, int]]:
    """Cost of pairing ``i`` with ``j`` (or the bye), with the cheaper colour assignment.

    Parameters
    ----------
    i : PlayerState
    j : PlayerState or str
        The opponent, or :data:`~gameopt.pairing.model.BYE`.
    round_input : RoundInput
        The round being paired (its number; its field for the score-group places).
    params : PenaltyParams, optional
        Defaults to ``PenaltyParams()``.
    positions : mapping, optional
        :func:`group_positions` of the field, to save recomputing it for every pair.

    Returns
    -------
    cost : int
    black_id, white_id : str
        The better assignment: the smaller total of the terms other than colour, then
        (computed even when the colour term is off) the fewer colour-tier breaks
        (:func:`colour_violation`), then the smaller colour cost, then the first colour
        alternating down the boards (``p_colalt``: the better-ranked player, by rank then
        id, black when their rank is odd). The bye is ``(i.id, BYE)``.
    terms : dict of str to int
        The switched-on terms of that assignment (``{"bye": cost}`` for the bye); they sum
        to ``cost``.
    """
    params = params or PenaltyParams()
    pos = positions if positions is not None else group_positions(round_input.players)
    if isinstance(j, str):
        if j != BYE:
            raise InvalidInputError(f"pair_cost: opponent must be a PlayerState or BYE, "
                                    f"got {j!r}")
        c = pen_bye(i, pos[i.id], params)
        return c, i.id, BYE, {"bye": c}
    r = round_input.round_no
    a = oriented_terms(i, j, r, params, pos)
    b = oriented_terms(j, i, r, params, pos)
    i_black = _black_by_rank(i, j, params)
    key_a = (_upper(a), *_colour_key(i, j, params), not i_black)
    key_b = (_upper(b), *_colour_key(j, i, params), i_black)
    take_a = key_a < key_b
    return ((sum(a.values()), i.id, j.id, a) if take_a
            else (sum(b.values()), j.id, i.id, b))


# --------------------------------------------------------------------------------------
# Every pair at once
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PairCosts:
    """Every pair's cost for one round, players in ``(rank, id)`` order.

    Attributes
    ----------
    players : tuple of PlayerState
        The field, sorted by ``(rank, id)``; index ``k`` in the arrays is ``players[k]``.
    cost : ndarray of int64, shape (n, n)
        Symmetric; ``cost[i, j]`` is the cheaper colour assignment's penalty; diagonal 0.
    black : ndarray of bool, shape (n, n)
        ``black[i, j]``: in that assignment player ``i`` has black (``black[j, i]`` is its
        negation off the diagonal).
    bye : ndarray of int64, shape (n,)
        :func:`pen_bye` of each player.
    allowed : ndarray of bool, shape (n, n)
        False on the diagonal and for the round's forbidden pairs.
    bye_allowed : ndarray of bool, shape (n,)
        False for a player forbidden the bye (a forbidden pair ``{id, BYE}``).
    rematch : ndarray of bool, shape (n, n)
        The two have met before.
    upper : ndarray of int64, shape (n, n)
        The part of ``cost`` from the terms other than colour (what the exact methods
        minimise first).
    breaks : ndarray of int64, shape (n, n)
        Colour-tier breaks of the pair's colours (0, 1, 2; minimised second).
    colour : ndarray of int64, shape (n, n)
        The colour cost of the pair's colours, whether the term is on or not, plus
        :func:`pen_halves` when that term is on (third).
    """

    players: tuple[PlayerState, ...]
    cost: npt.NDArray[np.int64]
    black: npt.NDArray[np.bool_]
    bye: npt.NDArray[np.int64]
    allowed: npt.NDArray[np.bool_]
    bye_allowed: npt.NDArray[np.bool_]
    rematch: npt.NDArray[np.bool_]
    upper: npt.NDArray[np.int64]
    breaks: npt.NDArray[np.int64]
    colour: npt.NDArray[np.int64]


def _lookup(table: Sequence[int], idx: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """``table[idx]`` element-wise, clamped to the last entry."""
    arr = np.asarray(table, dtype=np.int64)
    return arr[np.minimum(idx, len(arr) - 1)]


def _history(players: Sequence[PlayerState]) -> tuple[npt.NDArray[np.int64],
                                                      npt.NDArray[np.bool_]]:
    """``as_black[i, j]`` (games with i black against j) and ``last[i, j]`` (met last round)."""
    n = len(players)
    index = {p.id: k for k, p in enumerate(players)}
    rows: list[int] = []
    cols: list[int] = []
    last_r: list[int] = []
    last_c: list[int] = []
    for k, p in enumerate(players):
        for c, o in zip(p.colours, p.opponents, strict=False):
            if c is Colour.BLACK and o in index:
                rows.append(k)
                cols.append(index[o])
        prev = p.opponents[-1] if p.opponents else None
        if prev is not None and prev in index:
            last_r.append(k)
            last_c.append(index[prev])
    as_black = np.zeros((n, n), dtype=np.int64)
    np.add.at(as_black, (np.asarray(rows, dtype=np.intp), np.asarray(cols, dtype=np.intp)), 1)
    last = np.zeros((n, n), dtype=np.bool_)
    last[np.asarray(last_r, dtype=np.intp), np.asarray(last_c, dtype=np.intp)] = True
    return as_black, last | last.T


def _colour_vectors(players: Sequence[PlayerState], params: PenaltyParams,
                    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """``pen_color(p, BLACK)`` and ``pen_color(p, WHITE)`` for every player."""
    delta = np.array([colour_balance(p) for p in players], dtype=np.int64)
    last = [(last_played(p) or (Colour.BYE_,))[0] for p in players]
    rep_b = np.array([c is Colour.BLACK for c in last], dtype=np.int64) * params.p_repcl
    rep_w = np.array([c is Colour.WHITE for c in last], dtype=np.int64) * params.p_repcl
    return (_lookup(params.p_col, np.abs(delta + 1)) + rep_b,
            _lookup(params.p_col, np.abs(delta - 1)) + rep_w)


def _symmetric_terms(players: Sequence[PlayerState], round_no: int, params: PenaltyParams,
                     pos: Mapping[str, tuple[int, int]]) -> npt.NDArray[np.int64]:
    """Sum of the colour-independent switched-on terms, shape (n, n), int64."""
    n = len(players)
    on = params.terms
    s = np.array([p.score for p in players], dtype=np.int64)
    diff = s[None, :] - s[:, None]  # S_j - S_i
    f = np.abs(diff)
    total = np.zeros((n, n), dtype=np.int64)
    if "undulation" in on:
        total += _lookup(params.p_und, f)
        before = np.array([float_direction(p) for p in players], dtype=np.int64)
        now = np.sign(diff)  # direction of i's float against j
        corr = np.where(now == before[:, None], params.p_flcum, -params.min_fac)
        corr[(now == 0) | (before[:, None] == 0)] = 0
        total += corr + corr.T
    if "chauvinism" in on:
        codes: dict[str, int] = {}
        country = np.array([-1 - k if p.country is None else codes.setdefault(p.country,
                                                                                len(codes))
                            for k, p in enumerate(players)], dtype=np.int64)
        same = country[:, None] == country[None, :]
        total += same * _at(params.p_chauv, round_no - 1)
    if "elitism" in on:
        total += _at(params.p_elects, round_no - 1) * (s[:, None] + s[None, :]) * f
    if "rank" in on:
        pp = np.array([pos[p.id][0] for p in players], dtype=np.int64)
        rr = np.array([pos[p.id][1] for p in players], dtype=np.int64)
        d = np.where(diff == 0, pp[:, None] - pp[None, :],
                     np.where(diff < 0, rr[:, None] + pp[None, :], pp[:, None] + rr[None, :]))
        total += params.p_rank * d * d
    return total


def _halves(players: Sequence[PlayerState], params: PenaltyParams,
            pos: Mapping[str, tuple[int, int]], round_no: int) -> npt.NDArray[np.int64]:
    """:func:`pen_halves` of every pair, shape (n, n), int64 (zeros when it is off)."""
    n = len(players)
    if "halves" not in params.terms or 0 < params.p_halfrnd < round_no:
        return np.zeros((n, n), dtype=np.int64)
    s = np.array([p.score for p in players], dtype=np.int64)
    pp = np.array([pos[p.id][0] for p in players], dtype=np.int64)
    size = pp + np.array([pos[p.id][1] for p in players], dtype=np.int64) - 1
    dev = np.abs(np.abs(pp[:, None] - pp[None, :]) - (size // 2)[:, None])
    return np.where(s[:, None] == s[None, :], params.p_halves * dev, 0).astype(np.int64)


Matrices = tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64],
                 npt.NDArray[np.int64], npt.NDArray[np.bool_]]


def _matrices_numpy(players: Sequence[PlayerState], round_no: int, params: PenaltyParams,
                    pos: Mapping[str, tuple[int, int]], as_black: npt.NDArray[np.int64],
                    last: npt.NDArray[np.bool_]) -> Matrices:
    """``(cost, upper, breaks, colour, black)`` of :func:`cost_matrix` as whole-matrix
    numpy expressions: the reference of :func:`_matrices_kernel`."""
    n = len(players)
    sym = _symmetric_terms(players, round_no, params, pos)
    cb, cw = _colour_vectors(players, params)
    colour_a = cb[:, None] + cw[None, :]  # i black, j white
    vb = np.array([colour_violation(p, Colour.BLACK) for p in players], dtype=np.int64)
    vw = np.array([colour_violation(p, Colour.WHITE) for p in players], dtype=np.int64)
    breaks_a = vb[:, None] + vw[None, :]
    upper_a = sym.copy()
    if "repetition" in params.terms:
        upper_a += params.p_mcoul * as_black + params.p_clopp * as_black.T
        upper_a += params.p_desuite * last
    # j black, i white: the same terms seen from j (transposes); the better orientation
    # by (upper, breaks, colour, the better-ranked player black)
    upper_b, breaks_b, colour_b = upper_a.T, breaks_a.T, colour_a.T
    order = np.arange(n)
    odd = np.array([p.rank % 2 == 1 or not params.p_colalt for p in players],
                   dtype=np.bool_)
    better = order[:, None] < order[None, :]
    black = np.where(better, odd[:, None], ~odd[None, :])  # _black_by_rank
    for mine, theirs in ((colour_a, colour_b), (breaks_a, breaks_b), (upper_a, upper_b)):
        black = (mine < theirs) | ((mine == theirs) & black)
    upper = np.where(black, upper_a, upper_b)
    breaks = np.where(black, breaks_a, breaks_b)
    colour = np.where(black, colour_a, colour_b)
    cost = upper.copy()
    if "colour" in params.terms:
        cost += colour + params.p_coltier * breaks
    halves = _halves(players, params, pos, round_no)  # symmetric: no say in the colours
    cost += halves
    if "halves" in params.terms:  # the third level of the exact order
        colour = colour * params.p_halfcol + halves
    for mat in (cost, upper, breaks, colour):
        np.fill_diagonal(mat, 0)
    np.fill_diagonal(black, False)
    return cost, upper, breaks, colour, black


def _matrices_kernel(players: Sequence[PlayerState], round_no: int, params: PenaltyParams,
                     pos: Mapping[str, tuple[int, int]], as_black: npt.NDArray[np.int64],
                     last: npt.NDArray[np.bool_]) -> Matrices:
    """:func:`_matrices_numpy` by the one-pass kernel
    (:func:`gameopt.pairing._cost_kernel.pair_matrices`; imported here: numba loads on
    first use, not with the package)."""
    from gameopt.pairing import _cost_kernel as _ck

    on = params.terms
    s = np.array([p.score for p in players], dtype=np.int64)
    codes: dict[str, int] = {}
    country = np.array([-1 - k if p.country is None else codes.setdefault(p.country,
                                                                            len(codes))
                        for k, p in enumerate(players)], dtype=np.int64)
    pp = np.array([pos[p.id][0] for p in players], dtype=np.int64)
    rr = np.array([pos[p.id][1] for p in players], dtype=np.int64)
    flags = np.zeros(_ck.FLAGS, dtype=np.int64)
    for k, term in ((_ck.UNDULATION, "undulation"), (_ck.CHAUVINISM, "chauvinism"),
                    (_ck.ELITISM, "elitism"), (_ck.RANK, "rank"),
                    (_ck.REPETITION, "repetition"), (_ck.COLOUR, "colour"),
                    (_ck.HALVES, "halves")):
        flags[k] = term in on
    flags[_ck.HALVES_NOW] = "halves" in on and not 0 < params.p_halfrnd < round_no
    before = np.array([float_direction(p) for p in players], dtype=np.int64)
    cb, cw = _colour_vectors(players, params)
    vb = np.array([colour_violation(p, Colour.BLACK) for p in players], dtype=np.int64)
    vw = np.array([colour_violation(p, Colour.WHITE) for p in players], dtype=np.int64)
    odd = np.array([p.rank % 2 == 1 or not params.p_colalt for p in players],
                   dtype=np.bool_)
    return _ck.pair_matrices(
        s, before, country, pp, rr, np.asarray(params.p_und, dtype=np.int64),
        int(params.p_flcum), int(params.min_fac), int(_at(params.p_chauv, round_no - 1)),
        int(_at(params.p_elects, round_no - 1)), int(params.p_rank), flags,
        np.ascontiguousarray(as_black, dtype=np.int64), np.ascontiguousarray(last),
        int(params.p_mcoul), int(params.p_clopp), int(params.p_desuite), cb, cw, vb, vw,
        odd, int(params.p_coltier), int(params.p_halves), int(params.p_halfcol))


def cost_matrix(round_input: RoundInput, params: PenaltyParams | None = None) -> PairCosts:
    """Every pair's cost for the round, vectorised with numpy.

    Parameters
    ----------
    round_input : RoundInput
    params : PenaltyParams, optional
        Defaults to ``PenaltyParams()``.

    Returns
    -------
    PairCosts
        Entry ``[i, j]`` equals :func:`pair_cost` of ``players[i]`` and ``players[j]``
        (cost and colours), the tests check it pair by pair.

    Raises
    ------
    InvalidInputError
        Duplicate player ids, or a player called :data:`~gameopt.pairing.model.BYE`.

    Notes
    -----
    O(n²) time and memory, in one pass of a numba kernel
    (:mod:`gameopt.pairing._cost_kernel`; ``_matrices_numpy`` here is its numpy
    reference): the five n × n results and the history matrices (about 0.4 GB at
    3,000 players), plus O(n·rounds) for the history. Forbidden pairs naming a player outside
    the field (a withdrawn one) are ignored.
    """
    params = params or PenaltyParams()
    players = tuple(sorted(round_input.players, key=lambda p: (p.rank, p.id)))
    ids = [p.id for p in players]
    if len(set(ids)) != len(ids):
        dup = sorted({x for x in ids if ids.count(x) > 1})
        raise InvalidInputError(f"round {round_input.round_no}: duplicate player id "
                                f"{dup[0]!r}")
    if BYE in ids:
        raise InvalidInputError(f"round {round_input.round_no}: a player may not be called "
                                f"{BYE!r} (the bye's id)")
    n = len(players)
    pos = group_positions(players)
    as_black, last = _history(players)
    cost, upper, breaks, colour, black = _matrices_kernel(
        players, round_input.round_no, params, pos, as_black, last)
    allowed = ~np.eye(n, dtype=np.bool_)
    bye_allowed = np.ones(n, dtype=np.bool_)
    index = {pid: k for k, pid in enumerate(ids)}
    for pair in round_input.forbidden:
        members = sorted(pair)
        if len(members) != 2:
            continue
        a, b = members
        if a in index and b in index:
            allowed[index[a], index[b]] = allowed[index[b], index[a]] = False
        elif BYE in pair and (a in index or b in index):
            bye_allowed[index[a] if a in index else index[b]] = False
    bye = np.array([pen_bye(p, pos[p.id], params) for p in players], dtype=np.int64)
    rematch = (as_black + as_black.T) > 0
    return PairCosts(players, cost, black, bye, allowed, bye_allowed, rematch, upper, breaks,
                     colour)
