"""Breadth-first road distances (shared by board checks, engines and the template helpers)."""

from generator.core.graphs import distances


def test_distances_count_the_fewest_steps_and_leave_out_what_cannot_be_reached():
    roads = {
        "a": ["b", "c"],
        "b": ["a", "d"],
        "c": ["a", "d"],
        "d": ["b", "c", "e"],
        "e": ["d"],
        "island": [],
    }
    assert distances(roads, "a") == {"a": 0, "b": 1, "c": 1, "d": 2, "e": 3}
    assert distances(roads, "island") == {"island": 0}
