"""Benchmarks of what users feel: module builds, supply tracing and HTTP checks.

Run ``python -m bench`` (``make bench``).  Every section measures its subject
*side by side with a reference in the same run* and reports ratios, because
absolute times on shared machines are noisy; seconds are reported too.

Sections (each its own module):

* ``modules`` — all four VASSAL module builds cold, a no-change rebuild, a
  rebuild after one unit changes, and the floor (PNG-encoding the same images).
* ``supply``  — one multi-source supply search for every unit of a side on the
  largest map versus one search per unit.
* ``http``    — gunicorn + wrk: ``/ping`` versus a compute-mode and a
  game-mode check.

Results go to ``bench/results/<timestamp>.json``; ``docs/performance.md``
explains the targets and keeps the latest numbers.
"""
