"""Knowledge base: import throughput, query latency at 50,000 chunks, resident memory.

    python bench/knowledge.py [--chunks 1000] [--collection-size 50000] [--queries 200]
                              [--base-vectors 2000] [--noise 0.025] [--data-dir DIR]
    python bench/knowledge.py --memory-only [--data-dir DIR]

Everything runs on the real stack: a migrated SQLite file (``kb.sqlite3``) and the embedded
Chroma store (``chroma/``) in a temporary DATA_DIR, the bundled all-MiniLM-L6-v2 int8 ONNX
model (``OnnxMiniLMEmbedder`` with the app's defaults) and ``Container.documents``.

1. Import. Deterministic English text about community life (sentences composed from word
   lists, seeded) is cut into documents of exactly 10 chunks at chunk_size 500 / overlap 50;
   enough documents for ``--chunks`` chunks go through ``knowledge_import`` one after the
   other, as the CLI does (SQL rows, embedding, Chroma upsert, marking the chunks indexed).
   One document is imported first as a warm-up and is not timed. The time is split into
   embedding, the Chroma upsert, the indexing bookkeeping in SQL and the import transaction
   (chunking + SQL insert) by wrapping ``VectorDBService.embed``/``upsert`` and
   ``IndexService.chunks_changed`` on the instances. ``embed_chunks_per_second`` is the raw
   model rate: ``embed_array`` over all the imported chunks in one call.
2. Query latency at ``--collection-size`` entries. Embedding 50,000 chunks with the real
   model would take half an hour here, so the collection is filled directly with vectors:
   ``--base-vectors`` distinct real chunks are embedded by the real model (the imported
   chunks plus further generated ones), and every further entry is a base vector plus
   isotropic Gaussian noise (sigma ``--noise`` per dimension), L2-normalised again — cosine
   to its base is about 0.9, i.e. each base becomes a cluster of near-duplicate passages,
   the way real knowledge bases hold many versions of similar text. Entries carry the base
   chunk's text and metadata like IndexService writes (document_id, chunk_index, the base's
   category out of five, proposal_id 0, scope "global", title); they go in through
   ``VectorDBService.upsert(CHUNKS, ..., embeddings=...)`` in batches of 5,000. No SQL rows
   are written for them: ``knowledge_query`` reads only Chroma. Then, sequentially and after
   a short warm-up: ``--queries`` ``knowledge_query`` calls (top_k 5, varied generated
   questions; query embedding + Chroma), as many with a category filter, the Chroma part
   alone (``VectorDBService.query`` with precomputed embeddings, both kinds) and the query
   embedding alone. Recall@5 of Chroma's HNSW search against exact search over the stored
   vectors shows the latency is not bought with wrong answers.
3. Memory. ``--memory-only`` (run by the main run as a fresh subprocess on the same DATA_DIR,
   after the main process closed its Chroma client) loads what the bot loads: the app's
   modules (the Telegram handlers included), a Container with the default embedder, the
   embedded Chroma client with both collections open; then it loads the model and embeds
   one batch of 32 chunks: ``rss_mb_model_loaded`` is the resident set size at that point
   (/proc/self/statm; peaks are VmHWM). It then runs a few queries on the collection. This
   is done twice: on the benchmark's DATA_DIR (``rss_mb_model_loaded``, the bot with a
   knowledge base of --collection-size chunks, whose HNSW index Chroma holds in memory)
   and on an empty one (``rss_mb_model_loaded_empty_kb``).

The machine is shared: the 1-minute load average and this process's CPU time per phase are
in the output. Prints one JSON object on stdout; logs go to stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

TARGET_IMPORT_CHUNKS_PER_SECOND = 80
TARGET_QUERY_P95_MS = 25
TARGET_RSS_MB = 350
CHUNK_SIZE = 500
CHUNK_OVERLAP = 50
CHUNKS_PER_DOCUMENT = 10
FILL_BATCH = 5000
WARMUP_QUERIES = 10
TOP_K = 5
TOKEN = "123456:TEST-TOKEN"
CATEGORIES = ("governance", "events", "finance", "maintenance", "outreach")

log = logging.getLogger("bench.knowledge")


# -- memory ----------------------------------------------------------------------------


def rss_mb() -> float:
    """Current resident set size (/proc/self/statm, second field, in pages)."""
    with open("/proc/self/statm") as fh:
        pages = int(fh.read().split()[1])
    return round(pages * os.sysconf("SC_PAGE_SIZE") / 2**20, 1)


def peak_rss_mb() -> float:
    """High-water mark of this process's RSS.

    VmHWM (/proc/self/status) rather than ru_maxrss: Linux carries ru_maxrss over fork and
    exec, so a subprocess would report the parent's peak.
    """
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)  # kB
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)  # KiB on Linux


def load_1m() -> float:
    return round(os.getloadavg()[0], 2)


# -- text --------------------------------------------------------------------------------

TOPICS: dict[str, dict[str, list[str]]] = {
    "governance": {
        "things": "bylaws|voting rules|quorum requirement|steering committee|annual general "
        "meeting|code of conduct|membership register|election timetable|proposal template|"
        "conflict of interest policy|meeting minutes|working group charter".split("|"),
        "acts": "amend|ratify|review|publish|simplify|vote on|postpone|draft|clarify|"
        "reconsider".split("|"),
        "people": "the chair|the secretary|the steering committee|two board members|"
        "the governance working group|our facilitator".split("|"),
    },
    "events": {
        "things": "summer street party|film night|repair cafe|winter market|book swap|"
        "open mic evening|bike maintenance workshop|children's craft morning|harvest "
        "festival|language exchange|quiz night|neighbourhood walk".split("|"),
        "acts": "organise|promote|reschedule|cater for|set up|cancel|advertise|host|"
        "plan|staff".split("|"),
        "people": "the events team|a group of parents|the youth club|volunteers from the "
        "allotments|the music collective|our newest members".split("|"),
    },
    "finance": {
        "things": "annual budget|membership fees|grant application|insurance premium|"
        "bank account|expense claims|reserve fund|donation box|equipment purchase|"
        "hall rental income|audit report|treasurer's statement".split("|"),
        "acts": "approve|reduce|audit|increase|reallocate|report on|cap|reimburse|"
        "forecast|freeze".split("|"),
        "people": "the treasurer|the finance subgroup|an external auditor|the grants "
        "officer|the board|a retired accountant among us".split("|"),
    },
    "maintenance": {
        "things": "community hall roof|heating system|garden irrigation|broken fence|"
        "playground equipment|kitchen extractor fan|accessible ramp|storage shed|"
        "fire alarm panel|leaking gutter|tool library|solar panels".split("|"),
        "acts": "repair|inspect|replace|paint|clean|insulate|upgrade|secure|service|"
        "dismantle".split("|"),
        "people": "the caretaker|a local contractor|the maintenance rota|volunteers "
        "with building skills|the facilities lead|the landlord's surveyor".split("|"),
    },
    "outreach": {
        "things": "monthly newsletter|welcome pack|social media accounts|community "
        "noticeboard|door-to-door survey|partnership with the school|translation of "
        "leaflets|website|local radio slot|mailing list|press release|library stall".split("|"),
        "acts": "redesign|expand|translate|distribute|update|launch|evaluate|share|"
        "relaunch|coordinate".split("|"),
        "people": "the communications team|a volunteer designer|the outreach officer|"
        "students from the college|our translators|the welcome committee".split("|"),
    },
}
PLACES = (
    "community hall|library annexe|allotment gardens|primary school gym|parish room|"
    "town square|co-working space|riverside park|sports club bar|old fire station".split("|")
)
WHEN = (
    "next Tuesday evening|before the end of the month|at the spring meeting|over the "
    "summer holidays|within six weeks|after the council replies|on the first Saturday of "
    "March|by the autumn|during the half-term break|once the funding arrives".split("|")
)
REASONS = (
    "more residents can take part|costs stay predictable|nobody is left out|the workload "
    "is shared fairly|we meet the insurer's conditions|the space stays safe for children|"
    "newcomers understand how decisions are made|we keep our promise to the funders|"
    "older members can attend|the neighbours are not disturbed".split("|")
)
OUTCOMES = (
    "went better than expected|caused some confusion|saved a noticeable amount of money|"
    "brought in several new volunteers|needs a follow-up discussion|was delayed by the "
    "weather|received mostly positive feedback|showed where the gaps are".split("|")
)
NAMES = "Amira|Ben|Chloe|Dariusz|Esther|Farid|Grace|Hiroshi|Ines|Jonas|Kemi|Lars".split("|")
ADJECTIVES = "simple|temporary|shared|cheaper|clearer|permanent|volunteer-run|weekly".split("|")

SENTENCES = [
    "{People} agreed to {act} the {thing} at the {place} {when}.",
    "Several members worried that the {thing} would become a problem unless we {act} it {when}.",
    "Last year {n} households were involved with the {thing}, and the work {outcome}.",
    "{Name} proposed that we {act} the {thing} so that {reason}.",
    "A short survey found that {pct} percent of respondents want us to {act} the {thing} "
    "rather than the {thing2}.",
    "Questions about the {thing} should go to {people} before {when}.",
    "The previous attempt to {act} the {thing2} {outcome}, so {people} suggested a "
    "{adj} approach this time.",
    "We estimate that it will take {n} volunteer hours to {act} the {thing}, which is "
    "realistic if {reason2}.",
    "{Name} reminded everyone that the {thing} is discussed at the {place} {when}.",
    "Until {people} report back, nobody should {act} the {thing2} on their own.",
    "The notes from the {place} show that the {thing} {outcome} and that {reason}.",
    "If the proposal passes, {people} will {act} the {thing} and publish a summary {when}.",
]


class TextGenerator:
    """Seeded generator of varied, readable paragraphs about one community topic."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def sentence(self, category: str) -> str:
        r = self.rng
        topic = TOPICS[category]
        thing, thing2 = r.sample(topic["things"], 2)
        people = r.choice(topic["people"])
        return r.choice(SENTENCES).format(
            People=people[0].upper() + people[1:],
            people=people,
            act=r.choice(topic["acts"]),
            thing=thing,
            thing2=thing2,
            place=r.choice(PLACES),
            when=r.choice(WHEN),
            reason=r.choice(REASONS),
            reason2=r.choice(REASONS),
            outcome=r.choice(OUTCOMES),
            Name=r.choice(NAMES),
            n=r.randint(3, 240),
            pct=r.randint(12, 91),
            adj=r.choice(ADJECTIVES),
        )

    def document(self, category: str, chunks: int = CHUNKS_PER_DOCUMENT) -> str:
        """Text that chunk_text cuts into exactly ``chunks`` chunks (the last one full too)."""
        from app.nlp.chunking import chunk_text

        sentences: list[str] = []
        while True:
            sentence = self.sentence(category)
            if self.rng.random() < 0.18:
                sentence += "\n\n"  # paragraph breaks
            candidate = " ".join([*sentences, sentence]).strip()
            approx_full = len(candidate) > (CHUNK_SIZE - CHUNK_OVERLAP) * (chunks - 1) + 300
            if approx_full and len(chunk_text(candidate, CHUNK_SIZE, CHUNK_OVERLAP)) > chunks:
                return " ".join(sentences).strip()
            sentences.append(sentence)

    def query(self, category: str) -> str:
        r = self.rng
        topic = TOPICS[category]
        thing = r.choice(topic["things"])
        return r.choice(
            [
                f"How do we {r.choice(topic['acts'])} the {thing}?",
                f"What did {r.choice(topic['people'])} decide about the {thing}?",
                f"Who is responsible for the {thing}?",
                f"When will the {thing} be discussed at the {r.choice(PLACES)}?",
                f"{thing} {r.choice(topic['acts'])} {r.choice(WHEN)}",
                f"Why should we {r.choice(topic['acts'])} the {thing} so that {r.choice(REASONS)}?",
                f"is there a plan for the {thing} and what did it cost",
            ]
        )


