"""Who may talk to the studio: requests naming one of the studio's own hosts, from the studio's own pages.

A web page the designer visits elsewhere can point a DNS name of its own at 127.0.0.1 (DNS rebinding) and then
read whatever the studio answers for that name; so every request's `Host` must be one of the names the studio
serves (loopback names, the machine's own names and addresses when it listens wider, `--allow-host` names),
whatever address the socket is bound to. A request that streams (the event stream) or could change state (any
method but GET and HEAD) must also come from one of those origins when the browser says where it comes from.
Anything else is a 403, answered before any route runs.
"""

from __future__ import annotations

import html
import ipaddress
import socket
from collections.abc import Iterable
from functools import lru_cache
from urllib.parse import urlsplit

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
WILDCARD_HOSTS = ("0.0.0.0", "::", "")
STREAMS = ("/events",)          # paths whose answer is a live stream: checked like a state change
SAFE_METHODS = ("GET", "HEAD")


def host_name(header: str) -> str:
    """The name of a Host header or an origin's authority, lower case, without its port or IPv6 brackets."""
    value = header.strip().lower()
    if value.startswith("["):
        return value[1:].partition("]")[0]
    if value.count(":") == 1:
        value = value.partition(":")[0]
    return value.rstrip(".")


@lru_cache(maxsize=256)
def _is_own_address(name: str) -> bool:
    """Whether `name` is an IP address of this machine (an address a socket can be bound to here)."""
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    family = socket.AF_INET6 if address.version == 6 else socket.AF_INET
    probe = socket.socket(family, socket.SOCK_DGRAM)
    try:
        probe.bind((str(address), 0))
    except OSError:
        return False
    finally:
        probe.close()
    return True


class HostGuard:
    """The names the studio answers to, and the check of one request's headers against them."""

    def __init__(self, bind_host: str = "127.0.0.1", allowed: Iterable[str] = ()):
        names = {*LOOPBACK_HOSTS, *(host_name(n) for n in allowed if n.strip())}
        self.wide = host_name(bind_host) not in LOOPBACK_HOSTS
        if self.wide:  # reachable from the network: the machine's own names, as a tablet would type them
            if host_name(bind_host) not in WILDCARD_HOSTS:
                names.add(host_name(bind_host))
            for own in (socket.gethostname(), socket.getfqdn()):
                if own:
                    names.update({own.lower(), own.lower().split(".")[0] + ".local"})
        self.names = frozenset(names)

    def allows_host(self, name: str) -> bool:
        """Whether a request naming `name` (from host_name) is for this studio."""
        return name in self.names or (self.wide and _is_own_address(name))

    def refusal(self, method: str, path: str, headers: dict[str, str]) -> str | None:
        """Why a request is refused (one line), or None when it may be answered."""
        host = headers.get("host")
        if host is None:
            return "a request without a Host header"
        if not self.allows_host(host_name(host)):
            return (f"Host '{host}' is not a name this studio serves ({', '.join(sorted(self.names))}); "
                    "a page elsewhere may not read it (pnp serve --allow-host NAME adds a name)")
        origin = headers.get("origin")
        if origin is not None and (method not in SAFE_METHODS or path in STREAMS):
            parts = urlsplit(origin)
            if parts.scheme not in ("http", "https") or not self.allows_host(host_name(parts.netloc)):
                return f"Origin '{origin}' is not this studio's; only its own pages may open {path}"
        return None


class HostCheck:
    """ASGI middleware answering 403 to every request HostGuard refuses, before any route runs."""

    def __init__(self, app, guard: HostGuard):
        self.app = app
        self.guard = guard

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        reason = self.guard.refusal(scope.get("method", "GET"), scope.get("path", ""), headers)
        if reason is None:
            await self.app(scope, receive, send)
            return
        body = (f"<!doctype html><meta charset=utf-8><title>Refused</title>"
                f"<p role=alert>403: {html.escape(reason)}</p>\n").encode()
        headers = [(b"content-type", b"text/html; charset=utf-8"), (b"cache-control", b"no-store"),
                   (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": 403, "headers": headers})
        await send({"type": "http.response.body", "body": body})
