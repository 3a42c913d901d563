"""Typed access to services from handlers (no string-keyed grab-bag)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from telegram.ext import Application, CallbackContext, ExtBot

from app.domain.models import ProposalType
from app.i18n import Translator, translator

if TYPE_CHECKING:
    from app.container import Container


class BotData:
    """Application-wide state: the composition root, set when the app is built."""

    def __init__(self) -> None:
        self.container: Container | None = None
        self.freeze_gc = False  # after start-up; a long-running process wants it


@dataclass
class DraftState:
    """A proposal being built in the guided /propose conversation."""

    title: str | None = None
    description: str | None = None
    proposal_type: ProposalType | None = None
    options: list[str] | None = None
    deadline_at: Any = None
    context_text: str | None = None
    context_asked: bool = False
    # Names the draft: the proposal it becomes is created once, however often its
    # confirmation is handled (see ProposalService.create_proposal).
    key: str = field(default_factory=lambda: secrets.token_hex(8))


@dataclass
class UserData:
    draft: DraftState | None = None
    editing_proposal: int | None = None
    editing_field: str | None = None
    submitting_to: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)


class BotContext(CallbackContext[ExtBot[None], UserData, dict[Any, Any], BotData]):
    """CallbackContext with properties for the services handlers call."""

    def __init__(
        self,
        application: Application[Any, Any, Any, Any, Any, Any],
        chat_id: int | None = None,
        user_id: int | None = None,
    ) -> None:
        super().__init__(application=application, chat_id=chat_id, user_id=user_id)
        self._tr: Translator | None = None

    @property
    def services(self) -> Container:
        container = self.bot_data.container
        if container is None:  # pragma: no cover - a wiring bug, not a user error
            raise RuntimeError("the application was built without a container")
        return container

    @property
    def tr(self) -> Translator:
        """The language of the member this update is from (set before any handler runs);
        the community's language where there is no member."""
        return self._tr or self.community_tr

    @tr.setter
    def tr(self, value: Translator) -> None:
        self._tr = value

    @property
    def community_tr(self) -> Translator:
        """BOT_LANGUAGE: for anything posted to the channel."""
        settings = self.services.settings
        return translator(settings.bot_language, settings.timezone)

    @property
    def state(self) -> UserData:
        data = self.user_data
        if data is None:  # pragma: no cover - updates without a user
            raise RuntimeError("this update has no user")
        return data
