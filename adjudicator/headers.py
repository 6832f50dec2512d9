"""Security headers on every response, set in one place (`register_security_headers`).

- ``Cache-Control: no-store`` on every response that did not choose its own caching: the pages
  and answers that show bearer tokens (a created game, its tokens shown once) must never be kept
  by a browser or a shared cache, and marking pages one by one would miss the next one. Static
  files keep what Flask gives them.
- ``Content-Security-Policy``: scripts and styles from this origin only; no plugins, no
  ``<base>``, forms post only here, and no framing (``frame-ancestors 'none'``, with
  ``X-Frame-Options: DENY`` for older browsers) so no other site can overlay the roll buttons.
  The pages' one inline ``<style>`` block is allowed by its hash, read from the templates when the
  app starts, so editing it keeps working and nothing else inline does. The ``<script
  type="application/json">`` data blocks are not executed, so the policy does not touch them.
- ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: same-origin``.
"""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

from flask import Flask, Response

TEMPLATES = Path(__file__).with_name("templates")

#: An inline style block without template markup (markup would make its bytes vary).
_STYLE_BLOCK = re.compile(r"<style>(.*?)</style>", re.DOTALL)


def inline_style_hashes(templates: Path = TEMPLATES) -> list[str]:
    """CSP source expressions ('sha256-...') for every fixed inline <style> in the templates."""
    hashes = set()
    for template in sorted(templates.glob("*.html")):
        for body in _STYLE_BLOCK.findall(template.read_text(encoding="utf-8")):
            if "{{" in body or "{%" in body:
                continue
            digest = base64.b64encode(hashlib.sha256(body.encode("utf-8")).digest()).decode("ascii")
            hashes.add(f"'sha256-{digest}'")
    return sorted(hashes)


def content_security_policy(style_hashes: list[str]) -> str:
    directives = {
        "default-src": "'self'",
        "script-src": "'self'",
        "style-src": " ".join(["'self'", *style_hashes]),
        "img-src": "'self' data:",
        "object-src": "'none'",
        "base-uri": "'none'",
        "form-action": "'self'",
        "frame-ancestors": "'none'",
    }
    return "; ".join(f"{name} {value}" for name, value in directives.items())


def security_headers(style_hashes: list[str] | None = None) -> dict[str, str]:
    """The headers every response gets (Cache-Control only where the view set none)."""
    return {
        "Content-Security-Policy": content_security_policy(
            inline_style_hashes() if style_hashes is None else style_hashes),
        "X-Frame-Options": "DENY",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "same-origin",
    }


def register_security_headers(app: Flask) -> None:
    fixed = list(security_headers().items())

    @app.after_request
    def _add_security_headers(response: Response) -> Response:
        headers = response.headers
        for name, value in fixed:
            headers[name] = value
        if "Cache-Control" not in headers:
            headers["Cache-Control"] = "no-store"
        return response
