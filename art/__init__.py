"""Pillow renderers: scenario data in, images out.

Where things are:

- ``fonts``     the bundled DejaVu Sans Condensed and text fitting (text never overflows)
- ``canvas``    the 75-unit counter design grid, supersampled for smooth edges
- ``nato``      NATO unit symbols from primitives, unit size marks
- ``styles/``   the look of each game's counters and markers (generic, kwb, spi,
                holdfast, fireandice); ``styles.style_for(game)`` picks one
- ``counters``  ``unit_faces(game, unit, scale)``: one image per step
- ``markers``   ``marker_faces(game, marker, scale)``: one image per face
- ``maps``      map boards from a GameMap, off-map boxes, turn tracks
- ``charts``    chart images from Tables, stand-ins bannered
- ``render``    the API the module generator calls (``render_game_images``,
                ``counter_images``, ``board_images``), image names, the
                content-addressed cache and deterministic PNG encoding
- ``sheet``     contact sheets for reviewing the art (``python -m art.sheet kwb out/``)

Nothing here reads or writes files except the bundled fonts, the cache in
``render`` and the sheets in ``sheet``.
"""
