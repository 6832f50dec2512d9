"""SPI Korea: The Mobile War 1950-51 (1971): the rules engine, one module per rules area.

The rulebook has no numbered sections; citations are its headings and lettered Cases ("Combat (G)").

- `data`         units, breakdown equivalents, tables, scenarios as the rules read them (stand-in warnings)
- `board`        terrain (Rough whole/partial, river hexes, towns, roads), the parallels, ZOC (Zones of Control)
- `movement`     entry costs, ZOC leaving cost, stacking, allowances, rail (Movement, TEC, ZOC (A))  check `movement_cost`
- `special`      which Special Game Rules are in force (Intervention (1)-(4), Shock Effect, Invasion (1))
- `losses`       losses in regiments with the breakdown equivalents, Combat (K) doubling
- `combat`       strengths, odds, the defender's CRT (data), results                     check `combat`
- `chosen_losses` the defender's own choice of which units lose a combat's regiments    check `combat_losses`
- `breakdown`    breaking a unit down by choice into counters not in play       check `division_breakdown`
- `supply`       Supply (A)-(I) for every unit of a side at once (tracer + check `supply`)
- `intervention` Campaign Chinese Intervention and Shock Effect, Intervention rule (5)
                 checks `chinese_intervention`, `shock_effect`, `north_edge_return`
- `partisans`    Campaign Game: Partisans (two South Korean divisions near Chonju/Taegu)  check `partisans`
- `victory`      victory levels of each game from a position                            check `victory`

The three Combat Results Tables were printed on the map, which is not in the rules text: the tables
the engine reads are labelled stand-ins in scenarios/data/spi/tables, and every result that used one
says so in its warnings. Importing this package registers every check and the supply tracer.
"""

from adjudicator.rules.spi import (  # noqa: F401
    breakdown, chosen_losses, combat, intervention, movement, partisans, supply, victory,
)
