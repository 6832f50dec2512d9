"""The main 1950 railway lines and roads of Korea, as sequences of town names.

No offline source holds a 1950 network (see ../../../shared research notes in tools/geo/README.md), so
these lines are typed by hand from general historical knowledge of the Korean railways built under
Japanese rule (completed by 1945) and of the main supply routes named in Korean War histories
(e.g. Appleman, "South to the Naktong, North to the Yalu", US Army CMH 1961; the West Point atlas maps).
Each line is a list of names from towns_seed.csv; extract.py resolves them to coordinates through the
town table, so a line is only as precise as its towns (straight segments between towns).

They are stand-ins: good enough to say "a railway runs from Taegu to Taejon through Kumchon", not to
trace a track across a 3 km hex. A maintainer should correct them from the published game maps.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Line:
    """One railway or road: an ordered list of towns and why we believe it existed in 1950."""

    name: str
    via: tuple[str, ...]
    note: str = ""
    gauge: str = "standard"  # railways only: "standard" (1435 mm) or "narrow" (762 mm)


RAILWAYS: tuple[Line, ...] = (
    Line("Kyongbu line", ("Pusan", "Samnangjin", "Miryang", "Chongdo", "Kyongsan", "Taegu", "Waegwan",
                          "Kumchon", "Yongdong", "Taejon", "Chochiwon", "Chonan", "Pyongtaek", "Osan",
                          "Suwon", "Anyang", "Yongdungpo", "Seoul"),
         "Seoul-Pusan trunk line, opened 1905; double-tracked by 1945"),
    Line("Kyongin line", ("Seoul", "Yongdungpo", "Sosa", "Inchon"), "Seoul-Inchon, opened 1899-1900"),
    Line("Kyongui line", ("Seoul", "Munsan", "Kaesong", "Kumchon (Hwanghae)", "Sinmak", "Sariwon",
                          "Hwangju", "Pyongyang", "Sukchon", "Sinanju", "Chongju", "Sonchon", "Sinuiju",
                          "Antung"),
         "Seoul-Sinuiju, opened 1906; the Yalu bridge (1911) carried it on to Antung"),
    Line("Kyongwon line", ("Seoul", "Uijongbu", "Tongduchon", "Yonchon", "Chorwon", "Pyonggang", "Wonsan"),
         "Seoul-Wonsan, opened 1914"),
    Line("Kumgangsan electric line", ("Chorwon", "Kumhwa"),
         "electric railway Chorwon-Kumhwa-Naegumgang (1924-31); only its Iron Triangle end is kept"),
    Line("Hamgyong line", ("Wonsan", "Kowon", "Hamhung", "Pukchong", "Iwon", "Tanchon", "Songjin", "Kilchu",
                           "Chongjin", "Najin"),
         "Wonsan-Chongjin along the north-east coast, completed 1928; on to Najin by the late 1930s"),
    Line("Hamhung-Hungnam branch", ("Hamhung", "Hungnam"), "short branch to the port and chemical works"),
    Line("Hyesan line", ("Kilchu", "Hyesanjin"), "Kilchu-Hyesanjin, completed 1937"),
    Line("Pyongwon line", ("Pyongyang", "Sunchon", "Yangdok", "Kowon"),
         "Pyongyang-Wonsan across the peninsula via Sunchon and Yangdok, completed 1941"),
    Line("Manpo line", ("Sunchon", "Kunu-ri", "Huichon", "Kanggye", "Manpojin"),
         "Sunchon-Kaechon (Kunu-ri)-Huichon-Kanggye-Manpo, completed 1939"),
    Line("Kaechon line", ("Sinanju", "Anju", "Kunu-ri"), "Sinanju-Kaechon; the Chongchon valley link"),
    Line("Pyongnam line", ("Pyongyang", "Chinnampo"), "Pyongyang-Chinnampo, opened 1910"),
    Line("Hwanghae line", ("Sariwon", "Haeju"),
         "narrow-gauge Hwanghae railway Sariwon-Haeju (1920s-30s)", gauge="narrow"),
    Line("Changjin line", ("Hamhung", "Oro-ri", "Chinhung-ni", "Koto-ri", "Hagaru-ri"),
         "narrow-gauge line from Hamhung up the Songchon valley; a cable incline lifted it over Funchilin "
         "Pass between Chinhung-ni and Koto-ri", gauge="narrow"),
    Line("Tonghae Pukbu line", ("Wonsan", "Tongchon", "Kosong", "Yangyang"),
         "Anbyon (by Wonsan)-Yangyang along the east coast, completed 1937; rails partly lifted 1945-50"),
    Line("Honam line", ("Taejon", "Nonsan", "Iri", "Chongup", "Songjong-ni", "Naju", "Mokpo"),
         "Taejon-Mokpo, opened 1914"),
    Line("Kwangju line", ("Songjong-ni", "Kwangju", "Suncheon"),
         "Songjong-ni-Kwangju (1922) and Kwangju-Suncheon (1930-36, later part of the Kyongjon line)"),
    Line("Kunsan line", ("Iri", "Kunsan"), "Iri-Kunsan, opened 1912"),
    Line("Cholla line", ("Iri", "Chonju", "Namwon", "Suncheon", "Yosu"),
         "Iri-Yosu, completed 1936"),
    Line("Changhang line", ("Chonan", "Hongsong", "Changhang"),
         "Chonan-Changhang (Chungnam line), completed 1931"),
    Line("Chungbuk line", ("Chochiwon", "Cheongju", "Chungju"), "Chochiwon-Chungju, completed 1928"),
    Line("Kyongbuk line", ("Kumchon", "Sangju", "Mungyong"),
         "Kimchon-Sangju-Chomchon, opened 1924 (the Chomchon-Yongju extension came only in 1966)"),
    Line("Masan line", ("Samnangjin", "Changwon", "Masan", "Haman", "Chinju"),
         "Samnangjin-Masan (1905) extended to Chinju (1925). Chinju-Suncheon was NOT built until 1968"),
    Line("Chinhae line", ("Changwon", "Chinhae"), "Changwon-Chinhae naval base, opened 1926"),
    Line("Chungang line", ("Seoul", "Yangpyong", "Wonju", "Chechon", "Tanyang", "Yongju", "Andong", "Uisong",
                           "Yongchon"),
         "Seoul (Chongnyangni)-Yongchon through the central mountains, completed 1942"),
    Line("Taegu line", ("Taegu", "Yongchon", "Kyongju"), "Taegu-Kyongju (1917-18)"),
    Line("Tonghae Nambu line", ("Pusan", "Ulsan", "Kyongju", "Pohang"),
         "Pusan-Ulsan-Kyongju-Pohang along the south-east coast (1918-35)"),
)


ROADS: tuple[Line, ...] = (
    Line("Route 1 (Pusan-Seoul-Sinuiju)", ("Pusan", "Miryang", "Chongdo", "Kyongsan", "Taegu", "Waegwan",
                                            "Kumchon", "Yongdong", "Taejon", "Chonan", "Pyongtaek", "Osan",
                                            "Suwon", "Anyang", "Yongdungpo", "Seoul", "Munsan", "Kaesong",
                                            "Kumchon (Hwanghae)", "Sariwon", "Hwangju", "Pyongyang", "Sukchon",
                                            "Anju", "Chongju", "Sonchon", "Sinuiju"),
         "the western main supply route of both advances; the Seoul-Osan-Taejon stretch is where Task Force "
         "Smith and the 24th Division fought in July 1950"),
    Line("Seoul-Inchon road", ("Seoul", "Yongdungpo", "Sosa", "Inchon"), "Inchon-Seoul highway"),
    Line("Seoul-Kimpo road", ("Yongdungpo", "Kimpo airfield"), ""),
    Line("South coast road", ("Pusan", "Kimhae", "Changwon", "Masan", "Haman", "Chinju", "Hadong", "Suncheon",
                              "Kwangju", "Naju", "Mokpo"),
         "Pusan-Masan-Chinju-Hadong-Suncheon; the road (not the railway) linked Chinju and Suncheon in 1950"),
    Line("Suncheon-Yosu road", ("Suncheon", "Yosu"), ""),
    Line("Honam road", ("Taejon", "Nonsan", "Iri", "Chonju", "Chongup", "Kwangju"), ""),
    Line("Kunsan road", ("Iri", "Kunsan"), ""),
    Line("Chonju-Namwon road", ("Chonju", "Namwon", "Suncheon"), ""),
    Line("Taejon-Kongju road", ("Taejon", "Kongju", "Chonan"), "the Kum river line of July 1950"),
    Line("Taegu-Masan road", ("Taegu", "Changnyong", "Masan"),
         "west of the Naktong through Hyonpung, Changnyong and Namji-ri; the Naktong bulge sector"),
    Line("East coast road", ("Pusan", "Ulsan", "Kyongju", "Pohang", "Yongdok", "Ulchin", "Samchok", "Kangnung",
                             "Chumunjin", "Yangyang", "Kosong", "Tongchon", "Wonsan", "Kowon", "Hamhung",
                             "Pukchong", "Iwon", "Tanchon", "Songjin", "Kilchu", "Chongjin", "Najin"),
         "the coastal road up the whole east coast; ROK I Corps' axis in 1950"),
    Line("Taegu-Pohang road", ("Taegu", "Kyongsan", "Yongchon", "Kyongju"), ""),
    Line("Route 5 (Chunchon-Taegu)", ("Chunchon", "Hongchon", "Wonju", "Chechon", "Tanyang", "Yongju", "Andong",
                                      "Uisong", "Taegu"),
         "the central north-south road through the Taebaek foothills"),
    Line("Seoul-Wonju road", ("Seoul", "Yangpyong", "Wonju"), ""),
    Line("Wonju-Kangnung road", ("Wonju", "Kangnung"), "over the Taegwallyong pass"),
    Line("Mungyong pass road", ("Seoul", "Ichon", "Chungju", "Mungyong", "Sangju", "Waegwan"),
         "Seoul-Chungju-Mungyong pass-Sangju, the old Yongnam road into the Naktong valley"),
    Line("Yoju road", ("Ichon", "Yoju", "Wonju"), ""),
    Line("Chochiwon-Cheongju road", ("Taejon", "Cheongju", "Chungju"), ""),
    Line("Seoul-Chunchon road", ("Seoul", "Kapyong", "Chunchon", "Inje", "Yangyang"),
         "Seoul-Chunchon and over the Taebaek range to the east coast"),
    Line("Chunchon-Hwachon road", ("Chunchon", "Hwachon", "Kumhwa"), ""),
    Line("Seoul-Wonsan road", ("Seoul", "Uijongbu", "Tongduchon", "Yonchon", "Chorwon", "Pyonggang", "Wonsan"),
         "the Uijongbu corridor, the North Korean main axis of 25 June 1950"),
    Line("Chorwon-Kumhwa road", ("Chorwon", "Kumhwa"), ""),
    Line("Kaesong-Haeju road", ("Kaesong", "Haeju", "Ongjin"), "Ongjin peninsula"),
    Line("Pyongyang-Chinnampo road", ("Pyongyang", "Chinnampo"), ""),
    Line("Pyongyang-Wonsan road", ("Pyongyang", "Sunchon", "Yangdok", "Kowon", "Wonsan"), ""),
    Line("Chongchon valley road", ("Sunchon", "Kunu-ri", "Huichon", "Kanggye", "Manpojin"),
         "Eighth Army's axis to the Yalu and the Kunu-ri gauntlet of Nov-Dec 1950"),
    Line("Anju-Kunu-ri road", ("Anju", "Kunu-ri", "Tokchon"), ""),
    Line("Anju-Unsan road", ("Anju", "Pakchon", "Unsan"), ""),
    Line("Unsan-Chosan road", ("Unsan", "Chosan"), "approximate; ROK 6th Division's route to the Yalu"),
    Line("Sinuiju-Uiju road", ("Sinuiju", "Uiju"), ""),
    Line("Hamhung-Hungnam road", ("Hamhung", "Hungnam"), ""),
    Line("Hamhung-Yonpo road", ("Hamhung", "Yonpo airfield"), ""),
    Line("Chosin road (MSR)", ("Hamhung", "Oro-ri", "Chinhung-ni", "Koto-ri", "Hagaru-ri", "Yudam-ni"),
         "the single road of the Chosin campaign: 78 miles Hungnam-Yudam-ni over Funchilin and Toktong passes"),
    Line("Chosin east-shore road", ("Hagaru-ri", "Sinhung-ni"), "east side of the reservoir (RCT-31)"),
    Line("Pukchong-Hyesanjin road", ("Pukchong", "Pungsan", "Hyesanjin"), "US 7th Division's route to the Yalu"),
    Line("Kilchu-Hyesanjin road", ("Kilchu", "Hyesanjin"), ""),
    Line("Chongjin-Hoeryong road", ("Chongjin", "Hoeryong"), ""),
)
