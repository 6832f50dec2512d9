"""Security headers on every response, set in one place (`register_security_headers`).

- ``Cache-Control: no-store`` on every response that did not choose its own caching: the pages
  and answers that show bearer tokens (a created game, its tokens shown once) must never be kept
  by a browser or a shared cache, and marking pages one by one would miss the next one. Static
  files keep what Flask gives them.
- ``Content-Security-Policy``: scripts and styles from this origin only (the pages keep every
  style in static/style.css and every script in static/*.js: nothing inline runs); no plugins, no
  ``<base>``, forms post only here, and no framing (``frame-ancestors 'none'``, with
  ``X-Frame-Options: DENY`` for older browsers) so no other site can overlay the roll buttons.
  The ``<script type="application/json">`` data blocks are not executed, so the policy does not
  touch them.
- ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: same-origin``.
"""

from __future__ import annotations

from flask import Flask, Response

CONTENT_SECURITY_POLICY = "; ".join(f"{name} {value}" for name, value in {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}.items())

SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


def register_security_headers(app: Flask) -> None:
    fixed = list(SECURITY_HEADERS.items())

    @app.after_request
    def _add_security_headers(response: Response) -> Response:
        headers = response.headers
        for name, value in fixed:
            headers[name] = value
        if "Cache-Control" not in headers:
            headers["Cache-Control"] = "no-store"
        return response
