"""URLs of the rules app: the stateless dealer-assist endpoints under ``/api/assist/``, the game-math lab under
``/api/lab/``."""

from __future__ import annotations

from django.urls import path

from rules.apis import (
    ChinesePokerScoreApi,
    ChinesePokerSuggestApi,
    OfcScoreApi,
    PaigowPokerAdviseApi,
    PaigowPokerHouseWayApi,
    PaigowTilesAdviseApi,
    PaigowTilesHouseWayApi,
)
from rules.lab_apis import LabRunDetailApi, LabRunListApi

api_urlpatterns = [
    path("assist/paigow-poker/house-way/", PaigowPokerHouseWayApi.as_view(), name="api-assist-paigow-poker-house-way"),
    path("assist/paigow-poker/advise/", PaigowPokerAdviseApi.as_view(), name="api-assist-paigow-poker-advise"),
    path("assist/paigow-tiles/house-way/", PaigowTilesHouseWayApi.as_view(), name="api-assist-paigow-tiles-house-way"),
    path("assist/paigow-tiles/advise/", PaigowTilesAdviseApi.as_view(), name="api-assist-paigow-tiles-advise"),
    path("assist/chinese-poker/score/", ChinesePokerScoreApi.as_view(), name="api-assist-chinese-poker-score"),
    path("assist/chinese-poker/suggest/", ChinesePokerSuggestApi.as_view(), name="api-assist-chinese-poker-suggest"),
    path("assist/ofc/score/", OfcScoreApi.as_view(), name="api-assist-ofc-score"),
    path("lab/runs/", LabRunListApi.as_view(), name="api-lab-run-list"),
    path("lab/runs/<int:run_id>/", LabRunDetailApi.as_view(), name="api-lab-run-detail"),
]
