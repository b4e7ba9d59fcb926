"""HTML pages of the floor: thin, one selector each."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from casino.roles import user_roles
from casino.selectors import audit_events_recent, pits_with_tables, shift_current


@login_required
def floor(request: HttpRequest) -> HttpResponse:
    """The floor at a glance: the open shift, every pit and table, the newest audit events."""
    return render(
        request,
        "casino/floor.html",
        {
            "shift": shift_current(),
            "pits": pits_with_tables(),
            "events": audit_events_recent(limit=10),
            "roles": sorted(role.value for role in user_roles(request.user)),
        },
    )
