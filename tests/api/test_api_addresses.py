"""The API's patterns come first in ``config.urls`` (a tablet's request is resolved without trying every page's
pattern); that is safe only while no page's address starts with ``api/`` and no page shares a name with the API,
whose reverse would otherwise change."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, resolve, reverse

from config import urls


def _names(patterns: list[URLPattern | URLResolver]) -> list[str]:
    found: list[str] = []
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            found += _names(pattern.url_patterns)
        elif pattern.name:
            found.append(pattern.name)
    return found


def test_no_page_lives_under_api_or_shares_a_name_with_it() -> None:
    pages = [pattern for pattern in urls.urlpatterns if not str(pattern.pattern).startswith("api/")]
    assert [str(pattern.pattern) for pattern in urls.urlpatterns[:2]] == ["api/", "api/v1/"]
    assert set(_names(urls.api_urlpatterns)) & set(_names(pages)) == set()
    assert reverse("api-token") == "/api/v1/auth/token/"  # the last of the two patterns with the name
    assert resolve("/pit/").url_name == "pit-dashboard" and resolve("/api/auth/token/").url_name == "api-token"
