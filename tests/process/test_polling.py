"""Polling: a member's whole journey through a real `coordbot run` process."""

from __future__ import annotations

from tests.process.conftest import CHANNEL, Deployment


def test_propose_vote_and_close_over_http(deployment: Deployment) -> None:
    api = deployment.api
    bot = deployment.start()
    bot.wait_healthy()
    api.wait_for(lambda: api.calls_to("getUpdates"), what="polling")
    assert api.calls_to("deleteWebhook"), "polling starts by deleting any webhook"

    api.send(1001, "/start")
    api.wait_text(1001, "Hello User1001")

    api.send(1001, "/propose Pizza party; Friday pizza on floor 4; Yes, No")
    api.wait_text(1001, "How long should voting run?")
    api.send(1001, "3 days")
    api.wait_text(1001, "Optionally")
    api.send(1001, "/skip")
    summary = api.wait_text(1001, "Please check your proposal")
    api.press(1001, "pc:yes", summary)
    api.wait_text(1001, "Proposal <b>#1</b>")
    post = api.wait_text(CHANNEL, "New proposal #1")
    assert [row[0]["callback_data"] for row in post["reply_markup"]["inline_keyboard"]] == [
        "v:1:0",
        "v:1:1",
    ]

    api.press(2002, "v:1:0", post)
    answer = api.wait_for(
        lambda: [
            c
            for c in api.calls_to("answerCallbackQuery")
            if "Vote recorded" in c.params.get("text", "")
        ],
        what="the vote's answer",
    )
    assert answer[0].params["show_alert"] in (True, "true", "True")
    api.send(2002, "/my_vote 1")
    api.wait_text(2002, "Yes")

    # The deadline comes: moved close in the database; the sweep (every 0.5 s here) closes it.
    deployment.sql("UPDATE proposals SET deadline_at = created_at WHERE id = 1")
    api.wait_text(CHANNEL, "Results of #1")  # the chart's caption
    texts = api.texts(CHANNEL)
    assert any("Yes" in t and "1" in t for t in texts[1:])
    assert api.calls_to("sendPhoto")[0].files["photo"].startswith(b"\x89PNG")
    assert bot.terminate() == 0
    assert "Yes" not in bot.output().replace("Yes, No", ""), "no vote choice in the logs"
