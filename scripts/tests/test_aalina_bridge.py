"""scripts/aalina_bridge.py's pure parts, without Aalina: ayo's oware notation as Aalina's
diagram, moves named both ways, and the match summary from the agent's side (W-D-L, score, Elo
and pairs turned round from `ayo rate`'s view of Aalina, voids counted from the bridge's log)."""

import json

import pytest

import aalina_bridge as bridge

START = "4 4 4 4 4 4 4 4 4 4 4 4 | 0 0 | 0"


def test_notation_becomes_aalinas_diagram():
    assert bridge.fen(START) == "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"
    assert bridge.fen("4 4 4 4 4 0 0 6 6 6 5 5 | 0 0 | 1") == "4-4-4-4-4-0-0-6-6-6-5-5-0-0-N"
    with pytest.raises(ValueError):
        bridge.fen("4 4 4 | 0 0 | 0")


def test_moves_are_the_movers_pits_from_his_left():
    assert bridge.mover_of(START) == 0
    assert [bridge.letter(a, 0) for a in range(6)] == list("ABCDEF")
    assert [bridge.letter(a, 1) for a in range(6)] == list("abcdef")
    assert all(bridge.action(bridge.letter(a, m), m) == a for a in range(6) for m in (0, 1))
    # Another player's pit, the null move and nonsense are no action of the mover.
    assert bridge.action("a", 0) is None and bridge.action("A", 1) is None
    assert bridge.action("0000", 0) is None and bridge.action("", 0) is None


def rating(wins, draws, losses, counts, forfeits=0):
    """`ayo rate`'s rating.json for Aalina against the one rung `net@500ms` at Elo 0."""
    return {"agent": "engine:aalina@500ms (no book, endgame table)", "variant": "oware@1", "seconds": 600.0,
            "forfeits": forfeits, "rungs": ["net@500ms"],
            "rating": {"elo": 120.0, "low": 40.0, "high": 200.0, "games": wins + draws + losses,
                       "rungs": [{"rung": 0, "pentanomial": {"counts": counts},
                                  "wdl": {"wins": wins, "draws": draws, "losses": losses}}]}}


def test_summary_is_the_agents_side():
    events = [{"event": "move", "ms": 500}, {"event": "move", "ms": 520}]
    text = bridge.summary(rating(9, 4, 3, [1, 0, 3, 2, 2]), events, [])
    assert "net@500ms against engine:aalina@500ms" in text
    assert "W-D-L 3-4-9" in text and "score 31.2 %" in text
    assert "Elo -120 [-200, -40]" in text
    assert "pairs (0-½-1-1½-2 points) 2-2-3-0-1" in text
    assert "voids: 0" in text and "75.0 s per pair" in text and "Aalina 0.51 s per move (2 moves)" in text


def test_voids_are_counted_and_taken_out_of_the_wdl():
    events = [{"event": "illegal"}, {"event": "disputed"}, {"event": "move", "ms": 500}]
    seats = ["engine:aalina@500ms (no book, endgame table)", "net@500ms"]
    records = [{"seats": seats, "actions": [0] * 30, "outcome": {"returns": [-1.0, 1.0], "forfeit": "South"}},
               {"seats": seats[::-1], "actions": [0] * 50, "outcome": {"returns": [0.0, 0.0]}}]
    text = bridge.summary(rating(0, 1, 1, [0, 1, 0, 0, 0], forfeits=1), events, records)
    assert "voids: 2 (illegal move 1, disputed end 1, bridge failure 0); forfeits scored by ayo rate: 1" in text
    assert "without them W-D-L 0-1-0" in text and "40 plies per game" in text


def test_summary_tells_how_long_each_results_games_ran():
    seats = ["engine:aalina@500ms (no book, endgame table)", "net@500ms"]
    won, lost = [-1.0, 1.0], [1.0, -1.0]
    records = [{"seats": seats, "actions": [0] * n, "outcome": {"returns": r}}
               for n, r in [(80, won), (90, won), (100, won), (200, lost), (160, lost)]]
    records.append({"seats": seats[::-1], "actions": [0] * 120, "outcome": {"returns": [0.0, 0.0]}})
    text = bridge.summary(rating(2, 1, 3, [0, 1, 1, 1, 0]), [], records)
    assert ("plies after the opening, the agent's won 3 (median 90, 0 past 150), drawn 1 (median 120, "
            "0 past 150), lost 2 (median 180, 2 past 150)") in text
    # Aalina against herself (the ceiling): the agent is the seat the rating does not name.
    hers, agent = seats[0], "engine:aalina@3000ms (no book, endgame table)"
    for g in records:
        g["seats"] = [agent if seat == "net@500ms" else seat for seat in g["seats"]]
    text = bridge.summary(rating(2, 1, 3, [0, 1, 1, 1, 0]), [], records)
    assert text.startswith(f"net@500ms against {hers}")
    assert "the agent's won 3 (median 90, 0 past 150)" in text


