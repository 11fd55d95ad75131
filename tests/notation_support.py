"""What the notation tests share: checking that a parser rejects text precisely."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from perfectplay.errors import PerfectplayError


def rejects(
    parse: Callable[[str], Any], error: type[PerfectplayError], text: str, *reasons: str
) -> str:
    """Parse ``text`` with ``parse``, expecting exactly ``error`` whose message starts by quoting
    the input as ``moves '...':`` and gives every one of ``reasons``. Returns the message."""
    with pytest.raises(PerfectplayError) as info:
        parse(text)
    assert type(info.value) is error, f"{type(info.value).__name__}: {info.value}"
    message = str(info.value)
    shown = text if len(text) <= 60 else text[:57] + "..."
    assert message.startswith(f"moves {shown!r}:"), message
    for reason in reasons:
        assert reason in message, message
    return message
