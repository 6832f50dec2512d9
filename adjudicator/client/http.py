"""Talking to the server: one ``requests`` session, every error turned into :class:`ClientError`.

A refusal from the server is a problem+json document (RFC 9457); its title, detail and
field errors are what the user sees. A server that cannot be reached, or that answers
something other than JSON, is reported in plain words too. Nothing here prints.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import requests

DEFAULT_SERVER = "http://127.0.0.1:8000"
SERVER_ENV = "ADJUDICATOR_URL"
TIMEOUT_SECONDS = 60


class ClientError(Exception):
    """Something the user must see; ``exit_code`` 1 = the server refused, 2 = could not ask."""

    def __init__(self, message: str, exit_code: int = 1, problem: dict | None = None):
        super().__init__(message)
        self.exit_code = exit_code
        self.problem = problem


def server_url(option: str | None) -> str:
    return (option or os.environ.get(SERVER_ENV) or DEFAULT_SERVER).rstrip("/")


def problem_message(status: int, problem: dict) -> str:
    title = problem.get("title") or f"HTTP {status}"
    lines = [f"error {status}: {title}" + (f": {problem['detail']}" if problem.get("detail") else "")]
    for item in problem.get("errors") or []:
        if isinstance(item, dict):
            lines.append(f"  {item.get('pointer') or '(body)'}: {item.get('detail', '')}")
    return "\n".join(lines)


@dataclass
class Api:
    base: str
    token: str | None = None

    def __post_init__(self) -> None:
        self.session = requests.Session()
        self.session.headers["User-Agent"] = "adjudicator-client/1"

    def _headers(self, token: bool) -> dict[str, str]:
        if not token:
            return {}
        if not self.token:
            raise ClientError("this command needs a game token: --token or ADJUDICATOR_TOKEN", 2)
        return {"Authorization": f"Bearer {self.token}"}

    def request(self, method: str, path: str, *, token: bool = False, **kwargs: Any) -> tuple[dict, requests.Response]:
        url = self.base + path
        try:
            response = self.session.request(method, url, headers=self._headers(token),
                                            timeout=TIMEOUT_SECONDS, **kwargs)
        except requests.RequestException as error:
            raise ClientError(f"cannot reach the adjudicator at {self.base}: {error}", 2) from None
        try:
            body = response.json()
        except ValueError:
            body = None
        if response.status_code >= 400:
            if isinstance(body, dict):
                raise ClientError(problem_message(response.status_code, body), 1, body)
            raise ClientError(f"error {response.status_code}: {response.text[:300].strip()}", 1)
        if not isinstance(body, dict):
            raise ClientError(f"the server at {self.base} did not answer JSON "
                              f"(HTTP {response.status_code}); is it an adjudicator?", 2)
        return body, response

    def get(self, path: str, **kwargs: Any) -> dict:
        return self.request("GET", path, **kwargs)[0]

    def post_json(self, path: str, body: dict | None, **kwargs: Any) -> dict:
        return self.request("POST", path, json=body, **kwargs)[0]

    def post_file(self, path: str, file: Path, params: dict[str, str | None], *, with_response: bool = False,
                  **kwargs: Any):
        """The answer to an upload; with `with_response`, (answer, response) for its headers."""
        data = read_bytes(file)
        files = {"file": (file.name, data, "application/octet-stream")}
        params = {k: v for k, v in params.items() if v}
        body, response = self.request("POST", path, files=files, params=params, **kwargs)
        return (body, response) if with_response else body


    def post_files(self, path: str, files: list[Path], **kwargs: Any):
        """The answer to an upload of several files, sent as repeated `file` fields in order."""
        parts = [("file", (file.name, read_bytes(file), "application/octet-stream")) for file in files]
        body, _ = self.request("POST", path, files=parts, **kwargs)
        return body


def read_bytes(path: Path) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as error:
        raise ClientError(f"cannot read {path}: {error.strerror}", 2) from None