def test_two_matches_are_compared_pair_by_pair():
    seats = ["engine:aalina@500ms (no book, endgame table)", "net@1s"]

    def match(points):
        """Records of pairs whose two games give the agent `points` (0, 1 or 2) each."""
        out = []
        for k, p in enumerate(points, 1):
            for side, won in zip("ab", [p >= 1, p == 2]):
                r = 1.0 if won else -1.0
                out.append((f"pair-{k:05d}-{side}.json", {"seats": seats, "outcome": {"returns": [-r, r]}}))
        return out

    a = bridge.points(bridge.pair_games(match([2, 2, 1, 0, 2])))
    b = bridge.points(bridge.pair_games(match([1, 2, 1, 0])))
    assert a == {"00001": 2, "00002": 2, "00003": 1, "00004": 0, "00005": 2}
    # Four pairs in common, differences 1, 0, 0, 0: mean 0.25 points a pair, 12.5 % a game;
    # standard deviation 0.5, so the half-width is 1.96 * 0.5 / 2 / 2 = 24.5 %.
    assert bridge.compare(a, b) == ("4 pairs, the same openings: +12.5 % a game [-12.0, +37.0] (95 %); "
                                    "pairs better 1, the same 3, worse 0")
    with pytest.raises(ValueError, match="share 1 whole pairs"):
        bridge.compare(a, {"00001": 2})
    # Matches of two seeds pooled: pair 1 of the first seed meets only pair 1 of the first seed.
    pooled_a = bridge.pooled_points([a, bridge.points(bridge.pair_games(match([0, 2])))])
    pooled_b = bridge.pooled_points([b, bridge.points(bridge.pair_games(match([2, 2])))])
    assert pooled_a["1:00001"] == 0 and pooled_b["1:00001"] == 2
    # Six pairs in common, differences 1, 0, 0, 0, -2, 0.
    assert bridge.compare(pooled_a, pooled_b).startswith("6 pairs, the same openings: -8.3 % a game")


def test_a_digest_is_read_back_as_its_match(tmp_path):
    seats = ["engine:aalina@500ms (no book, endgame table)", "net@1s"]
    records = []
    for k, (opening, returns) in enumerate([("1 2 | 0 0 | 0", (1, -1)), ("3 4 | 0 0 | 1", (0, 1)),
                                             ("5 6 | 0 0 | 0", (-1, -1))], 1):
        for side, r, order in zip("ab", returns, [seats, seats[::-1]]):
            mine = order.index("net@1s")
            records.append((f"pair-{k:05d}-{side}.json",
                            {"seats": order, "start": opening,
                             "outcome": {"returns": [float(r) if s == mine else float(-r) for s in range(2)]}}))
    records.append(("pair-00004-a.json", {"seats": seats, "start": "7 8 | 0 0 | 0", "outcome": {"returns": [0.0, 0.0]}}))
    text = bridge.digest(bridge.pair_games(records))
    # The unfinished pair 4 is left out; the agent's return is read from its seat in each game.
    assert text == "pair,start,a,b\n00001,1 2 | 0 0 | 0,1,-1\n00002,3 4 | 0 0 | 1,0,1\n00003,5 6 | 0 0 | 0,-1,-1\n"
    (tmp_path / "m.csv").write_text(text)
    games = bridge.read_match(tmp_path / "m.csv")
    assert games == bridge.pair_games(records)
    assert bridge.points(games) == {"00001": 1, "00002": 1.5, "00003": 0}
    assert games["00002"]["start"] == "3 4 | 0 0 | 1"
    other = {"00002": {"start": "3 4 | 0 0 | 1"}, "00009": {"start": "x"}}
    bridge.same_openings(games, other)
    other["00002"]["start"] = "3 4 | 0 0 | 0"
    with pytest.raises(ValueError, match="pair 00002 starts from"):
        bridge.same_openings(games, other)
    (tmp_path / "bad.csv").write_text("pair,start,a,b\n00001,1 2,1,2\n")
    with pytest.raises(ValueError, match="line 2"):
        bridge.read_match(tmp_path / "bad.csv")
    with pytest.raises(ValueError, match="neither a match folder nor a digest"):
        bridge.read_match(tmp_path / "missing.csv")


