"""Deployment settings and the compose file (docker compose itself is not needed)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from pydantic import ValidationError

from app.config import Settings

ROOT = Path(__file__).resolve().parents[2]


def settings(**values: object) -> Settings:
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


def test_defaults() -> None:
    s = settings()
    assert s.telegram_api_base_url == "https://api.telegram.org/bot"
    assert s.telegram_api_file_url is None and s.telegram_local_mode is False
    assert (s.http_host, s.http_port) == ("0.0.0.0", 8080)
    assert s.webhook_url is None


def test_webhook_needs_a_secret_and_serves_its_path() -> None:
    with pytest.raises(ValidationError, match="WEBHOOK_SECRET is required"):
        settings(webhook_url="https://bot.example.org/tg/hook")
    with pytest.raises(ValidationError, match="WEBHOOK_SECRET must be"):
        settings(webhook_url="https://bot.example.org/tg/hook", webhook_secret="has space")
    with pytest.raises(ValidationError, match="needs the HTTP server"):
        settings(webhook_url="https://bot.example.org/tg/hook", webhook_secret="a", http_port=0)
    s = settings(webhook_url="https://bot.example.org/tg/hook?x=1", webhook_secret="abc_-1")
    assert s.webhook_path == "/tg/hook"
    assert (
        settings(webhook_url="https://bot.example.org", webhook_secret="a").webhook_path
        == "/telegram"
    )


def test_settings_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TELEGRAM_API_BASE_URL", "http://127.0.0.1:8081/bot")
    monkeypatch.setenv("TELEGRAM_API_FILE_URL", "http://127.0.0.1:8081/file/bot")
    monkeypatch.setenv("TELEGRAM_LOCAL_MODE", "true")
    monkeypatch.setenv("HTTP_PORT", "0")
    s = settings()
    assert s.telegram_local_mode and s.http_port == 0
    assert s.telegram_api_file_url == "http://127.0.0.1:8081/file/bot"


def test_application_uses_the_configured_bot_api_server() -> None:
    from app.telegram_handlers.bot import build_application
    from tests.conftest import make_settings

    app = build_application(
        make_settings(
            telegram_api_base_url="http://127.0.0.1:8081/bot",
            telegram_api_file_url="http://127.0.0.1:8081/file/bot",
            telegram_local_mode=True,
        ),
        polling=False,
    )
    assert app.bot.base_url.startswith("http://127.0.0.1:8081/bot")
    assert app.bot.base_file_url.startswith("http://127.0.0.1:8081/file/bot")
    assert app.bot.local_mode is True
    assert app.updater is None, "webhook mode: no Updater"


def test_compose_runs_two_webhook_replicas_checked_on_readyz() -> None:
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    bot = compose["services"]["bot"]
    assert bot["deploy"]["replicas"] == 2
    assert "/readyz" in " ".join(bot["healthcheck"]["test"])
    env = bot["environment"]
    assert env["WEBHOOK_URL"].startswith("https://") and "WEBHOOK_SECRET" in env
    assert env["DATABASE_URL"].startswith("postgresql") and env["CHROMA_HOST"] == "chroma"
    assert {"postgres", "chroma", "proxy"} <= compose["services"].keys()
    assert "/telegram/webhook" in compose["configs"]["caddyfile"]["content"]
