"""Readers of a game's data directory, one module per kind of file.

``scenarios.loader`` is the entry point (``load_game_dir``); ``game.read_game`` reads a directory in
the order each kind needs the ones before it (sides before units, units before setups, maps before
scenarios). Every reader adds what is wrong to the shared ``Reading``'s problems as
``file:line: what is wrong`` and goes on, so a maintainer sees every mistake in one run:

- ``files``      CSV and TOML files with their line numbers (the header's misspelt columns)
- ``context``    the shared state: problems, stand-ins, hex facts; sources, ids, required keys
- ``game_toml``  game.toml's tables: sides, nationalities, unit types, boxes, tracks, rolls, map areas,
                 terrain bans, the default scenario, sealed pools
- ``units``      units.csv (and the printed steps), markers.csv, markers made from a table's rows
- ``tables``     tables.toml and tables/*.csv (declared rows, column types)
- ``maps``       maps/<id>.toml, its terrain grid, features, hexsides and paths
- ``scenarios``  scenarios/<id>.toml and its turns; ``setups`` its setup and schedule;
                 ``places`` what a location in either names
- ``game``       the order of it all, and the checks across kinds
"""
