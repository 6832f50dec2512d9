"""WSGI entry point: `gunicorn 'adjudicator.wsgi:app'` (configured from the environment).

A worker starts even when the database is down (it answers 503 until it is back): gunicorn's
master has created the tables and recorded the key, and stops at start-up with a clear message
if it could not.
"""

from adjudicator.app import create_app

app = create_app(storage_may_be_down=True)
