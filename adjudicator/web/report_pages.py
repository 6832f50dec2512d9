"""The after-action report's pages (`adjudicator.web.report` assembles what they say).

    GET  /games/<id>/report            the report: any of the game's logins (its fog while open);
                                       anyone, once the game is closed and a side has published it
    GET  /games/<id>/report.md         the same as Markdown for a forum post (?bbcode=1: BBCode)
    POST /games/<id>/report/publish    a side's consent to the public link (closed games only)

The public link is the report's own address: a reader without the game's login is shown the
report of a published game, and asked for a token otherwise. Publishing is a side's choice, made by
a form of these pages (CSRF-guarded like every other, `adjudicator.web.csrf`), and recorded with
the time beside the game (`Store.publish_report`); it needs the game closed, so a published report
shows no fog to lift and every die can be recomputed from the revealed seed.
"""

from __future__ import annotations

from flask import Blueprint, Response, redirect, render_template, request, url_for

from adjudicator.api.ratelimits import RouteLimiter, pages_limit
from adjudicator.checks import side_label
from adjudicator.config import Config
from adjudicator.ledger.storage import OBSERVER, GameOpen, TokenGrant
from adjudicator.problems import Problem
from adjudicator.services import services
from adjudicator.web.csrf import guard
from adjudicator.web.dicechart import die_chart
from adjudicator.web.game_pages import game_or_404, grant_or_login, viewer
from adjudicator.web.page_tokens import page_grant, page_token
from adjudicator.web.report import Report, build_report
from adjudicator.web.report_text import bbcode, markdown


def report_of(game_id: str) -> tuple[Report, TokenGrant | None] | Response:
    """The report for this browser: its login's view, the public view of a published closed game,
    or the redirect to the token form."""
    game = game_or_404(game_id)
    if page_token(game_id) is None and game["status"] == "closed" and services().store.report_consents(game_id):
        return build_report(game_id, game["system"], None), None
    grant = grant_or_login(game_id, write=False)
    if isinstance(grant, Response):
        return grant
    return build_report(game_id, grant.system, viewer(grant)), grant


def base_url() -> str:
    return services().config.public_url or request.host_url.rstrip("/")


def make_report_blueprint(config: Config, limiter: RouteLimiter) -> Blueprint:
    bp = Blueprint("report_pages", __name__)
    per_client = pages_limit(config, limiter)

    @bp.get("/games/<game_id>/report")
    def report(game_id: str):
        found = report_of(game_id)
        if isinstance(found, Response):
            return found
        made, grant = found
        response = Response(render_template(
            "report.html", report=made, grant=grant, side_label=side_label, die_chart=die_chart,
            may_publish=grant is not None and grant.role != OBSERVER and not made.open,
            published=grant is not None and any(c["side"] == grant.role for c in made.published_by),
            public_url=f"{base_url()}{url_for('report_pages.report', game_id=game_id)}"))
        response.headers["Cache-Control"] = "no-store"
        return response

    @bp.get("/games/<game_id>/report.md")
    def report_markdown(game_id: str):
        found = report_of(game_id)
        if isinstance(found, Response):
            return found
        made, _ = found
        as_bbcode = request.args.get("bbcode") == "1"
        text = bbcode(made, base_url()) if as_bbcode else markdown(made, base_url())
        # text/plain: a browser shows it to copy into the forum's box (text/markdown it would download)
        return Response(text, mimetype="text/plain", headers={
            "Cache-Control": "no-store",
            "Content-Disposition": f'inline; filename="aar-{game_id}.{"txt" if as_bbcode else "md"}"'})

    @bp.post("/games/<game_id>/report/publish")
    @per_client
    @guard
    def publish(game_id: str):
        grant = page_grant(game_id, write=True)
        if request.form.get("consent") != "publish":
            raise Problem(422, "Consent not given", "Tick the box to make the report public.", kind="no-consent")
        try:
            services().store.publish_report(game_id, grant.role)
        except GameOpen:
            raise Problem(409, "The game is still open", "Only a closed game's report can be made public: its "
                          "fog of war is lifted and its seed revealed.", kind="game-open") from None
        return redirect(url_for("report_pages.report", game_id=game_id), 303)

    return bp
