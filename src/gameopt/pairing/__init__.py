"""Swiss pairing for Othello tournaments: PAPP penalties minimised exactly by weighted
perfect matching, tournament state in SQLite, results, standings and tie-breaks."""

from gameopt.pairing.model import BYE, Colour, Pairing, PlayerState, RoundInput, Table

__all__ = ["BYE", "Colour", "Pairing", "PlayerState", "RoundInput", "Table"]
