"""The pages: every HTML page of the service and its blueprint, the forms' protections (origin, form
token, per-game login cookie) and the pictures and boards the pages draw. They call the same
recorded-check path as the API (`adjudicator.rulings`); nothing below imports from here."""
