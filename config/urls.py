"""URLs: the floor, the pit-boss dashboard, auth pages, the admin, and the REST API with its OpenAPI docs."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.authtoken.views import ObtainAuthToken

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