def make_documents(gen: TextGenerator, count: int, start: int) -> list[tuple[str, str, str]]:
    """(title, category, content) for ``count`` documents numbered from ``start``."""
    out = []
    for i in range(start, start + count):
        category = CATEGORIES[i % len(CATEGORIES)]
        title = f"{category.capitalize()} notes #{i}: {gen.sentence(category)[:60].rstrip()}"
        out.append((title, category, gen.document(category)))
    return out


# -- helpers -----------------------------------------------------------------------------


def summary(seconds: list[float]) -> dict[str, float]:
    from bench.common import latency_summary

    got = latency_summary(seconds)
    return {k.removesuffix("_ms"): v for k, v in got.items()}


async def timed_calls(calls: list[Callable[[], Awaitable[Any]]]) -> tuple[list[float], list[Any]]:
    latencies, results = [], []
    for call in calls:
        started = time.perf_counter()
        results.append(await call())
        latencies.append(time.perf_counter() - started)
    return latencies, results


def settings_for(data_dir: Path) -> Any:
    from app.config import Settings

    return Settings(  # type: ignore[call-arg]
        _env_file=None,
        data_dir=data_dir,
        database_url=f"sqlite+aiosqlite:///{(data_dir / 'kb.sqlite3').resolve()}",
        telegram_bot_token=TOKEN,
        admin_telegram_ids=frozenset({4242}),
        bot_timezone="UTC",
    )


