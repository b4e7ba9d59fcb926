"""The rating report of a closed shift (DESIGN.md "Players and ratings"): each rated session's play in the
shift, with the floor's totals.

A session played in the shift when it has ``RatedRound`` rows on the shift's rounds (a round belongs to the shift it
was opened in, ``Round.shift``, as for every other report). Its line sums those rows only, so a session that runs
across the shift's close is split between the two shifts' reports, each with its own rounds, time and figures:

* the player: name, or "anonymous N" (N the player's number) for an anonymous player, and their tier;
* the tables it played at in the shift; its time in the shift (``from`` / ``until``: the session's own start and
  end, cut at the shift's opening and close) and the time played in it, breaks excluded (a session that started
  and ended inside the shift: the time the session kept);
* rounds as a player and average bet, the bank's rounds and action, the player's win/loss (won positive), theo and
  the classic estimate, comps, points and the alert (z standard deviations above the player's expectation): each
  from ``players.figures.session_figures`` over the shift's sums, so the report computes them as the floor does;
* ``totals``: the sums of the lines (theo, comps and points are the lines' own, so the lines add up to them), the
  average bet over every round, and how many sessions were flagged.

Like the other shift reports the figures hold nothing of the build (no "generated at"), so the same shift under the
same settings gives the same ``content_hash``: the settings the figures depend on are part of them (``settings``).
A fixed number of queries, however many sessions: the shift's rows summed by session (one), the tables they played
at (one), the sessions and players (one) and the breaks of those cut by the shift (one).
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, TypedDict

from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext

from casino.models import Shift
from casino.money import money_text
from players.figures import RatingSettings, rating_settings, session_figures
from players.models import RatedRound, RatingPause, RatingSession

# A line's figures, in the order the report shows them (the columns of the CSV after the player and the time).
FIGURES = (
    "rounds",
    "average_bet_cents",
    "wagered_cents",
    "banker_rounds",
    "banker_wagered_cents",
    "win_loss_cents",
    "theo_cents",
    "classic_theo_cents",
    "comp_cents",
    "points",
    "z",
    "alert",
)
# The figures of the lines summed in ``totals``.
_Summed = Literal[
    "seconds_played",
    "rounds",
    "wagered_cents",
    "banker_rounds",
    "banker_wagered_cents",
    "win_loss_cents",
    "theo_cents",
    "classic_theo_cents",
    "comp_cents",
    "points",
]
_KEPT = ("rounds", "banker_rounds", "wagered_cents", "banker_wagered_cents", "win_loss_cents", "theo_millicents")
_PLAYER = RatedRound.Position.PLAYER


# A rated session's line (``rating_sections``): ``from`` and ``until`` are its time in the shift (ISO, UTC).
SessionLine = TypedDict(
    "SessionLine",
    {
        "session": int,
        "player": int,
        "name": str,
        "anonymous": bool,
        "tier": str,
        "tables": list[str],
        "from": str,
        "until": str,
        "seconds_played": int,
        "rounds": int,
        "average_bet_cents": int | None,
        "wagered_cents": int,
        "banker_rounds": int,
        "banker_wagered_cents": int,
        "win_loss_cents": int,
        "theo_cents": int,
        "classic_theo_cents": int | None,
        "comp_cents": int,
        "points": int,
        "z": float | None,
        "alert": bool,
    },
)


class RatingTotals(TypedDict):
    """The sums of the lines, how many sessions, players and alerts, and the average bet over every round."""

    seconds_played: int
    rounds: int
    wagered_cents: int
    banker_rounds: int
    banker_wagered_cents: int
    win_loss_cents: int
    theo_cents: int
    classic_theo_cents: int
    comp_cents: int
    points: int
    sessions: int
    players: int
    alerts: int
    average_bet_cents: int | None


class RatingSettingsSaid(TypedDict):
    """The settings the figures depend on, as the report records them."""

    tiers_reinvestment_bp: dict[str, int]
    cents_per_point: int
    decisions_per_hour: int
    alert_sigma: float


class RatingSections(TypedDict):
    """The rating report's figures (``rating_sections``)."""

    sessions: list[SessionLine]
    totals: RatingTotals
    settings: RatingSettingsSaid


def player_label(row: Mapping[str, Any], anonymous: Callable[[int], str] | None = None) -> str:
    """The player as the report names them: their name, else "anonymous N" (``anonymous``: the words, translated on
    the page)."""
    if row["name"]:
        return str(row["name"])
    return anonymous(row["player"]) if anonymous is not None else f"anonymous {row['player']}"


def hours_text(seconds: int) -> str:
    """Time played as hours and minutes: 5100 → "1:25"."""
    minutes = seconds // 60
    return f"{minutes // 60}:{minutes % 60:02d}"


