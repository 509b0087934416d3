"""The base of the read-only modal screens: esc or q closes them."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.screen import ModalScreen


class CloseableModal(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", "Close", id="modal.close"),
    ]

    def action_close(self) -> None:
        self.dismiss(None)
