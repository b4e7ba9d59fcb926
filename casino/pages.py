"""What the HTML pages share around their views: a view run only for whoever a check lets through
(``guarded_by``), a view given the objects its address names, or the refusal instead (``loaded_by``), and the
request as htmx's middleware leaves it (``HtmxHttpRequest``).

The forms of a page, each recorded once, are declared in ``casino.once`` (``FormPage``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, Concatenate, ParamSpec, TypeAlias

from django.http import HttpRequest, HttpResponse
from django_htmx.middleware import HtmxDetails

P = ParamSpec("P")
View: TypeAlias = Callable[Concatenate[HttpRequest, P], HttpResponse]
# A check of who asks: None lets the request through, else the refusal page to answer.
Check: TypeAlias = Callable[[HttpRequest], HttpResponse | None]
# What a view's address names, as the view takes it (by keyword), or the refusal page to answer instead.
Load: TypeAlias = Callable[..., dict[str, Any] | HttpResponse]


class HtmxHttpRequest(HttpRequest):
    """A request as django-htmx's middleware leaves it: ``htmx`` says whether htmx sent it (and what it swaps)."""

    htmx: HtmxDetails


def guarded_by(*checks: Check) -> Callable[[View[P]], View[P]]:
    """Run the view only when every check, in order, lets the request through; else the first check's refusal."""

    def decorate(view: View[P]) -> View[P]:
        @wraps(view)
        def guarded(request: HttpRequest, /, *args: P.args, **kwargs: P.kwargs) -> HttpResponse:
            for check in checks:
                if (refusal := check(request)) is not None:
                    return refusal
            return view(request, *args, **kwargs)

        return guarded

    return decorate


def loaded_by(load: Load) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """Give the view, instead of its address's keyword arguments, what ``load(request, **kwargs)`` makes of them (the
    table or the tournament named); when ``load`` answers a page instead (a 404, a refusal), that is the answer."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def loaded(request: HttpRequest, /, **kwargs: Any) -> HttpResponse:
            found = load(request, **kwargs)
            if isinstance(found, HttpResponse):
                return found
            return view(request, **found)

        return loaded

    return decorate
