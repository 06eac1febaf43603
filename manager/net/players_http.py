"""The host's plain HTTP on its WebSocket port: the players' read-only page and its state.

`GET /` serves `players_view.page_html()` and `GET /state.json` the players' state
(`players_view.players_state(session)`); both need the view token, given as `?view=` in
the players' URL. Serving the page sets the token as a same-site cookie too, so the
page's own requests for state.json need not carry it. Laptops open their WebSocket
at /play; anything else is 404. Nothing here writes the battle.
"""
from __future__ import annotations

import hmac
from http import HTTPStatus
from urllib.parse import parse_qs, urlsplit

PLAY_PATH = "/play"
COOKIE = "berthier_view"


def _page() -> bytes:
    from . import players_view
    return players_view.page_html()


def _state(host) -> bytes:
    """The session (its log lines too) and the laptops still acting, which the page shows."""
    from . import players_view
    try:
        acting = host.acting()
    except Exception:                   # a view never breaks the host
        acting = None
    return players_view.state_json(host.session, acting=acting)


def _token_of(request) -> str:
    query = parse_qs(urlsplit(request.path).query)
    if query.get("view"):
        return query["view"][0]
    for part in request.headers.get("Cookie", "").split(";"):
        name, _, value = part.strip().partition("=")
        if name == COOKIE:
            return value
    return ""


def respond(connection, request, host):
    """websockets' process_request: None lets /play go on to the WebSocket handshake."""
    path = urlsplit(request.path).path
    if path == PLAY_PATH:
        return None
    if path not in ("/", "/index.html", "/state.json"):
        return connection.respond(HTTPStatus.NOT_FOUND, "not found\n")
    token = _token_of(request)
    if not hmac.compare_digest(token.encode(), host.view_token.encode()):
        return connection.respond(HTTPStatus.FORBIDDEN, "this page needs the players' URL "
                                  "the host printed (with its ?view= token)\n")
    if path == "/state.json":
        body = _state(host)
        kind = "application/json; charset=utf-8"
    else:
        body, kind = _page(), "text/html; charset=utf-8"
    response = connection.respond(HTTPStatus.OK, "")
    headers = response.headers          # a multi-dict: setting a name adds a line; replace
    for name in ("Content-Type", "Content-Length"):
        del headers[name]
    headers["Content-Type"] = kind
    headers["Content-Length"] = str(len(body))
    headers["Cache-Control"] = "no-store"
    headers["X-Content-Type-Options"] = "nosniff"
    if path != "/state.json":
        headers["Set-Cookie"] = f"{COOKIE}={token}; Path=/; SameSite=Strict; HttpOnly"
    response.body = body
    return response