class PhaseTimer:
    """Adds up wall time spent inside wrapped coroutine methods of one object."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self._wrapped: list[tuple[Any, str]] = []

    def wrap(self, obj: Any, method: str, label: str) -> None:
        original = getattr(obj, method)
        self.seconds.setdefault(label, 0.0)

        async def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return await original(*args, **kwargs)
            finally:
                self.seconds[label] += time.perf_counter() - started

        setattr(obj, method, timed)  # an instance attribute shadows the method
        self._wrapped.append((obj, method))

    def restore(self) -> None:
        for obj, method in self._wrapped:
            delattr(obj, method)
        self._wrapped.clear()


# -- the main run ------------------------------------------------------------------------


async def import_phase(container: Any, args: argparse.Namespace, gen: TextGenerator) -> dict:
    from app.nlp.chunking import chunk_text
    from app.persistence.repositories.documents import DocumentRepository
    from app.services.embeddings import load_minilm_tokenizer
    from app.services.vector_db_service import CHUNKS

    n_docs = max(1, -(-args.chunks // CHUNKS_PER_DOCUMENT))
    warmup = make_documents(gen, 1, 0)
    documents = make_documents(gen, n_docs, 1)
    pairs = [(c, d) for d in documents for c in chunk_text(d[2], CHUNK_SIZE, CHUNK_OVERLAP)]
    chunks = [c for c, _ in pairs]
    tokenizer = load_minilm_tokenizer()
    tokens = [len(e.ids) for e in tokenizer.encode_batch(chunks)]
    log.info("%d documents, %d chunks, %.0f tokens/chunk", n_docs, len(chunks), np.mean(tokens))

    started = time.perf_counter()
    container.embedder.load()
    model_load_s = time.perf_counter() - started
    container.embedder.embed_array(chunks[:32])
    await container.vectors.open_all()
    title, category, text = warmup[0]
    await container.documents.knowledge_import(title, text, category=category)

    timer = PhaseTimer()
    timer.wrap(container.vectors, "embed", "embed")
    timer.wrap(container.vectors, "upsert", "upsert")
    timer.wrap(container.index, "chunks_changed", "index")
    load_before = load_1m()
    cpu0, started = time.process_time(), time.perf_counter()
    imported = 0
    for i, (title, category, text) in enumerate(documents):
        result = await container.documents.knowledge_import(
            title, text, category=category, chunk_size=CHUNK_SIZE, chunk_overlap=CHUNK_OVERLAP
        )
        imported += result.chunks_created
        if (i + 1) % 20 == 0:
            rate = imported / (time.perf_counter() - started)
            log.info("imported %d/%d documents (%.1f chunks/s)", i + 1, n_docs, rate)
    elapsed = time.perf_counter() - started
    cpu = time.process_time() - cpu0
    timer.restore()
    parts = timer.seconds
    breakdown = {
        "embed_s": parts["embed"],
        "chroma_upsert_s": parts["upsert"] - parts["embed"],
        "sql_index_bookkeeping_s": parts["index"] - parts["upsert"],
        "sql_import_transaction_s": elapsed - parts["index"],
    }

    async with container.db.transaction() as session:
        pending = await DocumentRepository(session).count_chunks(pending_only=True)
        stored = await DocumentRepository(session).count_chunks()
    indexed = await container.vectors.count(CHUNKS)
    if pending or indexed != stored:
        log.warning(
            "index out of step: %d pending, %d in Chroma, %d in SQL", pending, indexed, stored
        )

    log.info("raw embedding of the same %d chunks", len(chunks))
    cpu1, t = time.process_time(), time.perf_counter()
    vectors = container.embedder.embed_array(chunks)
    embed_s = time.perf_counter() - t
    embed_cpu = time.process_time() - cpu1

    return {
        "documents_imported": n_docs,
        "chunks_imported": imported,
        "mean_chunk_chars": round(float(np.mean([len(c) for c in chunks])), 1),
        "mean_chunk_tokens": round(float(np.mean(tokens)), 1),
        "model_load_seconds": round(model_load_s, 2),
        "import_seconds": round(elapsed, 2),
        "import_chunks_per_second": round(imported / elapsed, 1),
        "import_cpu_seconds": round(cpu, 1),
        "import_breakdown_seconds": {k: round(v, 2) for k, v in breakdown.items()},
        "import_breakdown_share": {
            k.removesuffix("_s"): round(v / elapsed, 3) for k, v in breakdown.items()
        },
        "embed_seconds": round(embed_s, 2),
        "embed_chunks_per_second": round(len(chunks) / embed_s, 1),
        "embed_cpu_seconds": round(embed_cpu, 1),
        "embed_chunks_per_cpu_second": round(len(chunks) / max(embed_cpu, 1e-9), 1),
        "sql_chunks": stored,
        "chroma_chunks_after_import": indexed,
        "loadavg_1m_import": [load_before, load_1m()],
        "_base": (chunks, vectors, [d for _, d in pairs]),
    }


async def fill_phase(container: Any, args: argparse.Namespace, gen: TextGenerator, base: Any):
    """Top the chunk collection up to --collection-size with perturbed real vectors."""
    from app.nlp.chunking import chunk_text
    from app.services.vector_db_service import CHUNKS

    texts, vectors, docs = base
    texts, docs = list(texts), list(docs)
    extra = max(0, args.base_vectors - len(texts))
    if extra:
        more = make_documents(gen, -(-extra // CHUNKS_PER_DOCUMENT), 100_000)
        new = [(c, d) for d in more for c in chunk_text(d[2], CHUNK_SIZE, CHUNK_OVERLAP)][:extra]
        log.info("embedding %d more distinct chunks as base vectors", len(new))
        t = time.perf_counter()
        more_vectors = container.embedder.embed_array([c for c, _ in new])
        log.info("... %.1f chunks/s", len(new) / (time.perf_counter() - t))
        vectors = np.vstack([vectors, more_vectors])
        texts += [c for c, _ in new]
        docs += [d for _, d in new]
    n_base = len(texts)

    have = await container.vectors.count(CHUNKS)
    todo = max(0, args.collection_size - have)
    rng = np.random.default_rng(args.seed)
    id_rng = random.Random(args.seed)
    cosines: list[np.ndarray] = []
    started = time.perf_counter()
    document_id = ""
    for start in range(0, todo, FILL_BATCH):
        n = min(FILL_BATCH, todo - start)
        which = (np.arange(start, start + n) * 7919) % n_base  # spread each base's copies
        noisy = vectors[which] + rng.standard_normal((n, vectors.shape[1]), dtype=np.float32) * (
            args.noise
        )
        noisy /= np.linalg.norm(noisy, axis=1, keepdims=True)
        cosines.append(np.einsum("ij,ij->i", noisy, vectors[which]))
        ids, metadatas = [], []
        for j, b in enumerate(which):
            k = start + j
            if k % CHUNKS_PER_DOCUMENT == 0:
                document_id = str(uuid.UUID(int=id_rng.getrandbits(128), version=4))
            ids.append(str(uuid.UUID(int=id_rng.getrandbits(128), version=4)))
            title, category, _ = docs[b]
            metadatas.append(
                {
                    "document_id": document_id,
                    "chunk_index": k % CHUNKS_PER_DOCUMENT,
                    "category": category,
                    "proposal_id": 0,
                    "scope": "global",
                    "title": f"{title} (v{k // n_base + 2})",
                }
            )
        await container.vectors.upsert(
            CHUNKS, ids, [texts[b] for b in which], metadatas, embeddings=noisy
        )
        log.info("collection filled: %d/%d", have + start + n, args.collection_size)
    fill_s = time.perf_counter() - started
    size = await container.vectors.count(CHUNKS)
    cos = np.concatenate(cosines) if cosines else np.zeros(0)
    return {
        "collection_size": size,
        "fill_vectors": todo,
        "fill_seconds": round(fill_s, 1),
        "fill_chroma_upserts_per_second": round(todo / fill_s, 1) if fill_s else None,
        "base_vectors": n_base,
        "synthetic_cosine_to_base": {
            "mean": round(float(cos.mean()), 3) if cos.size else None,
            "min": round(float(cos.min()), 3) if cos.size else None,
        },
        "synthetic_vectors": (
            f"{size - todo} entries are real imported chunks; the other {todo} are "
            f"perturbations of {n_base} distinct real chunks embedded by the real model "
            f"(the imported chunks + {extra} more generated ones): base + N(0, {args.noise}^2) "
            "per dimension, L2-normalised, cycling over the bases (about "
            f"{todo // max(n_base, 1)} copies each), with the base's text, category and title "
            "and IndexService-style metadata, upserted in batches of "
            f"{FILL_BATCH} via VectorDBService.upsert(embeddings=...); no SQL rows for them"
        ),
    }


async def query_phase(container: Any, args: argparse.Namespace, gen: TextGenerator) -> dict:
    from app.services.vector_db_service import CHUNKS

    docs = container.documents
    vectors = container.vectors
    n = args.queries
    plain = [gen.query(CATEGORIES[i % len(CATEGORIES)]) for i in range(n)]
    filtered = [(gen.query(c), c) for c in (CATEGORIES[(i * 3) % 5] for i in range(n))]
    warm = [gen.query(CATEGORIES[i % len(CATEGORIES)]) for i in range(WARMUP_QUERIES)]

    load_before = load_1m()
    t = time.perf_counter()
    await docs.knowledge_query(warm[0], top_k=TOP_K)
    first_ms = (time.perf_counter() - t) * 1000
    for q in warm[1:]:
        await docs.knowledge_query(q, top_k=TOP_K)
        await docs.knowledge_query(q, top_k=TOP_K, category=CATEGORIES[0])

    cpu0 = time.process_time()
    lat_plain, res_plain = await timed_calls(
        [partial(docs.knowledge_query, q, top_k=TOP_K) for q in plain]
    )
    lat_filtered, res_filtered = await timed_calls(
        [partial(docs.knowledge_query, q, top_k=TOP_K, category=c) for q, c in filtered]
    )
    query_cpu = time.process_time() - cpu0
    wrong = sum(
        1
        for (_, c), r in zip(filtered, res_filtered, strict=True)
        for item in r["results"]
        if item["document"]["category"] != c
    )
    short = sum(r["total"] < TOP_K for r in res_plain + res_filtered)
    if wrong or short:
        log.warning("%d hits outside the category filter, %d short answers", wrong, short)

    emb_plain = container.embedder.embed_array(plain)
    emb_filtered = container.embedder.embed_array([q for q, _ in filtered])
    lat_chroma, hits_chroma = await timed_calls(
        [partial(vectors.query, CHUNKS, e, TOP_K) for e in emb_plain]
    )
    lat_chroma_f, _ = await timed_calls(
        [
            partial(vectors.query, CHUNKS, e, TOP_K, {"category": c})
            for e, (_, c) in zip(emb_filtered, filtered, strict=True)
        ]
    )
    lat_embed = []
    for q in plain:
        t = time.perf_counter()
        container.embedder.embed_array([q])
        lat_embed.append(time.perf_counter() - t)
    load_after = load_1m()

    # recall@5 of the HNSW search against exact search over what Chroma stores
    collection = await vectors._collection(CHUNKS)
    ids: list[str] = []
    stored: list[np.ndarray] = []
    total = await vectors.count(CHUNKS)
    for offset in range(0, total, FILL_BATCH):
        got = await asyncio.to_thread(
            collection.get, include=["embeddings"], limit=FILL_BATCH, offset=offset
        )
        ids += got["ids"]
        stored.append(np.asarray(got["embeddings"], dtype=np.float32))
    matrix = np.vstack(stored)
    exact = np.argsort(-(emb_plain @ matrix.T), axis=1)[:, :TOP_K]
    recall = np.mean(
        [
            len({ids[j] for j in row} & {h.id for h in hits}) / TOP_K
            for row, hits in zip(exact, hits_chroma, strict=True)
        ]
    )
    del matrix, stored

    return {
        "queries": n,
        "top_k": TOP_K,
        "first_query_ms": round(first_ms, 1),
        "query_ms": summary(lat_plain),
        "query_filtered_ms": summary(lat_filtered),
        "chroma_only_query_ms": summary(lat_chroma),
        "chroma_only_filtered_query_ms": summary(lat_chroma_f),
        "query_embedding_ms": summary(lat_embed),
        "query_cpu_ms_per_query": round(1000 * query_cpu / (2 * n), 2),
        "recall_at_5_vs_exact": round(float(recall), 3),
        "filtered_hits_outside_category": wrong,
        "loadavg_1m_queries": [load_before, load_after],
    }


async def run(args: argparse.Namespace, data_dir: Path) -> dict[str, Any]:
    from app.container import Container
    from app.domain.clock import SystemClock
    from app.persistence.database import Database
    from app.persistence.migrations import upgrade_head
    from app.services.embeddings import OnnxMiniLMEmbedder

    settings = settings_for(data_dir)
    url = settings.resolved_database_url
    await asyncio.to_thread(upgrade_head, url)
    embedder = OnnxMiniLMEmbedder()  # the app's defaults, as default_embedder() builds it
    container = Container(settings, clock=SystemClock(), database=Database(url), embedder=embedder)
    gen = TextGenerator(args.seed)
    out: dict[str, Any] = {"embedder": embedder.to_config()}
    try:
        out.update(await import_phase(container, args, gen))
        out["rss_mb_after_imports"] = rss_mb()
        out.update(await fill_phase(container, args, gen, out.pop("_base")))
        out["rss_mb_after_fill"] = rss_mb()
        out.update(await query_phase(container, args, gen))
    finally:
        await container.stop()
    out["rss_mb_end"] = rss_mb()
    out["peak_rss_mb"] = peak_rss_mb()
    return out


def memory_subprocess(data_dir: Path | None) -> dict[str, Any]:
    """``--memory-only`` in a fresh interpreter, on ``data_dir`` (None: an empty one)."""
    log.info("measuring memory in a fresh process (%s)", data_dir or "empty knowledge base")
    command = [sys.executable, str(Path(__file__).resolve()), "--memory-only"]
    if data_dir is not None:
        command += ["--data-dir", str(data_dir)]
    done = subprocess.run(command, stdout=subprocess.PIPE, check=True, text=True)
    return json.loads(done.stdout)  # type: ignore[no-any-return]


# -- --memory-only -----------------------------------------------------------------------


async def memory_only(data_dir: Path, seed: int) -> dict[str, Any]:
    out: dict[str, Any] = {"rss_mb_interpreter": rss_mb()}
    import app.telegram_handlers.bot  # noqa: F401  (the bot process imports it all)
    from app.container import Container
    from app.services.vector_db_service import CHUNKS

    out["rss_mb_modules_imported"] = rss_mb()
    container = Container(settings_for(data_dir))  # default_embedder(), as the bot
    try:
        await container.vectors.open_all()
        out["collection_size"] = await container.vectors.count(CHUNKS)
        out["rss_mb_collections_open"] = rss_mb()
        gen = TextGenerator(seed + 1)
        from app.nlp.chunking import chunk_text

        batch = [
            c
            for category in CATEGORIES * 2
            for c in chunk_text(gen.document(category, 4), CHUNK_SIZE, CHUNK_OVERLAP)
        ][:32]
        t = time.perf_counter()
        container.embedder.load()  # type: ignore[attr-defined]
        container.embedder.embed_array(batch)
        out["model_load_and_first_batch_seconds"] = round(time.perf_counter() - t, 2)
        out["first_batch_chunks"] = len(batch)
        out["rss_mb_model_loaded"] = rss_mb()
        out["model_mb"] = round(out["rss_mb_model_loaded"] - out["rss_mb_collections_open"], 1)
        t = time.perf_counter()
        await container.documents.knowledge_query("who repairs the community hall roof?")
        out["first_query_ms"] = round((time.perf_counter() - t) * 1000, 1)
        out["rss_mb_after_first_query"] = rss_mb()
        for q in ("budget for the winter market", "how do we amend the bylaws?"):
            await container.documents.knowledge_query(q)
        out["rss_mb_after_queries"] = rss_mb()
    finally:
        await container.stop()
    out["peak_rss_mb"] = peak_rss_mb()
    return out


# -- entry point -------------------------------------------------------------------------


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--chunks", type=int, default=1000, help="chunks to import (~10/doc)")
    parser.add_argument("--collection-size", type=int, default=50_000)
    parser.add_argument("--queries", type=int, default=200, help="of each kind")
    parser.add_argument(
        "--base-vectors",
        type=int,
        default=2000,
        help="distinct real chunks embedded by the model to derive the synthetic entries from",
    )
    parser.add_argument(
        "--noise", type=float, default=0.025, help="per-dimension sigma of the perturbation"
    )
    parser.add_argument("--seed", type=int, default=20_240_601)
    parser.add_argument(
        "--data-dir", type=Path, help="DATA_DIR to use (must be empty; default: a temp dir)"
    )
    parser.add_argument(
        "--memory-only",
        action="store_true",
        help="only the memory measurement, in this process (run by the main run)",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    if args.memory_only:
        logging.basicConfig(
            stream=sys.stderr,
            level=logging.WARNING,
            format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        )
        with tempfile.TemporaryDirectory(prefix="coordbot-kb-mem-") as tmp:
            result = asyncio.run(memory_only(args.data_dir or Path(tmp), args.seed))
        print(json.dumps({"benchmark": "knowledge-memory", **result}))
        return

    from bench.common import log_to_stderr

    log_to_stderr()
    log.setLevel(logging.INFO)
    own_dir = args.data_dir is None
    data_dir = Path(tempfile.mkdtemp(prefix="coordbot-kb-")) if own_dir else args.data_dir
    if not own_dir and data_dir.exists() and any(data_dir.iterdir()):
        raise SystemExit(f"--data-dir {data_dir} is not empty")
    started = time.perf_counter()
    load_start = load_1m()
    try:
        result = asyncio.run(run(args, data_dir))
        memory = memory_subprocess(data_dir)
        memory_empty = memory_subprocess(None)
    finally:
        if own_dir:
            shutil.rmtree(data_dir, ignore_errors=True)

    query_p95 = result["query_ms"]["p95"]
    report = {
        "benchmark": "knowledge",
        "database": "sqlite",
        "cpus": len(os.sched_getaffinity(0)),
        "loadavg_1m_start": load_start,
        **result,
        "target_import_chunks_per_second": TARGET_IMPORT_CHUNKS_PER_SECOND,
        "target_query_p95_ms": TARGET_QUERY_P95_MS,
        "rss_mb_model_loaded": memory["rss_mb_model_loaded"],
        "rss_mb_model_loaded_empty_kb": memory_empty["rss_mb_model_loaded"],
        "memory": memory,
        "memory_empty_kb": memory_empty,
        "target_rss_mb": TARGET_RSS_MB,
        "meets_targets": {
            "import": result["import_chunks_per_second"] >= TARGET_IMPORT_CHUNKS_PER_SECOND,
            "query": query_p95 <= TARGET_QUERY_P95_MS,
            "query_filtered": result["query_filtered_ms"]["p95"] <= TARGET_QUERY_P95_MS,
            "memory": memory["rss_mb_model_loaded"] <= TARGET_RSS_MB,
            "memory_empty_kb": memory_empty["rss_mb_model_loaded"] <= TARGET_RSS_MB,
        },
        "loadavg_1m_end": load_1m(),
        "total_seconds": round(time.perf_counter() - started, 1),
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
