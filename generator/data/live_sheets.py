"""Live sheets: `cards_from: {url: https://..., cache: orders.csv}` (a published Google Sheet as CSV or XLSX,
or any HTTPS file).

`pnp pull` downloads each such sheet into its cache file, atomically, within size and time limits, and only
when what came is a spreadsheet pnp can read; the last good cache stays otherwise. Every pull is recorded in
the game folder's RECORD (from where, when, the size and the SHA-256 of what was written). Builds, validate
and the studio never touch the network: they read the cache, so a build is offline and byte-identical, and a
cache whose bytes are not the ones pulled (edited by hand) is a located problem, not silently printed.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import time
import urllib.parse
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.core.errors import InputError, Problem, Problems
from generator.core.limits import MAX_PULL_SECONDS, MAX_SHEET_BYTES
from generator.core.write import atomic_write
from generator.core.yamlio import YDict, load_yaml
from generator.data.models import CardSource
from generator.data.project import Project
from generator.data.spreadsheet import read_grid

RECORD = ".pnp-pulls.json"  # in the game folder; a dot file, so no build or studio input
LOOPBACK = ("127.0.0.1", "::1", "localhost")  # plain http is allowed here only (tests serve sheets so)
_CHUNK = 1 << 16


@dataclass(frozen=True)
class LiveSheet:
    """One `cards_from:` with a `url:`: where it is written and what it names."""

    game: str
    file: str       # the deck (table, component) file, as messages show it
    line: int       # the line of its `url:`
    url: str
    cache: Path     # the cache file (resolved, inside the game folder)
    shown: str      # the cache as messages show it


def _record(game_dir: Path) -> dict[str, Any]:
    try:
        found = json.loads((game_dir / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def live_sheets(project: Project, game_id: str) -> list[LiveSheet]:
    """Every live sheet the data files of a game name (a file that does not load is left to the build to
    report)."""
    game_dir = project.game_dir(game_id)
    found = []
    for path in sorted(game_dir.glob("*.yaml")):
        shown = project.show(path)
        try:
            raw = load_yaml(path, shown)
        except InputError:
            continue
        written = raw.get("cards_from") if isinstance(raw, YDict) else None
        if not isinstance(written, YDict) or not isinstance(written.get("url"), str):
            continue
        cache = written.get("cache")
        line = written.line_of("url")
        if not isinstance(cache, str):
            raise InputError(Problem(shown, line, "a `url:` without `cache:`; expected `cache:` naming the "
                                                  "file the pulled sheet is kept in (builds read only it)"))
        where = project.in_game(game_id, cache, file=shown, line=written.line_of("cache"), what="cache file")
        found.append(LiveSheet(game_id, shown, line, written["url"], where, project.show(where)))
    return found


def _checked_url(sheet: LiveSheet) -> str:
    """The URL when it may be fetched: HTTPS, or plain HTTP to this machine (tests)."""
    parts = urllib.parse.urlsplit(sheet.url)
    if parts.scheme == "https" and parts.hostname:
        return sheet.url
    if parts.scheme == "http" and parts.hostname in LOOPBACK:
        return sheet.url
    why = (f"url '{sheet.url}' is not an https:// address; expected https:// (plain http only for 127.0.0.1 "
           "and localhost)")
    raise InputError(Problem(sheet.file, sheet.line, why))


def _download(sheet: LiveSheet, seconds: float, limit: int) -> tuple[bytes, str]:
    """The body and content type the URL answers with, within `seconds` and `limit` bytes; located
    InputError otherwise."""
    import urllib.error  # here: urllib.request (with http.client and email) is for `pnp pull` only
    import urllib.request

    class _SafeRedirects(urllib.request.HTTPRedirectHandler):
        """Redirects are followed only to addresses the pull may fetch itself (a published Google Sheet
        redirects once, to googleusercontent.com)."""

        def redirect_request(self, req, fp, code, msg, headers, newurl):  # noqa: PLR0913 - urllib's signature
            parts = urllib.parse.urlsplit(newurl)
            if not (parts.scheme == "https" or (parts.scheme == "http" and parts.hostname in LOOPBACK)):
                raise urllib.error.URLError(f"redirected to '{newurl}', which is not https://")
            return super().redirect_request(req, fp, code, msg, headers, newurl)

    url = _checked_url(sheet)
    problem = (sheet.file, sheet.line)
    opener = urllib.request.build_opener(_SafeRedirects)
    request = urllib.request.Request(url, headers={"User-Agent": "pnp-forge (pnp pull)"})
    deadline = time.monotonic() + seconds
    try:
        with opener.open(request, timeout=seconds) as answer:
            kind = answer.headers.get("Content-Type", "")
            length = answer.headers.get("Content-Length")
            if length and length.isdigit() and int(length) > limit:
                raise InputError(Problem(*problem, f"{url} sends {int(length):,} bytes; expected at most "
                                                   f"{limit:,} (pnp's limit for a spreadsheet)"))
            chunks, size = [], 0
            while chunk := answer.read(_CHUNK):
                size += len(chunk)
                if size > limit:
                    raise InputError(Problem(*problem, f"{url} sends more than {limit:,} bytes; expected at "
                                                       f"most {limit:,} (pnp's limit for a spreadsheet)"))
                if time.monotonic() > deadline:
                    raise TimeoutError
                chunks.append(chunk)
    except urllib.error.HTTPError as exc:
        raise InputError(Problem(*problem, f"{url} answered {exc.code} {exc.reason}; expected the sheet (is "
                                           "it published? In Google Sheets: File > Share > Publish to web, "
                                           "as CSV)")) from None
    except (TimeoutError, OSError) as exc:  # URLError is an OSError; so is a refused connection
        why = (f"took more than {seconds:g} s" if isinstance(exc, TimeoutError) or "timed out" in str(exc)
               else f"cannot be reached ({getattr(exc, 'reason', exc)})")
        raise InputError(Problem(*problem, f"{url} {why}; the last pulled copy, if any, is kept (builds read "
                                           "it offline)")) from None
    return b"".join(chunks), kind


def _looks_like_a_page(data: bytes, kind: str) -> bool:
    head = data[:512].lstrip().lower()
    return "text/html" in kind.lower() or head.startswith((b"<!doctype html", b"<html", b"<head"))


def pull_sheet(project: Project, sheet: LiveSheet, seconds: float = MAX_PULL_SECONDS,
               limit: int = MAX_SHEET_BYTES) -> bool:
    """Download one live sheet into its cache (True when its bytes changed); InputError, located at the
    `url:`, when it cannot be fetched or is no readable spreadsheet: the last good cache is kept."""
    data, kind = _download(sheet, seconds, limit)
    if _looks_like_a_page(data, kind):
        raise InputError(Problem(sheet.file, sheet.line, f"{sheet.url} answered with a web page "
                                                         f"({kind or 'HTML'}), not a spreadsheet; expected "
                                                         "the link of the published CSV or XLSX "
                                                         "(…/pub?output=csv)"))
    trial = sheet.cache.with_name(f".{sheet.cache.name}.pulled{sheet.cache.suffix}")
    try:
        trial.write_bytes(data)
        read_grid(trial, sheet.shown)  # what came must read as the sheet before it replaces the cache
    except InputError as exc:
        raise InputError([Problem(sheet.file, sheet.line, f"{sheet.url} sent what is not a readable "
                                                          f"{sheet.cache.suffix} file: {p.message}")
                          for p in exc.problems]) from None
    finally:
        trial.unlink(missing_ok=True)
    digest = hashlib.sha256(data).hexdigest()
    game_dir = project.game_dir(sheet.game)
    record = _record(game_dir)
    key = sheet.cache.relative_to(game_dir.resolve()).as_posix()
    changed = not (sheet.cache.is_file() and record.get(key, {}).get("sha256") == digest
                   and hashlib.sha256(sheet.cache.read_bytes()).hexdigest() == digest)
    if changed:
        atomic_write(sheet.cache, data)
    now = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    record[key] = {"url": sheet.url, "pulled_at": now, "bytes": len(data), "sha256": digest,
                   "content_type": kind}
    atomic_write(game_dir / RECORD, json.dumps(record, indent=2, sort_keys=True) + "\n")
    return changed


def pull_game(project: Project, game_id: str, seconds: float = MAX_PULL_SECONDS,
              limit: int = MAX_SHEET_BYTES) -> list[tuple[LiveSheet, bool]]:
    """Pull every live sheet of a game: (sheet, whether its cache changed) for each; InputError with every
    sheet's problem (the sheets that could be pulled are)."""
    problems = Problems()
    done = []
    for sheet in live_sheets(project, game_id):
        try:
            done.append((sheet, pull_sheet(project, sheet, seconds, limit)))
        except InputError as exc:
            problems.extend(exc.problems)
    problems.raise_if_any()
    return done


