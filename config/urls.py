"""URLs: the floor, the pit-boss dashboard, auth pages, the admin, and the REST API with its OpenAPI docs."""

from __future__ import annotations

import sys

from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path
from django.views.defaults import bad_request, page_not_found, permission_denied, server_error
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from casino.apis import ObtainExpiringToken, RevokeToken
from casino.errors import database_unreachable, unavailable
from casino.middleware import api_path, refusal
from dealer.urls import page_urlpatterns as dealer_pages
from pit.urls import api_urlpatterns as report_api
from pit.urls import page_urlpatterns as pit_pages
from players.urls import api_urlpatterns as player_api
from poker_room.urls import api_urlpatterns as poker_room_api
from poker_room.urls import page_urlpatterns as poker_room_pages
from rules.urls import api_urlpatterns as assist_api
from settlement.urls import api_urlpatterns as round_api
from tables.urls import api_urlpatterns as table_api

api_urlpatterns = [
    path("auth/token/", ObtainExpiringToken.as_view(), name="api-token"),
    path("auth/token/revoke/", RevokeToken.as_view(), name="api-token-revoke"),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves Swagger UI's start-up script from its own address: no inline script under the CSP.
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    *table_api,
    *assist_api,
    *round_api,
    *report_api,
    *player_api,
    *poker_room_api,
]

urlpatterns = [
    # The API first: the tablets' requests, most of the floor's, are resolved without trying every page's pattern
    # (no page's address starts with api/, and no page shares a name with the API). Its version 1 at /api/v1/; /api/
    # without it answers the same for this release (docs/api/CHANGELOG.md) and is left out of the schema. Of two
    # patterns with one name Django reverses the last: /api/v1/.
    path("api/", include(api_urlpatterns)),
    path("api/v1/", include(api_urlpatterns)),
    # Browsers and tools that ask for /favicon.ico without reading the page's <link rel="icon">.
    path("favicon.ico", lambda request: HttpResponsePermanentRedirect(static("casino/favicon.svg"))),
    *pit_pages,
    path("accounts/login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    *dealer_pages,
    *poker_room_pages,
]


def handler404(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's page (styled); under /api/ ``casino.middleware.ApiNotFoundAsJson`` answers the API's refusal instead,
    with DEBUG on as off."""
    return page_not_found(request, exception)


def handler400(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Under /api/ a request Django itself refuses (a body over DATA_UPLOAD_MAX_MEMORY_SIZE: 413; too many
    fields, a bad host: 400) is JSON like every other refusal there; elsewhere Django's page."""
    if not api_path(request):
        return bad_request(request, exception)
    if isinstance(exception, RequestDataTooBig):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        return refusal(
            request, f"The request body is over {limit:,} bytes: send less.", status=413, extra={"max_bytes": limit}
        )
    return refusal(request, "The request could not be read.", status=400, extra={})


def handler403(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Under /api/ a refusal Django raises outside the API's own handler is JSON; elsewhere Django's page."""
    if api_path(request):
        return refusal(request, "You may not do this.", status=403, extra={})
    return permission_denied(request, exception)


def handler500(request: HttpRequest) -> HttpResponse:
    """Under /api/ even a fault is JSON, saying nothing of its cause; elsewhere Django's page. A database that cannot
    be reached (``casino.errors.database_unreachable``) is a 503 with ``Retry-After``, not a fault."""
    if database_unreachable(sys.exc_info()[1]):
        return unavailable(request)
    if api_path(request):
        return refusal(
            request,
            "The server failed to answer this request; if it happens again, tell a supervisor.",
            status=500,
            extra={},
        )
    return server_error(request)