def test_summary_tells_where_aalina_announced_each_result():
    seats = ["engine:aalina@500ms (no book, endgame table)", "net@500ms"]

    def game(pits, returns):
        """A record of two moves from START, and the boards after them (`pits` of the last)."""
        boards = [{"pits": [0] + [5] * 4 + [4] * 7, "stores": [0, 0]}, {"pits": pits, "stores": [0, 0]}]
        return {"seats": seats, "start": START, "actions": [0, 0], "movers": ["South", "North"],
                "boards": boards, "outcome": {"returns": returns}}

    lost, won = game([1] * 12, [1.0, -1.0]), game([2] * 12, [-1.0, 1.0])
    after_first = "0 5 5 5 5 4 4 4 4 4 4 4 | 0 0 | 1"
    events = [
        # Both games pass START and the board after the first move: those plies say nothing.
        {"event": "move", "ms": 500, "position": START, "plies": 0, "info": "info depth 9 score cp 2500"},
        {"event": "move", "ms": 500, "position": after_first, "plies": 1, "info": "info depth 9 score cp -2500"},
    ]
    # Only two plies: the records' last boards have no mover, so these games end unannounced.
    text = bridge.summary(rating(1, 0, 1, [0, 0, 2, 0, 0]), events, [lost, won])
    assert "announced" not in text
    # A game of three moves whose third position only the lost game reaches: her win, 12 seeds.
    for g in (lost, won):
        g["actions"].append(0)
        g["movers"].append("South")
        g["boards"].append(g["boards"][-1])
    events.append({"event": "move", "ms": 500, "position": " ".join(["1"] * 12) + " | 0 0 | 0", "plies": 2,
                   "info": "info depth 21 score cp 2500 pv A"})
    text = bridge.summary(rating(1, 0, 1, [0, 0, 2, 0, 0]), events, [lost, won])
    assert ("announced the result (score ±2500), plies after the opening and seeds on the board then: in 1 of "
            "the agent's 1 lost games (median ply 2, 12 seeds), in 0 of the agent's 1 won games") in text


def test_a_stopped_match_is_summarised_from_its_tournament_rating():
    # `ayo tournament --records` of the pairs a stopped match finished, in the shape summary reads:
    # Aalina's results and minus the agent's Elo, forfeits from the records, time from the log.
    aalina = "engine:aalina@500ms (no book, endgame table)"
    tournament = {
        "variant": "oware@1", "pairs": 3,
        "ratings": [{"name": "net@3s", "elo": 150.0, "low": 60.0, "high": 260.0},
                    {"name": aalina, "elo": 0.0, "low": 0.0, "high": 0.0}],
        "crosstable": [
            {"player": aalina, "opponent": "net@3s", "pentanomial": [1, 1, 1, 0, 0],
             "as_south": {"wins": 0, "draws": 1, "losses": 2}, "as_north": {"wins": 1, "draws": 0, "losses": 2}},
            {"player": "net@3s", "opponent": aalina, "pentanomial": [0, 0, 1, 1, 1],
             "as_south": {"wins": 2, "draws": 0, "losses": 1}, "as_north": {"wins": 2, "draws": 1, "losses": 0}}]}
    seats = [aalina, "net@3s"]
    records = [{"seats": seats, "actions": [0] * 40, "outcome": {"returns": [-1.0, 1.0], "forfeit": "South"}}]
    events = [{"event": "move", "time": 100.0, "ms": 500}, {"event": "move", "time": 400.0, "ms": 500}]
    rating = bridge.stopped_rating(tournament, aalina, records, events)
    text = bridge.summary(rating, events, records)
    assert "net@3s against engine:aalina@500ms" in text and "6 games (3 seat-swapped pairs)" in text
    assert "W-D-L 4-1-1" in text and "Elo +150 [+60, +260]" in text
    assert "pairs (0-½-1-1½-2 points) 0-0-1-1-1" in text
    assert "forfeits scored by ayo rate: 1" in text and "100.0 s per pair" in text


def test_a_match_of_aalina_against_herself_is_read_from_the_rated_side(tmp_path):
    # The ceiling: Aalina at 3 s (the agent) against Aalina at 500 ms, whom `ayo rate` rated.
    hers, agent = "engine:aalina@500ms (no book, endgame table)", "engine:aalina@3000ms (no book, endgame table)"
    games = tmp_path / "games"
    games.mkdir()
    for side, order, returns in [("a", [hers, agent], [-1.0, 1.0]), ("b", [agent, hers], [0.0, 0.0])]:
        (games / f"pair-00001-{side}.json").write_text(json.dumps(
            {"seats": order, "start": "1 2 | 0 0 | 0", "outcome": {"returns": returns}}))
    # Without the rated side named, neither seat is the agent's.
    assert bridge.read_match(tmp_path) == {}
    (games / "rating.json").write_text(json.dumps({"agent": hers}))
    assert bridge.read_match(tmp_path) == {"00001": {"start": "1 2 | 0 0 | 0", "a": 1, "b": 0}}
