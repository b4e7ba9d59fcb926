"""URLs of the tables app: the REST API (``api_urlpatterns``, under ``/api/``)."""

from __future__ import annotations

from django.urls import path

from tables.apis import TableDetailApi, TableListApi, TableSetupApi

api_urlpatterns = [
    path("tables/", TableListApi.as_view(), name="api-table-list"),
    path("tables/<int:table_id>/", TableDetailApi.as_view(), name="api-table-detail"),
    path("tables/<int:table_id>/setup/", TableSetupApi.as_view(), name="api-table-setup"),
]
