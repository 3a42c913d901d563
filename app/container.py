"""The composition root: builds every service from Settings and owns their lifetime."""

from __future__ import annotations

import logging

import chromadb
from chromadb.api import ClientAPI
from chromadb.config import Settings as ChromaSettings

from app.config import Settings
from app.core.ask.context_service import ContextService
from app.core.closing.closing_service import ClosingService
from app.core.closing.outbox_service import OutboxService
from app.core.closing.results_service import ResultsService
from app.core.closing.themes import ThemeSummarizer
from app.core.closing.themes_llm import LLMThemeSummarizer
from app.core.closing.themes_semantic import EmbeddingThemeSummarizer
from app.core.graph.document_facts import DocumentFacts
from app.core.graph.fact_vectors import FactVectors
from app.core.graph.graph_service import GraphService
from app.core.graph.proposal_facts import FanOutIndexer, ProposalFactsSync
from app.core.knowledge.document_service import DocumentService
from app.core.knowledge.index_service import IndexService
from app.core.knowledge.lexical_index import LexicalIndexService
from app.core.proposals.language_service import LanguageService
from app.core.proposals.proposal_catalog import ProposalCatalog
from app.core.proposals.proposal_service import ProposalService
from app.core.proposals.submission_service import SubmissionService
from app.domain.clock import Clock, SystemClock
from app.domain.interfaces import (
    DeadlineScheduler,
    DeliveryError,
    DocumentHook,
    MessageSender,
    NullDocumentHook,
    NullPublisher,
    NullScheduler,
    ProposalPublisher,
)
from app.domain.models import OutboxMessage, Proposal
from app.persistence.database import Database
from app.persistence.leases import sending_lease
from app.persistence.migrations import upgrade_head_async
from app.services.embeddings import Embedder, OnnxMiniLMEmbedder
from app.services.llm import LLMService
from app.services.llm.factory import build_llm_service
from app.services.vector_db_service import VectorDBService, embedded_stamp

logger = logging.getLogger(__name__)


class OfflineSender:
    """Used where no bot runs (CLI): messages wait in the outbox for `coordbot run`."""

    async def deliver(self, message: OutboxMessage, proposal: Proposal | None) -> int | None:
        raise DeliveryError("no Telegram connection in this process", retry_after=60)


_embedders: dict[str, Embedder] = {}


def default_embedder(settings: Settings) -> Embedder:
    """The configured embedder: a local model is shared per process and path (it loads
    on first use); an OpenAI-compatible one is a light client, made per call."""
    if settings.embedding_backend == "openai":
        from app.services.openai_embeddings import OpenAIEmbedder

        return OpenAIEmbedder(
            settings.openai_embedding_model,
            api_key=settings.openai_api_key,
            base_url=settings.openai_base_url,
            dimension=settings.embedding_dimensions,
            timeout=settings.llm_timeout_seconds,
            max_retries=settings.llm_max_retries,
        )
    key = f"{settings.embedding_model_path or ''}|{settings.embedding_int8}"
    if key not in _embedders:
        int8 = settings.embedding_int8 != "off"
        _embedders[key] = OnnxMiniLMEmbedder(
            settings.embedding_model_path,
            int8=int8,
            int8_weights=settings.embedding_int8 if int8 else "auto",
        )
    return _embedders[key]


def chroma_client(settings: Settings) -> ClientAPI:
    """A Chroma server when CHROMA_HOST is set, else the embedded store under DATA_DIR."""
    chroma_settings = ChromaSettings(anonymized_telemetry=False)
    if settings.chroma_host:
        return chromadb.HttpClient(
            host=settings.chroma_host, port=settings.chroma_port, settings=chroma_settings
        )
    settings.chroma_path.mkdir(parents=True, exist_ok=True)
    return chromadb.PersistentClient(path=str(settings.chroma_path), settings=chroma_settings)


