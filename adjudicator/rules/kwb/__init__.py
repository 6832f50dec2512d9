"""Korean War Battles (Brian Train, Exclusive Rules v1.2): the rules engine, one module per rules area.

- `data`      the game's units, markers, tables and scenarios as the rules read them (stand-in warnings)
- `board`     map queries (Rough, City, water hexsides, roads, the Han) and ZOC (6.1)
- `supply`    9.0-9.1.1 supply for every unit of a side at once (tracer + check `supply`), 12.21, 12.3
- `support`   8.1, 8.1.1, 12.1.1 Support Fire markers per combat (HQ lines of communication) and per turn
              checks `support_fire_limit`, `support_fire_allocation`, `support_fire_draw`
- `bombardment` 8.4, 8.4.1 bombardment and UN counter-battery on the stand-in tables  checks `bombardment`, `counter_battery`
- `replacements` 10.1.2, 10.1.3, 12.21, 12.3 replacements and emergency replacements  check `replacements`
- `breakdown` 5.3.2 a division into three random unnumbered regiments                  check `division_breakdown`
- `losses`    7.6 the depletion ladder and the random generic-regiment draw
- `combat`    7.1, 9.1, 12.3, 12.21 modifiers around the CRT in the game data              check `combat`
- `shortage`  12.1.1 Pusan supply shortages                   checks `un_supply_shortage_end`, `supply_center_move`
- `victory`   11.0 and 12.1.3 / 12.22 / 12.32 victory points and level    checks `victory`, `seoul_cleared`
- `facts`     12.1.1 the UN supply shortage as a recorded game's ledger and a saved game's board show it
- `draws`     12.21 the Scratch Units a combat reveals, drawn by the adjudicator (adjudicator.ledger.draws)
- `fog`       8.1 the Support Fire markers a side draws, its own to see until used (adjudicator.fog)

The Standard Rules (sequence of play, CRT, terrain effects, support-fire procedure) are not in the
book (1.0): the tables the engine reads for them are labelled stand-ins in scenarios/data/kwb/tables,
and every result that used one says so in its warnings. Importing this package registers every check
and the supply tracer.
"""

from adjudicator.rules.kwb import (  # noqa: F401
    bombardment,
    breakdown,
    combat,
    draws,
    facts,
    fog,
    replacements,
    shortage,
    supply,
    support,
    victory,
)
from adjudicator.rules.kwb.shortage import supply_center_move, un_supply_shortage_end  # noqa: F401
