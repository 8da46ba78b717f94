"""The deck API on a request the fuzzing (benchmarks/fuzz, target ``web.api-decks``)
found a 500 for: a time budget too short for CP-SAT to find a start deck (status
UNKNOWN) was a SolverError; it is a 422 naming ``time_budget`` now."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from gameopt.deck import DeckCatalogue
from gameopt.deck.scores import deck_scores
from gameopt.deck.synth import synthesize
from gameopt.web.api import create_api


class _OutOfTime:
    """A backend whose search runs out of its budget (what the worker answers then)."""

    size = 1

    async def run(self, request: dict[str, Any], *, admitted: bool = False) -> dict[str, Any]:
        return {"error": "BudgetExhaustedError",
                "message": "rules: no start deck within the 0.01 s left (CP-SAT status "
                           "UNKNOWN); give more time"}

    def snapshot(self) -> dict[str, Any]:
        return {"ready": True, "free": 1, "waiting": 0, "queue": 1}

    def retry_after(self) -> int:
        return 1


def test_a_search_out_of_time_is_a_422_on_time_budget() -> None:
    d = synthesize(5, kinds=400, collection=200, decks=800, archetypes=10)
    cat = DeckCatalogue(d.pool, deck_scores(d.decks, d.pool.ids))
    app = create_api(cat, _OutOfTime())
    owned = sorted(d.collection.owned)[:60]

    async def go() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            return await client.post("/api/v1/decks", json={
                "collection": {"pieces": owned}, "method": "vds", "time_budget": 0.01})

    try:
        r = asyncio.run(go())
    finally:
        cat.close()
    assert r.status_code == 422, r.text
    detail = r.json()["detail"][0]
    assert detail["loc"] == ["body", "time_budget"]
    assert "no start deck within" in detail["msg"]
