"""WSGI entry point: `gunicorn 'adjudicator.wsgi:app'` (configured from the environment)."""

from adjudicator.app import create_app

app = create_app()