class Container:
    """Everything a front door needs, built once; ``stop()`` releases it."""

    def __init__(
        self,
        settings: Settings,
        *,
        clock: Clock | None = None,
        publisher: ProposalPublisher | None = None,
        scheduler: DeadlineScheduler | None = None,
        sender: MessageSender | None = None,
        database: Database | None = None,
        embedder: Embedder | None = None,
        llm: LLMService | None = None,
    ) -> None:
        self.settings = settings
        self.clock: Clock = clock or SystemClock()
        self.db = database or Database(settings.resolved_database_url)
        self.publisher: ProposalPublisher = publisher or NullPublisher()
        self.scheduler: DeadlineScheduler = scheduler or NullScheduler()
        self.embedder: Embedder = embedder or default_embedder(settings)
        stamp = None if settings.chroma_host else embedded_stamp(settings.chroma_path)
        self.vectors = VectorDBService(lambda: chroma_client(settings), self.embedder, stamp)
        # the facts' vectors: caught up on read, and by the graph after a bulk write
        self.fact_vectors = FactVectors(self.db, self.vectors)
        self.index = IndexService(self.db, self.vectors, self.fact_vectors)
        self.lexical = LexicalIndexService(self.db, settings.bot_language)
        self.llm = llm or build_llm_service(settings)
        self.graph = GraphService(
            self.db,
            self.clock,
            admin_ids=settings.admin_telegram_ids,
            timezone=settings.timezone,
            language=settings.bot_language,
            fact_index=self.fact_vectors,
        )
        self.documents = DocumentService(
            self.db,
            self.clock,
            self.vectors,
            self.index,
            admin_ids=settings.admin_telegram_ids,
            facts=self.document_facts(),
            language=settings.bot_language,
        )
        # After every proposal change: refresh its search entry and its facts.
        indexer = FanOutIndexer(self.index, ProposalFactsSync(self.graph))
        self.proposals = ProposalService(
            self.db,
            self.clock,
            self.publisher,
            self.scheduler,
            indexer,
            target_channel_id=settings.target_channel_id,
            admin_ids=settings.admin_telegram_ids,
            language=settings.bot_language,
        )
        self.submissions = SubmissionService(self.db, self.clock)
        self.languages = LanguageService(self.db, self.clock)
        self.results = ResultsService(self.db)
        self.closing = ClosingService(
            self.db,
            self.clock,
            self.scheduler,
            self.theme_summarizer(),
            indexer,
            admin_ids=settings.admin_telegram_ids,
            reminder_before=settings.reminder_before,
        )
        self.outbox = OutboxService(
            self.db, self.clock, sender or OfflineSender(), lease=sending_lease(self.db)
        )
        self.context = ContextService(
            self.db,
            self.clock,
            self.vectors,
            self.documents,
            self.graph,
            self.llm,
            settings.timezone,
            settings.bot_language,
            self.index.units,
            self.fact_vectors,
        )
        # Proposals as any reader may see them (the MCP server's proposal tools).
        self.catalog = ProposalCatalog(
            self.db, self.context.search, self.vectors.embed, self.documents, self.clock
        )

    def theme_summarizer(self) -> ThemeSummarizer:
        """Free-form themes: a model's when one is configured (LLMService answers None
        without one), else groups by meaning, else (embedding failed) by keywords."""
        return LLMThemeSummarizer(self.llm, fallback=EmbeddingThemeSummarizer(self.vectors.embed))

    def document_facts(self) -> DocumentHook:
        """Facts read from documents by a model; without one (no OPENAI_API_KEY) documents
        feed no facts and an import costs nothing extra."""
        if self.llm.primary is None:
            return NullDocumentHook()
        return DocumentFacts(self.graph, self.llm)

    async def migrate(self) -> None:
        await upgrade_head_async(self.db.url, self.settings.bot_language)

    async def start(self) -> None:
        logger.info("services started (database: %s)", self.db.dialect)

    async def stop(self) -> None:
        await self.llm.aclose()
        await self.vectors.close()
        await self.outbox.close()
        await self.db.dispose()
