"""Write `flats.csv`: 500 generated flats for sale, a structured table with a 0/1 label.

Every value comes from a seeded NumPy generator (PCG64, seed 19): no outside data.
Columns: `area` (m², one decimal), `year_built` (integer), `rooms` (1..5),
`heating` (one of four words), `neighbourhood` (one of 24 made-up names) and the
label `sold_fast` (1 when the flat sold within 30 days). The label is drawn from a
logistic model: small flats, heat pumps, new buildings and some neighbourhoods sell
faster, and a heat pump in a building from before 1950 sells slower (an
interaction that only a crossed feature can express). Run from the repository root:

    python minitf/keras/datasets/data/make_flats_csv.py

Same bytes on every run; tests/widgets/test_widget_structured_data.py checks the
file's SHA-256 and that this script writes it again. Lesson 19 uses it.
"""
import csv
import os

import numpy as np

NUM_FLATS = 500
SEED = 19
HEATING = ["gas", "electric", "heat_pump", "district"]
FIRST = ["Alder", "Birch", "Cedar", "Dune", "Elm", "Fern", "Gorse", "Heath"]
SECOND = ["Park", "Quay", "Hill"]
NEIGHBOURHOODS = [f"{a} {b}" for a in FIRST for b in SECOND]


def _columns(rng):
    area = np.round(np.clip(rng.lognormal(np.log(62), 0.35, NUM_FLATS), 22, 160), 1)
    year = rng.integers(1890, 2023, NUM_FLATS)
    rooms = np.clip(np.round(area / 24 + rng.normal(0, 0.6, NUM_FLATS)), 1, 5).astype(int)
    heating = rng.choice(HEATING, NUM_FLATS, p=[0.4, 0.2, 0.2, 0.2])
    place = rng.integers(0, len(NEIGHBOURHOODS), NUM_FLATS)
    return area, year, rooms, heating, place


def _label(rng, area, year, heating, place):
    appeal = rng.normal(0, 1.0, len(NEIGHBOURHOODS))  # each neighbourhood's own pull
    heat = {"gas": 0.0, "electric": -0.8, "heat_pump": 1.2, "district": 0.3}
    logit = (0.2 - 0.03 * (area - 62) + np.array([heat[h] for h in heating]) + appeal[place]
             + np.where(year >= 1990, 0.8, 0.0) + np.where((year >= 1950) & (year < 1980), -0.6, 0.0)
             + np.where((heating == "heat_pump") & (year < 1950), -3.0, 0.0))
    return (rng.random(len(area)) < 1 / (1 + np.exp(-logit))).astype(int)


def main(path=os.path.join(os.path.dirname(os.path.abspath(__file__)), "flats.csv")):
    from minitf.framework.atomic_file import atomic_write

    rng = np.random.default_rng(SEED)
    area, year, rooms, heating, place = _columns(rng)
    label = _label(rng, area, year, heating, place)
    with atomic_write(path) as tmp:
        with open(tmp, "w", encoding="utf-8", newline="") as f:
            writer = csv.writer(f, lineterminator="\n")
            writer.writerow(["area", "year_built", "rooms", "heating", "neighbourhood",
                             "sold_fast"])
            for row in zip(area, year, rooms, heating, place, label):
                writer.writerow([f"{row[0]:.1f}", int(row[1]), int(row[2]), str(row[3]),
                                 NEIGHBOURHOODS[row[4]], int(row[5])])


if __name__ == "__main__":
    main()
