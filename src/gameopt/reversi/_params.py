"""Layouts of the small arrays the search kernels share with Python (indices only).

``par`` (int64, shape (N_PAR,)): search parameters set by :mod:`gameopt.reversi.search`.
``st`` (int64, shape (N_ST,)): counters the kernels fill in.
``stop`` (uint8, shape (1,)): set to 1 from another thread to stop a search cleanly.
"""

from __future__ import annotations

# par
SORT_HEIGHT = 0      # midgame: no move ordering nor hashing at this height and below
END_SORT_HEIGHT = 1  # endgame: the same for the exact solver (empties)
PVS = 2              # 1: principal variation search above those heights; 0: alpha-beta
USE_TT = 3           # 1: transposition table above those heights
NODE_LIMIT = 4       # stop after this many nodes (0: no limit)
EVAL_KIND = 5        # the evaluation (see _eval.evaluate)
STABILITY = 6        # 1: stability cutoff in the exact solver
END_SEARCH = 7       # exact solver: order by a 1-ply search from this many empties (0: never)
END_SEARCH3 = 8      # exact solver: order by a 3-ply search from this many empties (0: never)
END_EVAL_W = 9       # exact solver: weight of that search value against mobility in the order key
ETC = 10             # exact solver: enhanced transposition cutoff from this many empties (0: off)
END_HEURISTIC1 = 11  # exact solver: 1 = the 1-ply order search by the heuristic, any EVAL_KIND
MPC = 12             # midgame: Multi-ProbCut (the table below) nested this deep (0: off)
MPC_T = 13           # its confidence t, in hundredths (cut when t sigma from the bound)
END_SEL_T = 14       # exact solver, selective passes: probcut confidence t, hundredths (0: exact)
END_SEL_MIN = 15     # ... probcut at nodes with this many empties and more
END_SEL_D4 = 16      # ... the shallow search is 4 plies from this many empties (else 2)
END_SEL_S0 = 17      # ... sigma of the exact score given the shallow value, centi-discs:
END_SEL_S1 = 18      # ... S0 + S1 * empties after 2 plies,
END_SEL_S0_4 = 19    # ... S0_4 + S1_4 * empties after 4 plies
END_SEL_S1_4 = 20
END_SEL_B0 = 21      # ... exact score minus shallow value, mean, even empties (centi-discs)
END_SEL_B1 = 22      # ... the same, odd empties
END_DEPTH_OFF = 23   # ... added to the empties as the table depth (< 0 in a selective pass)
#: Multi-ProbCut table from MPC_BASE: for each empties e (0..60) and depth d (0..MPC_MAXD),
#: MPC_FIELDS ints at MPC_BASE + (e * (MPC_MAXD + 1) + d) * MPC_FIELDS: MPC_TRIES cut tries
#: in the order they are tried, each MPC_TRY ints: the shallow depth (0: no such try), the
#: slope a in 1/1024, the intercept b and the residual sigma (centi-discs) of the
#: regression deep value = a * shallow value + b.
MPC_BASE = 24
MPC_MAXD = 16
MPC_TRY = 4
MPC_TRIES = 2
MPC_FIELDS = MPC_TRY * MPC_TRIES
MPC_END = MPC_BASE + 61 * (MPC_MAXD + 1) * MPC_FIELDS  # one past the table
#: midgame: plain nodes this many plies from the horizon and more (up to _midgame.SHALLOW)
#: search their moves fastest first (fewest replies); 0: square order everywhere
SHALLOW_ORDER = MPC_END
#: midgame, a table with a network: a leaf whose pattern value lies this many centi-discs
#: or more outside the window skips the network (lazy evaluation; 0: never skipped)
NET_LAZY = SHALLOW_ORDER + 1
#: midgame, a table with a network: leaves with more empties than this skip the network
#: (0: no limit)
NET_MAX_EMPTIES = NET_LAZY + 1
N_PAR = NET_MAX_EMPTIES + 1

# st
NODES = 0     # every position visited (each call of a search function)
LEAVES = 1    # positions evaluated statically or scored at the end of the game
STOPPED = 2   # 1 once a stop was seen: every value computed afterwards is void
N_ST = 3

#: how many nodes between two looks at the stop flag and the node limit
CHECK_MASK = 4095
