"""A TCP proxy on 127.0.0.1 in front of one server, that fails on demand.

It forwards bytes both ways, unchanged, until told to fail: ``lose_next_response()`` closes
the connection that next receives bytes from the server instead of forwarding them (the
server did the work, the client never hears of it); ``answer_next(raw)`` answers the next
request itself with ``raw`` bytes; ``cut()`` closes every open connection (a network that
drops). Real sockets, real threads; nothing of the server or client is replaced.
"""

from __future__ import annotations

import socket
import threading
from typing import Any

__all__ = ["Proxy"]


class Proxy:
    def __init__(self, upstream_port: int) -> None:
        self.upstream_port = upstream_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.connections = 0
        self._lose = 0
        self._answer: bytes | None = None
        self._open: list[tuple[socket.socket, socket.socket]] = []
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []
        self._closed = False
        self._start(self._accept)

    def _start(self, target: Any, *args: Any) -> None:
        thread = threading.Thread(target=target, args=args, daemon=True)
        self._threads.append(thread)
        thread.start()

    def lose_next_response(self) -> None:
        with self._lock:
            self._lose += 1

    def answer_next(self, raw: bytes) -> None:
        with self._lock:
            self._answer = raw

    def cut(self) -> None:
        with self._lock:
            pairs, self._open = self._open, []
        for pair in pairs:
            self._close(*pair)

    def close(self) -> None:
        self._closed = True
        self._close(self.listener)   # shutdown wakes the thread blocked in accept()
        self.cut()
        for thread in self._threads:
            thread.join(5)

    @staticmethod
    def _close(*socks: socket.socket) -> None:
        for sock in socks:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            with self._lock:
                self.connections += 1
                answer, self._answer = self._answer, None
            if answer is not None:
                self._start(self._answer_with, client, answer)
                continue
            upstream = socket.create_connection(("127.0.0.1", self.upstream_port))
            with self._lock:
                self._open.append((client, upstream))
            self._start(self._pump, client, upstream, False)
            self._start(self._pump, upstream, client, True)

    def _answer_with(self, client: socket.socket, raw: bytes) -> None:
        try:
            client.settimeout(10)
            client.recv(65536)     # the request line and headers
            client.sendall(raw)
        except OSError:
            pass
        finally:
            self._close(client)

    def _pump(self, source: socket.socket, target: socket.socket, from_server: bool) -> None:
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                if from_server:
                    with self._lock:
                        lose = self._lose > 0
                        self._lose -= lose
                    if lose:
                        break
                target.sendall(data)
        except OSError:
            pass
        finally:
            self._close(source, target)
