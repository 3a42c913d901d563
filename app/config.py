"""Settings, read once from the environment and ``.env``.

One class holds every knob the operator can turn; nothing is read at import
time. Secrets (the bot token, the OpenAI key) have no defaults.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Annotated, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import Field, field_validator
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
    reminder_before_hours: float = Field(default=24.0, ge=0)
    log_level: str = "INFO"
    chroma_host: str | None = None
    chroma_port: int = 8000
    embedding_model_path: Path | None = None
    # "local": the bundled ONNX model; "openai": OPENAI_BASE_URL's /v1/embeddings.
    embedding_backend: Literal["local", "openai"] = "local"
    openai_embedding_model: str = "text-embedding-3-small"
    embedding_dimensions: int | None = Field(default=None, ge=1, le=8192)
    sweep_interval_seconds: float = Field(default=60.0, gt=0, le=60)
    # /ask: any OpenAI-compatible server; without a key the offline backend answers.
    openai_api_key: str | None = None
    openai_base_url: str | None = None
    openai_model: str = "gpt-4o-mini"
    openai_answer_model: str | None = None  # defaults to openai_model
    llm_timeout_seconds: float = Field(default=20.0, gt=0, le=120)
    llm_max_retries: int = Field(default=1, ge=0, le=5)

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

    @field_validator("bot_timezone")
    @classmethod
    def _check_timezone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ValueError(f"BOT_TIMEZONE {value!r} is not an IANA time zone") from exc
        return value

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
