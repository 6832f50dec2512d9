"""HoldFast Korea (Worthington Publishing, 2015): the rules engine, one module per rules area.

- `data`         the game's tables and blocks as the rules read them (unit chart, support, RP costs)
- `board`        map queries: terrain, rivers, rails, red hex lines, coasts, the 38th Parallel, ZOC
- `combat`       9.2 combat (dice pools, simultaneous rolls, hits, block swaps)        check `combat`
- `naval`        9.1 UN naval assault and naval transfer                  checks `naval_assault`, `naval_transfer`
- `supply`       10 supply for every unit of a side at once (tracer + check `supply`)
- `movement`     9.1 movement cost of a path                                            check `movement`
- `intervention` 11 Chinese intervention                                    check `chinese_intervention`
- `replacements` 8 replacement steps and returning blocks                          check `replacements`
- `resources`    6 resource points per turn (and 14 air interdiction)          check `resource_points`
- `weather`      7 weather by month                                                      check `weather`
- `victory`      12 victory (automatic and end of game)                                  check `victory`

Importing this package registers every check and the supply tracer.
"""

from adjudicator.rules.holdfast import (  # noqa: F401
    combat,
    fog,
    intervention,
    movement,
    naval,
    replacements,
    resources,
    supply,
    victory,
    weather,
)
