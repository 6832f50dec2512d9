"""Korean War Battles (Brian Train) counters, rule 2.3.1.

Nationality colours come from the data (NK light yellow, PRC orangey-salmon,
ROK khaki, US green, CW red).  A mobile unit prints its movement allowance in
red; the depleted side prints its values in italics with a white stripe
across the counter.  That is exactly the generic layout's behaviour, so this
style only names itself; it exists so KWB-specific tweaks have one home.
"""

from art.styles.base import CounterStyle


class KwbStyle(CounterStyle):
    name = "kwb"
