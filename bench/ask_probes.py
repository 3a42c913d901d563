"""Where an /ask's time goes: phase timers wrapped around the running app's own objects.

Per question, the time spent in the model's embedding, Chroma, SQL, the fact graph and the
LLM steps is recorded by wrapping those instances' methods (SQL statements through engine
events, garbage collection through ``gc.callbacks``), so a slow p95 says where it goes.
A probe on a private method (``ProposalSearch._rank``, the context's own steps) is
optional: when the app no longer has that method, its phase is simply left out of the report.
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any


class Phases:
    """Time per phase of the question being answered, from wrapped instance methods."""

    def __init__(self) -> None:
        self.current: defaultdict[str, float] = defaultdict(float)
        self.calls: Counter[str] = Counter()

    def reset(self) -> tuple[dict[str, float], Counter[str]]:
        got = (dict(self.current), self.calls)
        self.current, self.calls = defaultdict(float), Counter()
        return got

    @contextmanager
    def timing(self, name: str) -> Iterator[None]:
        started = time.perf_counter()
        try:
            yield
        finally:
            self.current[name] += time.perf_counter() - started
            self.calls[name] += 1

    def wrap(self, owner: Any, method: str, name: str | Callable[..., str]) -> None:
        original = getattr(owner, method)
        label = name if callable(name) else (lambda *a, **k: name)

        if asyncio.iscoroutinefunction(original):

            async def timed(*args: Any, **kwargs: Any) -> Any:
                with self.timing(label(*args, **kwargs)):
                    return await original(*args, **kwargs)
        else:

            def timed(*args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]
                with self.timing(label(*args, **kwargs)):
                    return original(*args, **kwargs)

        setattr(owner, method, timed)

    def watch(self, container: Any) -> None:
        from sqlalchemy import event

        from app.persistence.repositories.proposals import ProposalRepository
        from app.persistence.repositories.users import UserRepository

        self.wrap(container.embedder, "embed_array", "embed_model")
        self.wrap(container.vectors, "query", lambda name, *a, **k: f"chroma_query_{name}")
        self.wrap(container.vectors, "count", "chroma_count")
        self.wrap(container.graph, "ask_question", "graph_ask")
        self.wrap(container.context.search, "search", "proposal_search")
        if hasattr(container.context.search, "_rank"):  # its scoring, inside proposal_search
            self.wrap(container.context.search, "_rank", "proposal_rank")
        self.wrap(container.context, "handle_intelligent_ask", "ask_service")
        # the general pipeline's other steps (those run side by side overlap in time)
        for method, name in (("_passages", "passage_search"), ("_sentences", "unit_sentences")):
            if hasattr(container.context, method):
                self.wrap(container.context, method, name)
        for step in ("answer_grounded", "write_lead"):
            self.wrap(container.llm, step, f"llm_{step}")
        # SQL at the repository boundary: execution, fetching and building the objects
        # (SQLite computes most rows while they are fetched, after cursor.execute returns).
        for method in (
            "search_text",
            "find_proposals_by_dynamic_criteria",
            "count_proposals_by_dynamic_criteria",
            "get_proposal_by_id",
        ):
            self.wrap(ProposalRepository, method, "sql_proposals")
        self.wrap(UserRepository, "find_by_name", "sql_users")

        def statement(*_: Any) -> None:
            self.calls["sql_statements"] += 1
            self.current["sql_statements"] += 0.0

        event.listen(container.db.engine.sync_engine, "before_cursor_execute", statement)
        paused: list[float] = []

        def collecting(phase: str, info: dict[str, Any]) -> None:
            if phase == "start":
                paused.append(time.perf_counter())
            elif paused:
                self.current["gc"] += time.perf_counter() - paused.pop()
                self.calls["gc"] += 1

        gc.callbacks.append(collecting)


def capture_intents(container: Any, sink: list[str]) -> None:
    original = container.context.handle_intelligent_ask

    async def ask(*args: Any, **kwargs: Any) -> Any:
        response = await original(*args, **kwargs)
        sink.append(response.intent)
        return response

    container.context.handle_intelligent_ask = ask
