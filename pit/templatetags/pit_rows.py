"""A table's line on the pit-boss dashboard, drawn in Python (``{{ line|table_row }}``).

The dashboard's budget is 100 ms with 200 open tables, refreshed every 5 seconds. Drawn through the template
language, the 200 lines took more than half of it (thirteen cells a line, some fifty variables, tags and filters, a
few microseconds each, and two ``{% url %}`` a line); drawn here, a few milliseconds. The words are translated once a
language, the addresses reversed once; every text from outside (a table's or a dealer's name) is escaped. The HTML
is the one the template wrote, cell for cell (the browser tests and the CSS read its classes and ids).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from html import escape

from django import template
from django.template.defaultfilters import floatformat
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, ngettext, pgettext
from django.utils.translation import gettext as _

from casino.templatetags.money import cents
from pit.dashboard_rows import TableLine
from pit.templatetags.rated_play import rated_row

register = template.Library()

_PK = 987654321  # a stand-in id, replaced in the reversed addresses


@lru_cache(maxsize=16)
def _words(language: str | None) -> dict[str, str]:
    """The line's words in ``language`` (the active one when called), escaped once."""
    words = {
        "no_bank": _("no bank"),
        "house": _("House"),
        "no_rounds": _("no rounds"),
        "rake": _("rake"),
        "set_up": _("Set-up"),
        "on_box": _("On the box since"),
        "since": pgettext("on the box", "since"),
        "money_title": _("Table money: the tray, fills, credits and buy-ins"),
        "fill_short": pgettext("a fill, shortest", "F"),
        "credit_short": pgettext("a credit, shortest", "C"),
        "fills_label": _("fills received"),
        "credits_label": _("credits received"),
        "pending_label": _("pending"),
        "pending_title": _("Fills and credits pending"),
        "seat": _("Seat %(seat)s"),
    }
    return {key: escape(text) for key, text in words.items()}


@lru_cache(maxsize=256)
def _in_a_row(language: str | None, counter: int) -> str:
    return escape(ngettext("%(counter)s in a row", "%(counter)s in a row", counter) % {"counter": counter})


@lru_cache(maxsize=16)
def _addresses(language: str | None) -> tuple[str, str, str]:
    """The history's, the set-up's and the table money's address of a table, with ``_PK`` for its id (the language
    prefixes none today; keyed by it all the same)."""
    return (
        reverse("pit-table-history", args=[_PK]),
        reverse("pit-table-setup", args=[_PK]),
        reverse("dealer-money", kwargs={"table_id": _PK}),
    )


_MUTED_DASH = '<span class="muted">—</span>'


def _bank(line: TableLine, words: dict[str, str], language: str | None) -> str:
    if not line.banking:
        return f'<span class="muted">{words["no_bank"]}</span>'
    if line.bank_in_a_row is None:
        return _MUTED_DASH
    if line.house_banks:
        return words["house"]
    must = " must-pass" if line.must_pass else ""
    return (
        words["seat"] % {"seat": line.bank_seat}
        + f'<span class="in-a-row{must}">{_in_a_row(language, line.bank_in_a_row)}</span>'
    )


def _slips(line: TableLine, words: dict[str, str]) -> str:
    if not (line.fills_cents or line.credits_cents or line.slips_pending):
        return _MUTED_DASH
    parts = []
    if line.fills_cents:
        parts.append(
            f'<span class="t-fills" title="{words["fills_label"]}">{cents(line.fills_cents)}'
            f"<small>{words['fill_short']}</small></span>"
        )
    if line.credits_cents:
        parts.append(
            f'<span class="t-credits" title="{words["credits_label"]}">{cents(line.credits_cents)}'
            f"<small>{words['credit_short']}</small></span>"
        )
    if line.slips_pending:
        parts.append(
            f'<a class="slips-pending" href="#pit-slips" title="{words["pending_title"]}">'
            f"{line.slips_pending} {words['pending_label']}</a>"
        )
    return "".join(parts)


