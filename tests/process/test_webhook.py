"""Webhook mode: setWebhook with the secret, 403 without it, each update handled once."""

from __future__ import annotations

from tests.process.conftest import CHANNEL, Deployment, wait_until
from tests.support.botapi import BotApiStandIn


def _start_webhook_bot(deployment: Deployment):  # type: ignore[no-untyped-def]
    bot = deployment.start(webhook=True)
    bot.wait_healthy()
    api = deployment.api
    api.wait_for(lambda: api.webhook, what="setWebhook")
    return bot


def test_webhook_secret_and_duplicates(deployment: Deployment) -> None:
    api: BotApiStandIn = deployment.api
    bot = _start_webhook_bot(deployment)
    hook = api.webhook
    assert hook is not None
    assert hook["url"].endswith("/tg/hook") and hook["secret_token"] == "s3cret-token"
    assert hook["allowed_updates"] == ["message", "callback_query"]
    assert not api.calls_to("getUpdates")

    # Wrong or missing secret: 403, nothing handled, nothing sent.
    before = len(api.calls)
    update = api.message_update(1001, "/start")
    assert api.post_webhook(update, "wrong") == 403
    assert api.post_webhook(update, None) == 403
    assert len(api.calls) == before and api.texts(1001) == []

    # The right secret: handled before the 200 comes back.
    assert api.post_webhook(update, "s3cret-token") == 200
    assert any("Hello User1001" in t for t in api.texts(1001))
    # Telegram retrying the same update: handled once.
    assert api.post_webhook(update, "s3cret-token") == 200
    assert sum("Hello User1001" in t for t in api.texts(1001)) == 1

    # A vote through the webhook, delivered twice: stored once, answered once.
    api.send(1001, "/propose Garden; New benches; Yes, No")
    api.send(1001, "2 days")
    api.send(1001, "/skip")
    summary = api.wait_text(1001, "Please check your proposal")
    api.press(1001, "pc:yes", summary)
    post = api.wait_text(CHANNEL, "New proposal #1")
    vote = api.callback_update(2002, "v:1:1", post)
    assert api.post_webhook(vote, "s3cret-token") == 200
    assert api.post_webhook(vote, "s3cret-token") == 200
    assert len(api.calls_to("answerCallbackQuery")) == 1 + 1  # the confirm button + one vote
    assert deployment.sql("SELECT count(*) FROM submissions") == [(1,)]

    status, body = bot.get("/metrics")
    assert status == 200
    assert 'coordbot_updates_total{kind="message"}' in body
    assert "coordbot_duplicate_updates_total 2.0" in body
    assert bot.terminate() == 0
    assert api.webhook is not None, "a stopping replica leaves the webhook to the others"


def test_unset_webhook_url_deletes_the_webhook_and_polls(deployment: Deployment) -> None:
    api = deployment.api
    api.webhook = {"url": "https://old.example/hook", "secret_token": "x", "allowed_updates": None}
    bot = deployment.start()
    bot.wait_healthy()
    api.wait_for(lambda: api.calls_to("getUpdates"), what="polling")
    assert api.webhook is None and api.calls_to("deleteWebhook")
    assert bot.get("/tg/hook")[0] == 404
    api.send(1001, "/start")
    api.wait_text(1001, "Hello")
    wait_until(lambda: bot.terminate() == 0, what="exit 0")
