"""Settings, read once from the environment and ``.env``.

One class holds every knob the operator can turn; nothing is read at import
time. Secrets (the bot token, the OpenAI key) have no defaults.
"""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path
from typing import Annotated, Literal
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict


class Settings(BaseSettings):
    # An empty value (as in .env.example) means "not set": the default applies.
    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", env_ignore_empty=True
    )

    telegram_bot_token: str | None = None
    database_url: str | None = None
    data_dir: Path = Path("./data")
    admin_telegram_ids: Annotated[frozenset[int], NoDecode] = frozenset()
    target_channel_id: str | None = None
    bot_timezone: str = "UTC"
    # The community's language: channel posts, reminders, results and charts. Members
    # read their DMs in their own language (Telegram's, or the one chosen with /language).
    bot_language: str = "en"
    reminder_before_hours: float = Field(default=24.0, ge=0)
    log_level: str = "INFO"
    chroma_host: str | None = None
    chroma_port: int = 8000
    embedding_model_path: Path | None = None
    # "local": the bundled ONNX model; "openai": OPENAI_BASE_URL's /v1/embeddings.
    embedding_backend: Literal["local", "openai"] = "local"
    openai_embedding_model: str = "text-embedding-3-small"
    embedding_dimensions: int | None = Field(default=None, ge=1, le=8192)
    # The bundled model's int8 graph: "auto" picks int8 or uint8 weights for this CPU;
    # "int8" / "uint8" force one (still checked against probe vectors); "off": float32.
    embedding_int8: Literal["auto", "int8", "uint8", "off"] = "auto"
    sweep_interval_seconds: float = Field(default=60.0, gt=0, le=60)
    # /ask: any OpenAI-compatible server; without a key the offline backend answers.
    openai_api_key: str | None = None
    openai_base_url: str | None = None
    openai_model: str = "gpt-4o-mini"
    openai_answer_model: str | None = None  # defaults to openai_model
    llm_timeout_seconds: float = Field(default=20.0, gt=0, le=120)
    llm_max_retries: int = Field(default=1, ge=0, le=5)
    # /ask: characters of evidence a model reads per question (~4 a token). A small model
    # on a CPU reads 35-75 tokens a second: fewer characters, faster answers.
    llm_evidence_chars: int = Field(default=6000, ge=500, le=50_000)
    # `coordbot mcp --http`: the bearer token every request needs, and the host names
    # (besides localhost) a server behind a real name answers to, comma-separated.
    mcp_token: str | None = None
    mcp_allowed_hosts: Annotated[tuple[str, ...], NoDecode] = ()
    # Deployment: a self-hosted Bot API server, webhooks, the health/metrics server.
    telegram_api_base_url: str = "https://api.telegram.org/bot"
    telegram_api_file_url: str | None = None  # PTB's default: .../file/bot
    telegram_local_mode: bool = False
    # PTB's client-side limiter (30 messages/s, 20 per minute per group or channel).
    # Telegram enforces those limits anyway: turn it off only against a test stand-in.
    telegram_rate_limit: bool = True
    webhook_url: str | None = None
    webhook_secret: str | None = None
    http_host: str = "0.0.0.0"
    http_port: int = Field(default=8080, ge=0, le=65535)  # 0: no HTTP server

    @field_validator("admin_telegram_ids", mode="before")
    @classmethod
    def _split_ids(cls, value: object) -> object:
        if isinstance(value, str):
            parts = [p for p in value.replace(";", ",").replace(" ", ",").split(",") if p]
            try:
                return frozenset(int(p) for p in parts)
            except ValueError as exc:
                raise ValueError("ADMIN_TELEGRAM_IDS must be numeric Telegram ids") from exc
        if isinstance(value, int):
            return frozenset({value})
        return value

    @field_validator("mcp_allowed_hosts", mode="before")
    @classmethod
    def _split_hosts(cls, value: object) -> object:
        if isinstance(value, str):
            return tuple(p for p in value.replace(";", ",").replace(" ", ",").split(",") if p)
        return value

    @field_validator("bot_timezone")
    @classmethod
    def _check_timezone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ValueError(f"BOT_TIMEZONE {value!r} is not an IANA time zone") from exc
        return value

    @field_validator("bot_language")
    @classmethod
    def _check_language(cls, value: str) -> str:
        from app.i18n import available_languages, normalize

        language = normalize(value)
        if language is None:
            names = ", ".join(available_languages())
            raise ValueError(f"BOT_LANGUAGE {value!r} has no catalog; available: {names}")
        return language

    @field_validator("webhook_secret")
    @classmethod
    def _check_secret(cls, value: str | None) -> str | None:
        # Telegram accepts 1-256 characters A-Z, a-z, 0-9, _ and -.
        if value is not None and not re.fullmatch(r"[A-Za-z0-9_-]{1,256}", value):
            raise ValueError("WEBHOOK_SECRET must be 1-256 characters of A-Z, a-z, 0-9, _ and -")
        return value

    @model_validator(mode="after")
    def _webhook_needs_secret(self) -> Settings:
        if self.webhook_url and not self.webhook_secret:
            raise ValueError("WEBHOOK_SECRET is required when WEBHOOK_URL is set")
        if self.webhook_url and not self.webhook_url.startswith(("https://", "http://")):
            raise ValueError("WEBHOOK_URL must be an http(s) URL")
        if self.webhook_url and not self.http_port:
            raise ValueError("WEBHOOK_URL needs the HTTP server: set HTTP_PORT (not 0)")
        return self

    @property
    def webhook_path(self) -> str:
        """The path the HTTP server takes webhook updates on: WEBHOOK_URL's path."""
        path = urlsplit(self.webhook_url or "").path
        return path if path and path != "/" else "/telegram"

    @property
    def resolved_database_url(self) -> str:
        """DATABASE_URL, or a SQLite file under DATA_DIR; plain postgres URLs get asyncpg."""
        url = self.database_url
        if not url:
            return f"sqlite+aiosqlite:///{(self.data_dir / 'coordbot.sqlite3').resolve()}"
        for prefix in ("postgres://", "postgresql://"):
            if url.startswith(prefix):
                return "postgresql+asyncpg://" + url[len(prefix) :]
        if url.startswith("sqlite:///"):
            return "sqlite+aiosqlite:///" + url[len("sqlite:///") :]
        return url

    @property
    def chroma_path(self) -> Path:
        return self.data_dir / "chroma"

    @property
    def timezone(self) -> ZoneInfo:
        return ZoneInfo(self.bot_timezone)

    @property
    def reminder_before(self) -> timedelta:
        return timedelta(hours=self.reminder_before_hours)

    def is_admin(self, telegram_id: int) -> bool:
        return telegram_id in self.admin_telegram_ids
