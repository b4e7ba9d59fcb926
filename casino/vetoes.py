"""Asking the apps above whether an action may go on, without a lower app importing them.

A lower app that must ask (may this shift close? may this table close?) owns one ``Vetoes`` for the action; each
app above that can refuse it registers its check once, by name, in its ``AppConfig.ready``; the action runs every
check, in the order they were registered (the apps' order in ``INSTALLED_APPS``), under its own lock, and a check
refuses by raising ``casino.errors.WrongState`` saying why. The registered names are listed by ``names()``, so
whoever reads the action can see who may refuse it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class Vetoes(Generic[T]):
    """The checks that may refuse ``action`` on a ``T``."""

    def __init__(self, action: str) -> None:
        self.action = action
        self._checks: dict[str, Callable[[T], None]] = {}

    def register(self, name: str, check: Callable[[T], None]) -> None:
        """Register ``check`` under ``name`` (registering a name again replaces its check)."""
        self._checks[name] = check

    def names(self) -> list[str]:
        """Who may refuse the action, in the order they are asked."""
        return list(self._checks)

    def check(self, subject: T) -> None:
        """Ask every check about ``subject``; the first that refuses raises (``WrongState``) and the action stops."""
        for check in self._checks.values():
            check(subject)