def pulled_at(game_dir: Path, cache: Path) -> str | None:
    """When the cache was last pulled (ISO 8601, UTC), or None."""
    try:
        key = cache.resolve().relative_to(game_dir.resolve()).as_posix()
    except ValueError:
        return None
    return _record(game_dir).get(key, {}).get("pulled_at")


def check_cache(game_dir: Path, source: CardSource, cache: Path, shown: str, line: int) -> None:
    """A live sheet's cache as builds read it: it must exist and hold the bytes `pnp pull` wrote (a cache
    edited by hand is a located problem, never printed as if it were the sheet)."""
    game = game_dir.name
    if not cache.is_file():
        raise InputError(Problem(shown, line, f"no pulled copy of {source.url} yet ({source.cache} is "
                                              f"missing); expected `pnp pull {game}` first: builds read only "
                                              "the cache"))
    try:
        key = cache.resolve().relative_to(game_dir.resolve()).as_posix()
    except ValueError:
        key = ""
    entry = _record(game_dir).get(key, {})
    if entry.get("url") != source.url:
        raise InputError(Problem(shown, line, f"{source.cache} was not pulled from {source.url}; expected "
                                              f"`pnp pull {game}` to fetch it (or `file: {source.cache}` to "
                                              "read your own copy)"))
    if hashlib.sha256(cache.read_bytes()).hexdigest() != entry.get("sha256"):
        raise InputError(Problem(shown, line, f"{source.cache} was changed since it was pulled from "
                                              f"{source.url} at {entry.get('pulled_at')}; expected the "
                                              f"pulled copy: `pnp pull {game}` fetches the sheet again (or "
                                              f"use `file: {source.cache}` to keep your edits)"))
