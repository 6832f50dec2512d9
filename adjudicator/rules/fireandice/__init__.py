"""Korea: Fire and Ice (Operational Scale Series, 2018): the rules engine, one module per rules area.

- `data`         the game's tables as the rules read them (chits, Terrain Effects Chart, weather track)
- `board`        map queries: the border, terrain costs, roads/rails/cities, rivers, ZoC
- `support`      5.3, 8.2, 8.3 support determination of one side
- `events`       5.5 random events, 6.1 the Cup of SNAFU                     checks `random_event`, `snafu_draw`
- `combat`       5.0 combat of the units on the board          checks `combat`, `combat_support`, `draw_chits`
- `losses`       5.6 loss satisfaction and retreat consequences                      check `combat_losses`
- `supply`       14.5 lines of communications, every unit of a side at once (tracer + check `supply`)
- `intervention` 12.2 foreign intervention and aid   checks `chinese_intervention`, `roc_intervention`,
                 `atomic_release`, `soviet_intervention`, `foreign_aid`
- `victory`      12.1 the zero-sum VP track, 21-VP victory, Objective draws   checks `victory_points`, `objective_draw`
- `weather`      14.1 weather by month                                                 check `weather`
- `logistics`    7.0, 9.3 supply point costs, HQ flip costs, the monthly determination
                 checks `hq_flip_cost`, `supply_cost`, `supply_determination`
- `naval`        11.3.1 amphibious invasion and its bombardment                      check `amphibious_invasion`
- `replacements` 13.2 rebuilding eliminated units                                     check `rebuild`
- `movement`     4.5 declaring combat costs, 4.8 strategic movement   checks `declare_combat`, `strategic_movement`
- `air`          10.0 the air war: air-to-air, top cover, strikes, interdiction, station, repair
- `commitment`   10.1, 10.2 Air Commitment within the airfields                        check `air_commitment`

Importing this package registers every check and the LoC tracer.
"""

from adjudicator.rules.fireandice import (  # noqa: F401
    air,
    combat,
    commitment,
    events,
    fog,
    intervention,
    logistics,
    losses,
    movement,
    naval,
    replacements,
    supply,
    victory,
    weather,
)
