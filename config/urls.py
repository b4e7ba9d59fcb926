"""URLs: the floor, the pit-boss dashboard, auth pages, the admin, and the REST API with its OpenAPI docs."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.urls import include, path
from django.views.defaults import page_not_found
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.authtoken.views import ObtainAuthToken

from casino.middleware import api_path, refusal
from casino.parsers import TOKEN_PARSERS
from dealer.urls import page_urlpatterns as dealer_pages
from pit.urls import api_urlpatterns as report_api
from pit.urls import page_urlpatterns as pit_pages
from rules.urls import api_urlpatterns as assist_api
from settlement.urls import api_urlpatterns as round_api
from tables.urls import api_urlpatterns as table_api

api_urlpatterns = [
    path("auth/token/", ObtainAuthToken.as_view(parser_classes=TOKEN_PARSERS), name="api-token"),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    *table_api,
    *assist_api,
    *round_api,
    *report_api,
]

urlpatterns = [
    *pit_pages,
    path("accounts/login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/", include(api_urlpatterns)),
    *dealer_pages,
]


def handler404(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Under /api/ a 404 is JSON like every other refusal there; elsewhere Django's page."""
    if api_path(request):
        return refusal(request, "Nothing is at this API address.", status=404, extra={"path": request.path})
    return page_not_found(request, exception)