@register.filter(is_safe=True)
def table_row(line: TableLine, money_link: bool = False) -> SafeString:
    """The table's line: its name and game, status and set-up, dealer, bank, round, pace and its shift's money."""
    language = get_language()
    words = _words(language)
    history, setup, money = _addresses(language)
    table = line.table
    pk = str(table.pk)
    closed = "" if line.is_open else " is-closed"
    if line.round_number:
        round_cell = (
            f'<span class="round-no">#{line.round_number}</span> '
            f'<span class="state state-{escape(str(line.round_state))}">{escape(line.round_state_label)}</span>'
        )
    else:
        round_cell = f'<span class="muted">{words["no_rounds"]}</span>'
    pace = _MUTED_DASH if line.rounds_per_hour is None else floatformat(line.rounds_per_hour, 1)
    players = line.players_cents
    players_class = " players-up" if players > 0 else (" players-down" if players < 0 else "")
    rake = f'<span class="rake-tag">{words["rake"]}</span>' if line.rake_cents else ""
    hold = _MUTED_DASH if line.hold_bp is None else f"{cents(line.hold_bp)}%"
    win_class = " players-up" if line.win_cents < 0 else ""
    dealer = escape(line.dealer_name) if line.dealer_name else _MUTED_DASH
    if line.dealer_name and table.dealer_since is not None:  # time on the box: since the dealer sat down here
        since = timezone.localtime(table.dealer_since).strftime("%H:%M")
        dealer += f'<span class="t-box" title="{words["on_box"]}">{words["since"]} {since}</span>'
    drop = cents(line.drop_cents)
    if money_link:  # the recorded drop leads to the table's money, for who may sign a fill or confirm a tray
        drop = f'<a class="t-money" href="{money.replace(str(_PK), pk)}" title="{words["money_title"]}">{drop}</a>'
    return mark_safe(  # every text from outside is escaped above
        f'<tr class="table-line{closed}" id="table-{pk}">'
        f'<td class="t-name"><a href="{history.replace(str(_PK), pk)}"><span class="t-label">{escape(table.name)}'
        f'</span><span class="t-game">{escape(line.game_label)}</span></a></td>'
        f'<td class="t-status"><span class="badge {escape(table.status)}">{escape(line.status_label)}</span>'
        f'<a class="t-setup" href="{setup.replace(str(_PK), pk)}">{words["set_up"]}</a></td>'
        f'<td class="t-dealer">{dealer}</td>'
        f'<td class="t-bank">{_bank(line, words, language)}</td>'
        f'<td class="t-round">{round_cell}</td>'
        f'<td class="num">{pace}</td>'
        f'<td class="num t-handle">{cents(line.handle_cents)}</td>'
        f'<td class="num t-players{players_class}">{"+" if players > 0 else ""}{cents(players)}</td>'
        f'<td class="num t-take">{cents(line.house_take_cents)}{rake}</td>'
        f'<td class="num t-drop money-first">{drop}</td>'
        f'<td class="num t-win{win_class}">{cents(line.win_cents)}</td>'
        f'<td class="num t-hold">{hold}</td>'
        f'<td class="num t-slips">{_slips(line, words)}</td>'
        "</tr>"
    )


# A table's rows (its line, and its rated players' and hold drift's line under it) as last drawn in this process, by
# table, language, the players' list's address and whether swapped out of band; kept while the table's line is the
# same object (``pit.selectors`` keeps the line of a table nothing changed at), so a refresh of 2,000 tables draws
# again only the few that changed. At most ``_DRAWN_MOST`` kept (then drawn afresh).
_drawn: dict[tuple[int, str | None, str, bool, bool], tuple[TableLine, str]] = {}
_DRAWN_MOST = 20_000


def _rows(line: TableLine, players_url: str, oob: bool, language: str | None, money: bool) -> str:
    key = (line.table.pk, language, players_url, oob, money)
    kept = _drawn.get(key)
    if kept is not None and kept[0] is line:
        return kept[1]
    swap = ' hx-swap-oob="true"' if oob else ""
    under = rated_row(line, players_url) if line.rated or line.hold else ""
    drawn = f'<tbody id="t-{line.table.pk}" class="table-rows"{swap}>{table_row(line, money)}{under}</tbody>'
    if len(_drawn) >= _DRAWN_MOST:
        _drawn.clear()
    _drawn[key] = (line, drawn)
    return drawn


@register.simple_tag
def tables_rows(lines: Iterable[TableLine], players_url: str, oob: bool = False, money: bool = False) -> SafeString:
    """The tables' rows, each its own ``<tbody id="t-<table id>">`` (``oob``: each in a ``<template>``, swapped
    out of band by its id, as htmx 2 asks for table parts; ``money``: each with a link to its table money, for the
    supervisors)."""
    language = get_language()
    url = str(players_url)
    if oob:
        return mark_safe("\n".join(f"<template>{_rows(line, url, True, language, money)}</template>" for line in lines))
    return mark_safe("".join(_rows(line, url, False, language, money) for line in lines))  # escaped where drawn
