"""A clock the tests move by hand (rate limits, refusal memory, failed authentications)."""

from __future__ import annotations


class FakeClock:
    """Seconds, moved by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now
