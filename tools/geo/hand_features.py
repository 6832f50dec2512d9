"""Rivers and a reservoir that the offline sources lack, plus the probes used to name WDBII rivers.

Everything here is typed by hand from general knowledge of Korean geography (no map was digitised);
each feature says how rough it is. They exist because the games need them: the Ch'ongch'on line
(Kunu-ri, Anju) and the Chosin (Changjin) reservoir with its river are central to the 1950 campaigns,
and WDBII has neither (checked: the nearest WDBII river to Anju is 22 km away; GSHHS_h has no lake at
Chosin). Replace them from the published game maps when available.
"""

from __future__ import annotations

# Points known to lie on (or within a few km of) each named river, as (lat, lon). A WDBII polyline is
# given the name whose nearest probe lies within PROBE_KM of it.
PROBE_KM = 6.0
RIVER_PROBES: dict[str, tuple[tuple[float, float], ...]] = {
    "Yalu": ((40.10, 124.40), (41.15, 126.29), (41.40, 128.18)),  # Sinuiju, Manpo, Hyesan
    "Tumen": ((42.44, 129.75), (42.30, 130.60)),  # Hoeryong, lower course near the sea
    "Naktong": ((35.99, 128.40), (35.20, 128.98)),  # Waegwan bridge, the delta above Pusan
    "Han": ((37.52, 126.98), (37.30, 127.64)),  # Seoul, Yoju (upper course = Namhan)
    "Kum": ((36.46, 127.12),),  # Kongju
    "Taedong": ((39.02, 125.75),),  # Pyongyang
    "Imjin": ((37.87, 126.78),),  # Munsan
    "Pukhan": ((37.88, 127.73), (37.83, 127.51)),  # Chunchon, Kapyong
}

# (name, note, [(lat, lon), ...] from source to mouth); a river may have several pieces (split at a lake).
HAND_RIVERS: tuple[tuple[str, str, tuple[tuple[float, float], ...]], ...] = (
    ("Chongchon",
     "hand: course through Huichon, Kujang, Kunu-ri (Kaechon) and Anju to the Yellow Sea below Sinanju; "
     "approximate (about 5 km), not in WDBII",
     ((40.45, 126.75), (40.30, 126.45), (40.17, 126.28), (40.00, 126.20), (39.87, 126.03),
      (39.70, 125.90), (39.63, 125.72), (39.60, 125.62), (39.55, 125.45))),
    ("Changjin",
     "hand: upper course, rising at Funchilin Pass and running north past Koto-ri into the Chosin "
     "reservoir at Hagaru-ri; approximate (about 3 km)",
     ((40.24, 127.33), (40.284, 127.305), (40.33, 127.27), (40.375, 127.255), (40.392, 127.248))),
    ("Changjin",
     "hand: lower course, from the north end of the Chosin reservoir north to the Yalu; very approximate "
     "(about 10 km)",
     ((40.625, 127.225), (40.80, 127.23), (41.00, 127.17), (41.25, 127.05), (41.55, 126.95))),
    ("Soyang",
     "hand: from Inje south-west to join the Pukhan at Chunchon; approximate (about 5 km); "
     "the Soyang lake dam did not exist in 1950",
     ((38.07, 128.17), (38.00, 128.05), (37.95, 127.90), (37.90, 127.75))),
)

# The Chosin (Changjin) reservoir, a closed ring (lat, lon). Japanese-built hydro reservoir, full in 1950.
# Shape typed by hand: about 25 km north-south, its south tip just north of Hagaru-ri (40.384N 127.249E),
# a western arm reaching towards Yudam-ni, its centre near 40.5N 127.2E (Wikipedia 'Chosin Reservoir').
CHOSIN_RESERVOIR_NOTE = ("hand: outline typed from the positions of Hagaru-ri (south tip), Yudam-ni (end of "
                         "the western arm) and the Wikipedia centre 40.5N 127.2E; approximate (about 2-3 km)")
CHOSIN_RESERVOIR: tuple[tuple[float, float], ...] = (
    (40.392, 127.248), (40.420, 127.268), (40.460, 127.280), (40.500, 127.283), (40.545, 127.270),
    (40.590, 127.250), (40.625, 127.225), (40.610, 127.200), (40.565, 127.195), (40.520, 127.185),
    (40.495, 127.150), (40.478, 127.120), (40.468, 127.125), (40.470, 127.160), (40.455, 127.200),
    (40.430, 127.225), (40.405, 127.235), (40.392, 127.248),
)
