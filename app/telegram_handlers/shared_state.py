"""Conversation state in the database, so replicas can take turns in one conversation.

PTB keeps a ConversationHandler's steps and ``user_data`` in process memory, and
its persistence loads them once at start. Behind a load balancer a member's next
message may land on another replica, so in webhook mode each update first loads
that member's steps and draft from the database (group -100, before every other
handler) and writes them back after (group 100). The blob is pickled PTB state
(only this bot writes it); an unchanged state costs one read and no write.

Two updates of one chat never run at the same instant on two replicas: the
webhook holds a per-chat lock across replicas while it handles one (see
app.persistence.leases.ChatLocks), and per process the update processor
serialises each member's updates.

A step is applied once. The blob remembers the last updates that changed it; a
replica that dies after writing a step but before marking its update done leaves a
claim that another replica takes over when Telegram delivers the update again, and
that replica finds the update among the applied ones and stops there, so the
member's next message is not read as the answer to a question already answered.
"""

from __future__ import annotations

import logging
import pickle
from typing import Any

from telegram import Update
from telegram.constants import ChatType
from telegram.ext import ApplicationHandlerStop, ConversationHandler, TypeHandler

from app.persistence.repositories.conversations import ConversationStates

logger = logging.getLogger(__name__)

LOAD_GROUP = -100
SAVE_GROUP = 100
APPLIED_KEPT = 16  # update ids remembered per member (a retry comes within minutes)


def _conversations(application: Any) -> list[ConversationHandler[Any]]:
    return [
        h
        for handlers in application.handlers.values()
        for h in handlers
        if isinstance(h, ConversationHandler) and h.name
    ]


def _key(update: Update) -> tuple[int, int] | None:
    """The conversation key of a private chat; None elsewhere. Every conversation and
    every use of ``user_data`` is in a member's private chat with the bot, so a vote
    pressed under a channel post (the bulk of the traffic) neither reads nor writes it."""
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None or chat.type != ChatType.PRIVATE:
        return None
    return (chat.id, user.id)


class SharedConversationState:
    def __init__(self, application: Any) -> None:
        self.application = application
        # per user, the state as loaded (steps and user_data) and the updates applied to it
        self._loaded: dict[int, tuple[bytes | None, list[int]]] = {}

    def install(self) -> None:
        self.application.add_handler(TypeHandler(Update, self.load), group=LOAD_GROUP)
        self.application.add_handler(TypeHandler(Update, self.save), group=SAVE_GROUP)

    async def load(self, update: Update, context: Any) -> None:
        key = _key(update)
        if key is None:
            return
        user_id = key[1]
        async with context.services.db.transaction() as session:
            blob = await ConversationStates(session).load(user_id)
        stored: dict[str, Any] = pickle.loads(blob) if blob else {}
        applied: list[int] = list(stored.get("applied", ()))
        if update.update_id in applied:
            # Applied by a replica that died before marking the update done: nothing to
            # do again (its answer went out before the step was written).
            logger.info("update %d was applied already; not again", update.update_id)
            raise ApplicationHandlerStop
        steps: dict[str, object] = stored.get("steps", {})
        self._loaded[user_id] = (_core(steps, stored.get("user_data")) if blob else None, applied)
        for conv in _conversations(self.application):
            if conv.name in steps:
                conv._conversations[key] = steps[conv.name]
            else:
                conv._conversations.pop(key, None)
        factory = self.application.context_types.user_data
        self.application._user_data[user_id] = stored.get("user_data") or factory()

    async def save(self, update: Update, context: Any) -> None:
        key = _key(update)
        if key is None:
            return
        user_id = key[1]
        steps = {
            conv.name: conv._conversations[key]
            for conv in _conversations(self.application)
            if key in conv._conversations
        }
        user_data = self.application.user_data.get(user_id)
        empty = user_data is None or user_data == self.application.context_types.user_data()
        core = None if not steps and empty else _core(steps, user_data)
        loaded, applied = self._loaded.pop(user_id, (None, []))
        if core == loaded:
            return
        blob = None
        if core is not None:
            applied = [*applied, update.update_id][-APPLIED_KEPT:]
            blob = pickle.dumps({"steps": steps, "user_data": user_data, "applied": applied})
        async with context.services.db.transaction() as session:
            await ConversationStates(session).save(user_id, blob, context.services.clock.now())


def _core(steps: dict[Any, object], user_data: Any) -> bytes:
    """What a step changes (the applied updates aside): compared to skip unchanged writes."""
    return pickle.dumps({"steps": steps, "user_data": user_data})
