"""A stand-in for the host's web side in tests: serves the players' page and state.json
from a session on loopback, in a thread, exactly as the host's HTTP answers do (same
functions, same content types), counting the page's polls."""
from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from manager.net.players_view import page_html, state_json


class PlayersHost:
    def __init__(self, session):
        self.session = session
        self.lock = threading.Lock()
        self.polls = 0
        self.after_first_poll = None      # run (holding the lock) once the first poll is answered
        host = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                path = self.path.split("?", 1)[0]
                with host.lock:
                    if path == "/":
                        self._send(page_html(), "text/html; charset=utf-8")
                    elif path == "/state.json":
                        host.polls += 1
                        self._send(state_json(host.session), "application/json")
                        if host.polls == 1 and host.after_first_poll is not None:
                            host.after_first_poll()
                    else:
                        self.send_error(404)

            def _send(self, body: bytes, kind: str) -> None:
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)
                self.wfile.flush()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(10)
