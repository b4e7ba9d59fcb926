"""URLs: the floor, the pit-boss dashboard, auth pages, the admin, and the REST API with its OpenAPI docs."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.authtoken.views import obtain_auth_token

from casino import report_views, views
from rules.urls import api_urlpatterns as assist_api
from settlement.urls import api_urlpatterns as round_api
from tables.urls import api_urlpatterns as table_api

api_urlpatterns = [
    path("auth/token/", obtain_auth_token, name="api-token"),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    *table_api,
    *assist_api,
    *round_api,
]

urlpatterns = [
    path("", views.floor, name="floor"),
    path("pit/", views.pit, name="pit-dashboard"),
    path("pit/live/", views.pit_live, name="pit-dashboard-live"),
    path("pit/tables/<int:table_id>/", views.pit_table_history, name="pit-table-history"),
    path("pit/adjustments/<int:adjustment_id>/approve/", views.pit_adjustment_approve, name="pit-adjustment-approve"),
    path("pit/adjustments/<int:adjustment_id>/reject/", views.pit_adjustment_reject, name="pit-adjustment-reject"),
    path("pit/shifts/<int:shift_id>/close/", report_views.pit_shift_close, name="pit-shift-close"),
    path("reports/", report_views.reports, name="reports"),
    path("reports/<int:report_id>/<str:fmt>/", report_views.report_download, name="report-download"),
    path("accounts/login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/", include(api_urlpatterns)),
    path("", include("tables.urls")),
]