def clock_text(moment: str) -> str:
    """A time of the report (ISO, UTC) as the floor's clock reads it (``TIME_ZONE``): "21:05"."""
    local = timezone.localtime(dt.datetime.fromisoformat(moment), timezone.get_default_timezone())
    return str(local.strftime("%H:%M"))


def _shift_sums(shift: Shift) -> dict[int, dict[str, int]]:
    """Per session, the sums of its ``RatedRound`` rows on the shift's rounds (a correction's rows included: they
    undo what they correct), as the session keeps them (``players.rating``)."""
    sums: dict[int, dict[str, int]] = defaultdict(lambda: dict.fromkeys((*_KEPT, "variance_cents2"), 0))
    rows = (
        RatedRound.objects.filter(round__shift=shift)
        .values("session_id", "position")
        .annotate(
            rounds=Sum("rounds"),
            action=Sum("action_cents"),
            win_loss=Sum("win_loss_cents"),
            theo=Sum("theo_millicents"),
            variance=Sum("variance_cents2"),
        )
        .order_by()
    )
    for row in rows:
        into = sums[row["session_id"]]
        if row["position"] == _PLAYER:
            into["rounds"] += row["rounds"]
            into["wagered_cents"] += row["action"]
        else:
            into["banker_rounds"] += row["rounds"]
            into["banker_wagered_cents"] += row["action"]
        into["win_loss_cents"] += row["win_loss"]
        into["theo_millicents"] += row["theo"]
        into["variance_cents2"] += row["variance"]
    # A session whose every row a correction undid (its seat had no action after all) did not play in the shift.
    return {session_id: figures for session_id, figures in sums.items() if any(figures.values())}


def _inside(session: RatingSession, opened: dt.datetime, closed: dt.datetime) -> bool:
    return session.started_at >= opened and session.ended_at is not None and session.ended_at <= closed


def _seconds(
    session: RatingSession, pauses: Sequence[RatingPause], opened: dt.datetime, closed: dt.datetime
) -> tuple[dt.datetime, dt.datetime, int]:
    """The session's time in the shift: from, until, and the seconds played in between, breaks excluded."""
    start, end = max(session.started_at, opened), min(session.ended_at or closed, closed)
    if _inside(session, opened, closed):
        return start, end, session.seconds_played
    if end <= start:
        return start, start, 0
    played = (end - start).total_seconds()
    for pause in pauses:
        cut_from, cut_until = max(pause.started_at, start), min(pause.ended_at or end, end)
        if cut_until > cut_from:
            played -= (cut_until - cut_from).total_seconds()
    return start, end, max(0, int(played))


def _settings_said(rules: RatingSettings) -> RatingSettingsSaid:
    """The settings the figures depend on, as the report records them: the tiers' reinvestment, the points, the
    classic pace and the alert."""
    return {
        "tiers_reinvestment_bp": dict(rules.tiers),
        "cents_per_point": rules.cents_per_point,
        "decisions_per_hour": rules.decisions_per_hour,
        "alert_sigma": rules.alert_sigma,
    }


def rating_sections(shift: Shift) -> RatingSections:
    """The rating report's figures (see the module's docstring): ``sessions``, ``totals`` and ``settings``."""
    assert shift.closed_at is not None, "only a closed shift has a rating report"
    opened, closed = shift.opened_at, shift.closed_at
    sums = _shift_sums(shift)
    tables: dict[int, set[str]] = defaultdict(set)
    played_at = (
        RatedRound.objects.filter(round__shift=shift, session_id__in=list(sums))
        .values_list("session_id", "table__name")
        .distinct()
        .order_by()
    )
    for session_id, table_name in played_at:
        tables[session_id].add(table_name)
    sessions = list(RatingSession.objects.filter(pk__in=list(sums)).select_related("player"))
    cut = [s.pk for s in sessions if not _inside(s, opened, closed)]
    pauses: dict[int, list[RatingPause]] = defaultdict(list)
    for pause in RatingPause.objects.filter(session_id__in=cut, started_at__lt=closed).order_by("started_at", "pk"):
        pauses[pause.session_id].append(pause)

    lines: list[SessionLine] = []
    rules = rating_settings()
    for session in sessions:
        start, end, seconds = _seconds(session, pauses[session.pk], opened, closed)
        kept = sums[session.pk]
        in_shift = RatingSession(seconds_played=seconds, running_since=None, walk_with_cents=None, **kept)
        player = session.player
        figures = session_figures(in_shift, tier=player.tier, rules=rules)
        lines.append(
            {
                "session": session.pk,
                "player": player.pk,
                "name": player.name,
                "anonymous": player.anonymous,
                "tier": player.tier,
                "tables": sorted(tables[session.pk]),
                "from": start.isoformat(),
                "until": end.isoformat(),
                "seconds_played": seconds,
                "rounds": figures.rounds,
                "average_bet_cents": figures.average_bet_cents,
                "wagered_cents": figures.wagered_cents,
                "banker_rounds": figures.banker_rounds,
                "banker_wagered_cents": figures.banker_wagered_cents,
                "win_loss_cents": figures.win_loss_cents,
                "theo_cents": figures.theo_cents,
                "classic_theo_cents": figures.classic_theo_cents,
                "comp_cents": figures.comp_cents,
                "points": figures.points,
                "z": round(figures.z, 2) if figures.z is not None else None,
                "alert": figures.alert,
            }
        )
    lines.sort(key=lambda line: (line["from"], line["session"]))

    def total(name: _Summed) -> int:
        return sum(line[name] or 0 for line in lines)

    rounds, wagered = total("rounds"), total("wagered_cents")
    totals: RatingTotals = {
        "seconds_played": total("seconds_played"),
        "rounds": rounds,
        "wagered_cents": wagered,
        "banker_rounds": total("banker_rounds"),
        "banker_wagered_cents": total("banker_wagered_cents"),
        "win_loss_cents": total("win_loss_cents"),
        "theo_cents": total("theo_cents"),
        "classic_theo_cents": total("classic_theo_cents"),
        "comp_cents": total("comp_cents"),
        "points": total("points"),
        "sessions": len(lines),
        "players": len({line["player"] for line in lines}),
        "alerts": sum(1 for line in lines if line["alert"]),
        "average_bet_cents": (wagered * 2 + rounds) // (2 * rounds) if rounds > 0 else None,
    }
    return {"sessions": lines, "totals": totals, "settings": _settings_said(rules)}


