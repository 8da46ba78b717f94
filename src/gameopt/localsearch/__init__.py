"""Shared local-search engines, typed against small protocols (imports only ``core``)."""

from gameopt.localsearch.evolution import EvolutionParams, EvolutionProblem, evolve

__all__ = ["EvolutionParams", "EvolutionProblem", "evolve"]
