"""The rate limiter, or nothing at all when rate limits are switched off.

Flask-Limiter's route wrapper works on every request even when the limiter is disabled
(it still evaluates the route's exemptions and scopes): about a twentieth of a roll's CPU
(issue 17). A deployment that switches limits off (`ADJUDICATOR_RATELIMIT_ENABLED=false`, e.g.
behind a proxy that limits) gets `Unlimited`, whose decorators return the view unchanged.
"""

from __future__ import annotations

import math
import os
from typing import Any, Callable

from flask import Flask, request
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


#: The costliest chances to compute, in seconds of one worker (a HoldFast or Fire and Ice combat's, every
#: outcome of its dice: 30-70 ms measured on the reference machine, docs/performance.md "Odds flood").
COSTLIEST_ODDS_SECONDS = 0.07
#: The share of one worker one client's chances may take: in a burst (a second), and sustained (a minute).
ODDS_BURST_SHARE = 0.25
ODDS_SUSTAINED_SHARE = 0.1


def odds_limit(config: Config) -> str:
    """The per-client limit on chances: ADJUDICATOR_RATE_LIMIT_ODDS, else set from what a worker computes.

    A chance is pure CPU held for its whole computation (a gevent worker runs one greenlet at a time),
    up to ~70 ms: at the former per-client limit (60/s, the anonymous one) one address kept both
    workers busy, and another player's ping waited 5 s (issue 52). Here a client gets at most a
    quarter of a worker's second in a burst and a tenth of a worker sustained (3/second;85/minute
    with the defaults, per worker: far above a player's clicks). The limiter's memory storage counts
    in each worker, so the limit is per worker; with a shared storage (Redis...) it spans the workers
    and is multiplied by their number (ADJUDICATOR_WORKERS, else the CPU count, as gunicorn.conf.py)."""
    if config.rate_limit_odds:
        return config.rate_limit_odds
    workers = 1 if config.ratelimit_storage_uri.startswith("memory://") else \
        int(os.environ.get("ADJUDICATOR_WORKERS") or os.cpu_count() or 2)
    per_second = workers / COSTLIEST_ODDS_SECONDS
    burst = max(1, math.floor(per_second * ODDS_BURST_SHARE))
    sustained = max(1, math.floor(60 * per_second * ODDS_SUSTAINED_SHARE))
    return f"{burst}/second;{sustained}/minute"


def client_address() -> str:
    """The odds limit's key: the client's address, whatever token it sends (anyone may make games, and
    so tokens, by the dozen)."""
    return "addr:" + (request.remote_addr or "unknown")


def odds_limited(config: Config, limiter: RouteLimiter) -> Callable[[Callable], Callable]:
    """The limit every route that computes chances shares, per client address (scope "odds"), on top
    of the route's own; over it: 429 problem+json with Retry-After (adjudicator.problems)."""
    return limiter.shared_limit(odds_limit(config), scope="odds", key_func=client_address)


def make_limiter(app: Flask, config: Config) -> RouteLimiter:
    if not config.ratelimit_enabled:
        return Unlimited()
    return Limiter(
        key_func=rate_limit_key,
        app=app,
        storage_uri=config.ratelimit_storage_uri,
        default_limits=[],
    )