# --- rendering: the CSV's section, and the text of each cell for the HTML and the PDF --------------------------

CSV_COLUMNS = ("session", "player", "tier", "tables", "from", "until", "time_played", *FIGURES)
# The totals' figures (``seconds_played`` shown as the time played, ``alerts``: how many lines are flagged).
TOTAL_FIGURES = ("sessions", "players", "seconds_played", *FIGURES[:-2], "alerts")


def cell_text(row: Mapping[str, Any], name: str, money: Callable[[int], str] = money_text) -> str:
    """One figure as text: money in units and cents, z to two places, the alert as ALERT, nothing for None."""
    value = row.get(name)
    if value is None:
        return ""
    if name.endswith("_cents"):
        return money(value)
    if name == "z":
        return f"{value:.2f}"
    if name == "alert":
        return "ALERT" if value else ""
    if name == "seconds_played":
        return hours_text(value)
    return str(value)


def write_csv(writer: Any, data: Mapping[str, Any]) -> None:
    """The report's lines and totals under one header row; money as ``-12.05``, time played as ``h:mm``."""
    writer.writerow(CSV_COLUMNS)
    for line in data["sessions"]:
        writer.writerow(
            [
                line["session"],
                player_label(line),
                line["tier"],
                " ".join(line["tables"]),
                line["from"],
                line["until"],
                hours_text(line["seconds_played"]),
                *(cell_text(line, name) for name in FIGURES),
            ]
        )
    writer.writerow([])
    writer.writerow(["totals", *(name.replace("seconds_played", "time_played") for name in TOTAL_FIGURES)])
    writer.writerow(["", *(cell_text(data["totals"], name) for name in TOTAL_FIGURES)])


# A session's line as the HTML draws it: its figures (``row``) and each as text; ``from`` and ``until`` on the clock.
_SessionText = TypedDict(
    "_SessionText",
    {
        "row": Mapping[str, Any],
        "player": str,
        "tables": str,
        "from": str,
        "until": str,
        "time": str,
        "cells": list[str],
    },
)


class _TotalsText(TypedDict):
    time: str
    cells: list[str]


class RatingHtml(TypedDict):
    """What the rating report's HTML draws beside its figures, each figure already text."""

    rating_lines: list[_SessionText]
    rating_totals: _TotalsText


def html_context(data: Mapping[str, Any], money: Callable[[int], str]) -> RatingHtml:
    """What ``templates/pit/rating_report.html`` shows, each figure already text."""

    def anonymous(number: int) -> str:
        return str(gettext("anonymous %(number)s") % {"number": number})

    return {
        "rating_lines": [
            {
                "row": line,
                "player": player_label(line, anonymous),
                "tables": ", ".join(line["tables"]),
                "from": clock_text(line["from"]),
                "until": clock_text(line["until"]),
                "time": hours_text(line["seconds_played"]),
                "cells": [cell_text(line, name, money) for name in FIGURES[:-1]],
            }
            for line in data["sessions"]
        ],
        "rating_totals": {
            "time": hours_text(data["totals"]["seconds_played"]),
            "cells": [cell_text(data["totals"], name, money) for name in FIGURES[:-2]],
        },
    }
