"""URLs of the tables app: the REST API (``api_urlpatterns``, under ``/api/``)."""

from __future__ import annotations

from django.urls import path

from tables import money_apis, rotation_apis
from tables.apis import TableSetupApi

api_urlpatterns = [
    path("tables/<int:table_id>/setup/", TableSetupApi.as_view(), name="api-table-setup"),
    # the table's money
    path("chips/", money_apis.ChipListApi.as_view(), name="api-chip-list"),
    path("tables/<int:table_id>/tray-counts/", money_apis.TableTrayCountsApi.as_view(), name="api-table-tray-counts"),
    path(
        "tray-counts/<int:tray_count_id>/confirm/",
        money_apis.TrayCountConfirmApi.as_view(),
        name="api-tray-count-confirm",
    ),
    path("tables/<int:table_id>/slips/", money_apis.TableSlipsApi.as_view(), name="api-table-slips"),
    path("slips/", money_apis.SlipListApi.as_view(), name="api-slip-list"),
    path("slips/numbers/", money_apis.SlipNumbersApi.as_view(), name="api-slip-numbers"),
    path("slips/<int:slip_id>/", money_apis.SlipDetailApi.as_view(), name="api-slip-detail"),
    path("slips/<int:slip_id>/issue/", money_apis.SlipIssueApi.as_view(), name="api-slip-issue"),
    path("slips/<int:slip_id>/sign/", money_apis.SlipSignApi.as_view(), name="api-slip-sign"),
    path("slips/<int:slip_id>/void/", money_apis.SlipVoidApi.as_view(), name="api-slip-void"),
    path("tables/<int:table_id>/buy-ins/", money_apis.TableBuyInsApi.as_view(), name="api-table-buy-ins"),
    path("buy-ins/<int:buy_in_id>/void/", money_apis.BuyInVoidApi.as_view(), name="api-buy-in-void"),
    path("tables/<int:table_id>/drop/<int:shift_id>/", money_apis.DropBoxApi.as_view(), name="api-table-drop"),
    # dealer rotation
    path("rotation/", rotation_apis.RotationApi.as_view(), name="api-rotation"),
    path("rotation/clock-ins/", rotation_apis.ClockInApi.as_view(), name="api-rotation-clock-in"),
    path("rotation/clock-outs/", rotation_apis.ClockOutApi.as_view(), name="api-rotation-clock-out"),
    path("rotation/strings/", rotation_apis.StringsApi.as_view(), name="api-rotation-strings"),
    path("rotation/strings/<int:string_id>/start/", rotation_apis.StringStartApi.as_view(), name="api-rotation-start"),
    path("tables/<int:table_id>/push/", rotation_apis.TablePushApi.as_view(), name="api-table-push"),
]
