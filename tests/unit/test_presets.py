"""The lab's built-in maps: their shapes, markers, and that each can be searched end to end."""

import arcstar
from arcstar.maps import to_ascii
from arcstar.maps.presets import LESTER_ROWS, lester, serpentine, walled_room


def test_lester_is_his_worked_example():
    loaded = lester()
    assert to_ascii(loaded.map, loaded.start, loaded.goal).split() == list(LESTER_ROWS)
    assert (loaded.start, loaded.goal) == ((1, 2), (5, 2))


def test_walled_room_has_a_border_and_an_open_inside():
    loaded = walled_room(9, 6)
    rows = to_ascii(loaded.map).split()
    assert rows[0] == rows[-1] == "#" * 9
    assert all(r[0] == r[-1] == "#" and set(r[1:-1]) == {"."} for r in rows[1:-1])
    assert (loaded.start, loaded.goal) == ((2, 2), (6, 3))


def test_serpentine_path_zigzags_through_every_gap():
    loaded = serpentine(size=40, spacing=8)
    rows = to_ascii(loaded.map).split()
    assert rows[8] == "#" * 37 + "..." and rows[16] == "..." + "#" * 37
    result = arcstar.plan(loaded.map, loaded.start, loaded.goal)
    assert result.status == "found"
    assert result.length > 4 * 36  # crosses the map once per lane


def test_every_preset_plans():
    for loaded in (lester(), walled_room(64, 48), serpentine(64, 8)):
        assert arcstar.plan(loaded.map, loaded.start, loaded.goal).status == "found"
