"""The rate limiter, or nothing at all when rate limits are switched off.

Flask-Limiter's route wrapper works on every request even when the limiter is disabled
(it still evaluates the route's exemptions and scopes): about a twentieth of a roll's CPU
(issue 17). A deployment that switches limits off (`ADJUDICATOR_RATELIMIT_ENABLED=false`, e.g.
behind a proxy that limits) gets `Unlimited`, whose decorators return the view unchanged.
"""

from __future__ import annotations

from typing import Any, Callable

from flask import Flask
from flask_limiter import Limiter

from adjudicator.api.auth import rate_limit_key
from adjudicator.config import Config


class Unlimited:
    """Has the two Limiter methods the blueprints use; their decorators change nothing."""

    def limit(self, *args: Any, **kwargs: Any) -> Callable[[Callable], Callable]:
        return _unchanged

    def shared_limit(self, *args: Any, **kwargs: Any) -> Callable[[Callable], Callable]:
        return _unchanged


def _unchanged(view: Callable) -> Callable:
    return view


#: What the blueprint factories are given: both have `limit` and `shared_limit`.
RouteLimiter = Limiter | Unlimited


def pages_limit(config: Config, limiter: RouteLimiter) -> Callable[[Callable], Callable]:
    """The limit every page that takes a form or a file shares, per client (scope "pages")."""
    return limiter.shared_limit(config.rate_limit_anonymous, scope="pages", key_func=rate_limit_key)


def make_limiter(app: Flask, config: Config) -> RouteLimiter:
    if not config.ratelimit_enabled:
        return Unlimited()
    return Limiter(
        key_func=rate_limit_key,
        app=app,
        storage_uri=config.ratelimit_storage_uri,
        default_limits=[],
    )
