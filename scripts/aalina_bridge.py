#!/usr/bin/env python3
"""Aalina behind `ayo engine`'s protocol (docs/engine.md), so that ayo's own commands referee and
rate games against it (`ayo rate --engine "python3 scripts/aalina_bridge.py ..."`; docs/aalina.md).

Three processes: the caller on stdin/stdout, Aalina's UCI-like `service` (built by
scripts/build-aalina.sh) and a referee, `ayo engine --agent random`, whose `position`, `show` and
`legal` are ayo's oware@1 rules. The bridge keeps no rule of its own:

* a `position` is set on the referee, which gives its notation (or the `error` the bridge passes
  on); the bridge follows the game by finding, through the referee, the one move that leads from
  the position after Aalina's last move to the new one. Any other position starts a new game
  (`ucinewgame`). Aalina is then given the game's first position and every move since
  (`position fen F moves AbC...`), so that it sees repetitions as the referee does.
* on `go`, Aalina searches for --movetime ms (its own side set with EngineTurn, for its draw
  contempt); its move must be legal for the referee, else the bridge answers `error` and logs
  an `illegal` void. Aalina answering that the game is over (`bestmove 0000`) where the referee
  says it goes on is a `disputed` end, answered and logged the same way. ayo's match driver
  scores an `error` as the engine's forfeit; the log (--log) lets the caller count these games
  as void instead.

At start the bridge checks that Aalina loaded its endgame table (it offers the UseLeaves option
only then) and, with --book, its opening book, and warms the JVM with a few searches before it
answers `hello`. --check does only that and exits.
"""

import argparse
import json
import math
import os
import pathlib
import queue
import statistics
import subprocess
import sys
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
PITS = 12
SOUTH_LETTERS = "ABCDEF"
NORTH_LETTERS = "abcdef"


def fen(notation):
    """Aalina's diagram of a position in ayo's oware notation `p0 … p11 | s0 s1 | mover`.

    Both number the pits alike (South's A–F are pits 0–5, North's a–f pits 6–11, sowing
    upwards): `4 … 4 | 0 0 | 0` is `4-…-4-0-0-S`."""
    pits, stores, mover = (part.split() for part in notation.split("|"))
    if len(pits) != PITS or len(stores) != 2 or mover not in (["0"], ["1"]):
        raise ValueError(f"not an oware position: {notation!r}")
    return "-".join(pits + stores + ["S" if mover == ["0"] else "N"])


def mover_of(notation):
    """0 (South) or 1 (North): the player to move in ayo's notation."""
    return int(notation.split("|")[2])


def letter(action, mover):
    """Aalina's name of ayo's action (the mover's pit from his own left)."""
    return (SOUTH_LETTERS if mover == 0 else NORTH_LETTERS)[action]


def action(name, mover):
    """ayo's action for Aalina's move `name`, or None when it is not a pit of the mover."""
    letters = SOUTH_LETTERS if mover == 0 else NORTH_LETTERS
    return letters.index(name) if len(name) == 1 and name in letters else None


class Child:
    """A child process spoken to in lines; its lines are read by a thread into a queue."""

    def __init__(self, argv, stderr, cwd=None):
        self.argv = argv
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
                                     text=True, bufsize=1, cwd=cwd)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, *lines):
        for line in lines:
            self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, done, timeout):
        """The lines up to and including the first for which `done` is true."""
        deadline = time.monotonic() + timeout
        got = []
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise RuntimeError(f"{self.argv[0]} did not answer in {timeout:.0f} s (after {got[-3:]})")
            if line is None:
                raise RuntimeError(f"{self.argv[0]} ended (after {got[-3:]})")
            got.append(line)
            if done(line):
                return got

    def close(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()


class Referee:
    """ayo's rules through `ayo engine`: positions, their notation, status and legal moves."""

    def __init__(self, ayo, variant, stderr):
        self.child = Child([ayo, "engine", "--variant", variant, "--agent", "random"], stderr)
        self.child.send("hello")
        hello = self.child.until(lambda l: l == "hellook", 30)
        self.variant = next(l.split()[2] for l in hello if l.startswith("id variant "))

    def set(self, command):
        """Sets the position of a `position …` command: (notation, status line), or the referee's
        `error …` line as a ValueError."""
        self.child.send(command, "show")
        lines = self.child.until(lambda l: l.startswith(("tomove", "over", "error")), 30)
        if lines[-1].startswith("error"):
            # `show` still answers after the error; read it so the next command starts clean.
            self.child.until(lambda l: l.startswith(("tomove", "over")), 30)
            raise ValueError(lines[-1])
        notation = next(l[len("notation "):] for l in lines if l.startswith("notation "))
        return notation, lines[-1]

    def legal(self):
        """The legal actions of the position last set."""
        self.child.send("legal")
        line = self.child.until(lambda l: l.startswith("legal"), 30)[-1]
        return [int(a) for a in line.split()[1:]]

    def after(self, notation, a):
        return self.set(f"position notation {notation} moves {a}")[0]


class Aalina:
    """Aalina's `service`: one search thread (its negamax), no pondering, its endgame table."""

    def __init__(self, folder, book, java_opts, stderr):
        jar = pathlib.Path(folder) / "aalina.jar"
        if not jar.is_file():
            raise RuntimeError(f"{jar} is missing: build it with scripts/build-aalina.sh {folder}")
        self.child = Child(["java", *java_opts, "-jar", str(jar), "service"], stderr, cwd=str(jar.parent))
        self.child.send("uci")
        options = {l.split()[2] for l in self.child.until(lambda l: l == "uciok", 120) if l.startswith("option name ")}
        if "UseLeaves" not in options:
            raise RuntimeError(f"Aalina did not load its endgame table ({jar.parent / 'oware-leaves.bin'})")
        if book and "OwnBook" not in options:
            raise RuntimeError(f"Aalina did not load its opening book ({jar.parent / 'oware-roots.bin'})")
        self.book = book
        self.option("UseLeaves", "true")
        self.ready()

    def option(self, name, value):
        self.child.send(f"setoption name {name} value {value}")

    def ready(self):
        self.child.send("isready")
        self.child.until(lambda l: l == "readyok", 60)

    def warm_up(self, total_ms):
        """Searches a few positions (no book) so that the JIT has compiled the search."""
        self.option("OwnBook", "false")
        for moves in ("", "FbA", "CfDeAb")[: max(1, total_ms // 1000)]:
            self.search("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", moves, 0 if len(moves) % 2 == 0 else 1,
                        min(1000, total_ms))
        self.new_game()

    def new_game(self):
        self.child.send("ucinewgame")
        self.option("OwnBook", "true" if self.book else "false")
        self.ready()

    def search(self, first, moves, mover, movetime):
        """Aalina's move (its name, e.g. `D`, or `0000`) and its last `info` line."""
        self.option("EngineTurn", "south" if mover == 0 else "north")
        self.child.send(f"position fen {first}" + (f" moves {moves}" if moves else ""), f"go movetime {movetime}")
        lines = self.child.until(lambda l: l.startswith("bestmove"), 60 + movetime / 1000)
        info = next((l for l in reversed(lines) if l.startswith("info")), "")
        return lines[-1].split()[1], info


class Game:
    """A game as Aalina is told it: its first position (Aalina's diagram), the moves since (her
    letters), and the position after the last of them (ayo's notation)."""

    def __init__(self, first, moves, last):
        self.first, self.moves, self.last = first, moves, last

    def then(self, move, last):
        """The game one move on (a new one: two games of a pair may pass through the same
        position and go on differently)."""
        return Game(self.first, self.moves + move, last)


class Bridge:
    # ayo's match driver plays the two games of a pair at once, so positions of two games come
    # in turn: the bridge follows each from the most recent positions it has seen.
    GAMES = 8

    def __init__(self, args, log, stderr):
        self.args = args
        self.log = log
        self.referee = Referee(args.ayo, args.variant, stderr)
        self.aalina = Aalina(args.aalina, args.book, args.java_opt, stderr)
        self.aalina.warm_up(args.warmup_ms)
        self.games = []
        self.game = None
        self.status = None
        self.position = None

    def note(self, event, **fields):
        if self.log:
            self.log.write(json.dumps({"event": event, "time": time.time(), **fields}) + "\n")
            self.log.flush()

    def follow(self, notation):
        """The game that `notation` continues: one whose last position it is, or one from whose
        last position a single move leads to it; else a new game that starts there."""
        for game in self.games:
            if game.last == notation:
                return game
        for game in self.games:
            mover = mover_of(game.last)
            self.referee.set(f"position notation {game.last}")
            for a in self.referee.legal():
                if self.referee.after(game.last, a) == notation:
                    return self.remember(game.then(letter(a, mover), notation))
        self.aalina.new_game()
        return self.remember(Game(fen(notation), "", notation))

    def remember(self, game):
        self.games = [game] + self.games[: self.GAMES - 1]
        return game

    def set_position(self, line):
        notation, status = self.referee.set(line)
        self.position, self.status = notation, status
        self.game = self.follow(notation) if status.startswith("tomove") else None

    def go(self, words):
        if self.position is None:
            self.set_position("position startpos")
        if self.game is None:
            return ["error the game is over; no move to choose", self.status]
        if "infinite" in words or "ponder" in words:
            return ["error the bridge plays at a fixed time per move: go, go nodes <n> or go movetime <ms>"]
        movetime = self.args.movetime
        if "movetime" in words and words.index("movetime") + 1 < len(words):
            movetime = int(words[words.index("movetime") + 1])
        game, mover = self.game, mover_of(self.position)
        started = time.monotonic()
        name, info = self.aalina.search(game.first, game.moves, mover, movetime)
        ms = round(1000 * (time.monotonic() - started))
        if name == "0000":
            self.note("disputed", position=self.position, first=game.first, moves=game.moves, info=info)
            return [f"error disputed end: Aalina says the game is over in {self.position}, the referee does not"]
        self.referee.set(f"position notation {self.position}")
        a = action(name, mover)
        if a is None or a not in self.referee.legal():
            self.note("illegal", position=self.position, first=game.first, moves=game.moves, move=name, info=info)
            return [f"error illegal move: Aalina played {name} in {self.position}"]
        self.note("move", position=self.position, plies=len(game.moves), move=name, ms=ms, info=info)
        self.remember(game.then(name, self.referee.after(self.position, a)))
        self.referee.set(f"position notation {self.position}")
        return [f"info value none simulations 0 time {ms} tbhits 0 name {name} pv {a}", f"bestmove {a}"]

    def answer(self, line):
        words = line.split()
        if not words:
            return []
        command = words[0]
        if command == "hello":
            book = "book" if self.args.book else "no book"
            return ["id name aalina-bridge", f"id agent aalina@{self.args.movetime}ms ({book}, endgame table)",
                    f"id variant {self.referee.variant}", "id actions 6", "hellook"]
        if command == "isready":
            self.aalina.ready()
            return ["readyok"]
        if command == "newgame":
            line = "position startpos"
            command = "position"
        if command == "position":
            try:
                self.set_position(line)
            except ValueError as e:
                return [str(e)]
            return []
        if command == "go":
            return self.go(words)
        if command in ("legal", "show"):
            self.referee.set(f"position notation {self.position}" if self.position else "position startpos")
            self.referee.child.send(command)
            last = ("legal",) if command == "legal" else ("tomove", "over")
            return self.referee.child.until(lambda l: l.startswith(last), 30)
        if command == "stop":
            return []
        return [f"error unknown command {command!r}: hello, isready, newgame, position, legal, show, go, stop, quit"]

    def serve(self):
        for line in sys.stdin:
            line = line.strip()
            if line == "quit":
                break
            try:
                answer = self.answer(line)
            except RuntimeError as e:
                # Aalina or the referee died or hung: say so and end; the caller starts us again.
                self.note("failed", reason=str(e), line=line)
                print(f"error aalina-bridge: {e}", flush=True)
                sys.exit(1)
            for out in answer:
                print(out, flush=True)

    def close(self):
        self.aalina.child.close()
        self.referee.child.close()


def summary(rating, events, records):
    """The match from the ayo agent's side, as text: `rating` is `ayo rate`'s rating.json (Aalina,
    behind the bridge, rated against the agent as a one-rung ladder at Elo 0), `events` the
    bridge's log (dicts), `records` the games' records (dicts). The agent is the seat that is not
    the rated side's (Aalina at the match's --movetime, herself on both seats in the ceiling)."""
    opponent = rating["agent"]
    r = rating["rating"]
    (rung,) = r["rungs"]
    agent = rating["rungs"][rung["rung"]]
    wdl = rung["wdl"]
    w, d, l = wdl["losses"], wdl["draws"], wdl["wins"]
    games = w + d + l
    pairs = list(reversed(rung["pentanomial"]["counts"]))
    kinds = {k: sum(e.get("event") == k for e in events) for k in ("illegal", "disputed", "failed")}
    moves = [e["ms"] for e in events if e.get("event") == "move"]
    lines = [
        f"{agent} against {rating['agent']}, {games} games ({games // 2} seat-swapped pairs) refereed by "
        f"ayo's {rating['variant']}:",
        f"  W-D-L {w}-{d}-{l}, score {100 * (w + d / 2) / max(games, 1):.1f} %, "
        f"Elo {-r['elo']:+.0f} [{-r['high']:+.0f}, {-r['low']:+.0f}] (95 %, from the pairs), "
        f"pairs (0-½-1-1½-2 points) {'-'.join(map(str, pairs))}",
        f"  voids: {sum(kinds.values())} (illegal move {kinds['illegal']}, disputed end {kinds['disputed']}, "
        f"bridge failure {kinds['failed']}); forfeits scored by ayo rate: {rating['forfeits']}",
    ]
    forfeited = forfeits(records)
    if forfeited:
        kept = [g for g in records if not is_forfeit(g)]
        ws = [r for r in (agent_return(g, opponent) for g in kept) if r is not None]
        lines.append(f"  ayo rate scored the {len(forfeited)} voided game(s) as Aalina's losses; without them "
                     f"W-D-L {sum(x > 0 for x in ws)}-{sum(x == 0 for x in ws)}-{sum(x < 0 for x in ws)} "
                     f"(the Elo above still counts them)")
    if games:
        plies = [len(g["actions"]) for g in records if "actions" in g]
        length = f", {sum(plies) / len(plies):.0f} plies per game after the opening" if plies else ""
        lines.append(f"  time: {rating['seconds']:.0f} s, {2 * rating['seconds'] / games:.1f} s per pair (its two "
                     f"games played at once){length}; Aalina {sum(moves) / max(len(moves), 1) / 1000:.2f} s per move "
                     f"({len(moves)} moves)")
        by_result = lengths(records, opponent)
        if by_result:
            lines.append("  plies after the opening, the agent's " + ", ".join(
                f"{name} {len(p)} (median {statistics.median(p):.0f}, {sum(x > 150 for x in p)} past 150)"
                for name, p in by_result.items() if p))
        decided = proofs(events, records, opponent)
        if decided:
            lines.append("  Aalina's search announced the result (score ±2500), plies after the opening and seeds "
                         "on the board then: " + ", ".join(
                             f"in {len(p)} of the agent's {n} {name} games" + (
                                 f" (median ply {statistics.median(x for x, _ in p):.0f}, "
                                 f"{statistics.median(s for _, s in p):.0f} seeds)" if p else "")
                             for name, (n, p) in decided.items() if n))
    return "\n".join(lines)


# Aalina's `info … score cp S`: S is 2.5 times her internal score, whose ±1000 is a result her search
# proved (a repetition she expects to win scores 990, shown 2475).
PROVEN_CP = 2500


def proofs(events, records, opponent=None):
    """Where Aalina's search announced a proven result in the agent's lost and won games: for each,
    the number of such games and `(ply, seeds on the board)` where her score first read her win
    (a lost game) or her loss (a won one); empty where she announced none (or no log was kept).
    Her moves are found in the records by their position and ply; a position two games share at
    the same ply (the openings of a pair) is skipped."""
    where = {}
    for k, g in enumerate(records):
        if agent_return(g, opponent) is None or "movers" not in g:
            continue
        positions = [g["start"]] + [
            " ".join(map(str, b["pits"])) + f" | {b['stores'][0]} {b['stores'][1]} | {0 if m == 'South' else 1}"
            for b, m in zip(g["boards"], g["movers"][1:])]
        for ply, position in enumerate(positions):
            where.setdefault((position, ply), []).append(k)
    first = {}
    for e in events:
        if e.get("event") != "move" or "score cp" not in e.get("info", ""):
            continue
        games = where.get((e.get("position"), e.get("plies")), [])
        if len(games) == 1:
            cp = int(e["info"].split("score cp")[1].split()[0])
            seeds = sum(map(int, e["position"].split("|")[0].split()))
            if abs(cp) >= PROVEN_CP and games[0] not in first:
                first[games[0]] = (e["plies"], seeds, cp > 0)
    out = {"lost": (0, []), "won": (0, [])}
    for k, g in enumerate(records):
        r = agent_return(g, opponent)
        name = None if r is None else result_name(r)
        if name in out:
            n, announced = out[name]
            hit = first.get(k)
            if hit and hit[2] == (name == "lost"):
                announced.append(hit[:2])
            out[name] = (n + 1, announced)
    return out if any(p for _, p in out.values()) else {}


def result_name(r):
    """The agent's return `r` as the name of its result: won, drawn or lost."""
    return "won" if r > 0 else "lost" if r < 0 else "drawn"


def lengths(records, opponent=None):
    """The lengths (plies after the opening) of the agent's won, drawn and lost games among
    `records` (where they were decided: `proofs`)."""
    out = {"won": [], "drawn": [], "lost": []}
    for g in records:
        r = agent_return(g, opponent)
        if r is None or "actions" not in g:
            continue
        out[result_name(r)].append(len(g["actions"]))
    return out if any(out.values()) else {}


def print_summary(folder, ayo):
    """The summary of the match in `folder`; a match stopped before its last pair (no rating.json:
    `ayo rate` rates only whole matches) is rated from the records of its finished pairs by
    `ayo tournament --records` (the `ayo` binary `ayo`), anchored on Aalina, into folder/stopped."""
    folder = pathlib.Path(folder)
    events = []
    if (folder / "bridge.jsonl").exists():
        for line in (folder / "bridge.jsonl").read_text().splitlines():
            try:
                events.append(json.loads(line))
            except json.JSONDecodeError:
                pass
    records = [g for _, g in read_records(folder)]
    if (folder / "games" / "rating.json").exists():
        rating = json.loads((folder / "games" / "rating.json").read_text())
    else:
        aalina = next((s for g in records for s in g.get("seats", []) if is_aalina(s)), None)
        if aalina is None:
            raise ValueError(f"{folder} holds no game against Aalina (games/pair-*.json): not a match folder")
        subprocess.run([ayo, "tournament", "--records", str(folder / "games"), "--anchor", aalina,
                        "--out", str(folder / "stopped")], check=True, stdout=subprocess.DEVNULL)
        tournament = json.loads((folder / "stopped" / "tournament.json").read_text())
        rating = stopped_rating(tournament, aalina, records, events)
        print(f"stopped after {tournament['pairs']} whole pairs (no rating.json): rated by ayo tournament "
              f"--records into {folder / 'stopped'}")
    print(summary(rating, events, records))


def stopped_rating(tournament, aalina, records, events):
    """`ayo tournament --records`'s tournament.json of a stopped match in the shape of `ayo rate`'s
    rating.json that `summary` reads (Aalina against the agent at Elo 0): her results, her Elo as
    minus the agent's, the forfeits from the records, the time from the first to the last move
    logged."""
    (agent,) = [r for r in tournament["ratings"] if r["name"] != aalina]
    (hers,) = [c for c in tournament["crosstable"] if c["player"] == aalina]
    wdl = {k: hers["as_south"][k] + hers["as_north"][k] for k in ("wins", "draws", "losses")}
    times = [e["time"] for e in events if "time" in e]
    return {"agent": aalina, "variant": tournament["variant"], "rungs": [agent["name"]],
            "forfeits": len(forfeits(records)),
            "seconds": max(times) - min(times) if times else 0.0,
            "rating": {"elo": -agent["elo"], "low": -agent["high"], "high": -agent["low"],
                       "rungs": [{"rung": 0, "pentanomial": {"counts": hers["pentanomial"]}, "wdl": wdl}]}}


def is_aalina(seat):
    """Whether a record's seat is Aalina's: the bridge names her `engine:aalina@…`."""
    return seat.startswith("engine:aalina")


def is_forfeit(g):
    """Whether `ayo rate` scored the game record `g` as a forfeit."""
    return (g.get("outcome") or {}).get("forfeit") is not None


def forfeits(records):
    """The games among `records` that `ayo rate` scored as a forfeit."""
    return [g for g in records if is_forfeit(g)]


def agent_return(g, opponent=None):
    """The agent's return (1, 0 or -1) in the game record `g`: the seat that is not Aalina's, or
    not `opponent`'s where it is named (a match of Aalina against herself, the ceiling); None for
    a record without her, or with her on both seats and no `opponent`."""
    seats = [k for k, seat in enumerate(g.get("seats", []))
             if (seat != opponent if opponent else not is_aalina(seat))]
    return g["outcome"]["returns"][seats[0]] if len(seats) == 1 else None


def pair_games(records, opponent=None):
    """The agent's return (1, 0 or -1) in games a and b of each whole pair of `records` (against
    `opponent`, where named: `agent_return`), and the pair's opening (`start`), by pair number:
    `ayo rate` names a pair's games `pair-NNNNN-a.json` and `-b.json`, and its openings are drawn
    from the seed, so pair k of two matches of the same `--seed` starts from the same opening."""
    games = {}
    for name, g in records:
        r = agent_return(g, opponent)
        if r is not None:
            _, k, side = name.split("-")
            games.setdefault(k, {"start": g.get("start", "")})[side[0]] = int(r)
    return {k: p for k, p in games.items() if "a" in p and "b" in p}


def points(games):
    """The agent's points (0 to 2) in each pair of `pair_games`."""
    return {k: (p["a"] + 1) / 2 + (p["b"] + 1) / 2 for k, p in games.items()}


def digest(games):
    """A match's `pair_games` as CSV text, small enough to commit where the match's folder is not
    (experiments/studies/vs-aalina/): one row per pair, its number, its opening and the agent's
    return in its games a and b. `read_match` reads it back as it reads a folder."""
    rows = [f"{k},{p['start']},{p['a']},{p['b']}" for k, p in sorted(games.items())]
    return "\n".join(["pair,start,a,b", *rows]) + "\n"


def read_match(path):
    """The `pair_games` of a match: a folder that scripts/vs-aalina.sh left, or its `digest` (a
    .csv file)."""
    path = pathlib.Path(path)
    if path.is_dir():
        records = read_records(path)
        if not records:
            raise ValueError(f"{path} holds no games (games/pair-*.json): not a match folder")
        # A whole match names the side `ayo rate` rated, Aalina at the match's --movetime.
        rating = path / "games" / "rating.json"
        opponent = json.loads(rating.read_text())["agent"] if rating.exists() else None
        return pair_games(records, opponent)
    if not path.is_file():
        raise ValueError(f"{path} is neither a match folder nor a digest (.csv) file")
    lines = path.read_text().splitlines()
    if lines[:1] != ["pair,start,a,b"]:
        raise ValueError(f"{path} is not a digest: its first line is not pair,start,a,b")
    games = {}
    for n, line in enumerate(lines[1:], 2):
        fields = line.split(",")
        if len(fields) != 4 or not {fields[2], fields[3]} <= {"1", "0", "-1"}:
            raise ValueError(f"{path} line {n}: {line!r} is not pair,start,a,b with returns 1, 0 or -1")
        k, start, a, b = fields
        games[k] = {"start": start, "a": int(a), "b": int(b)}
    return games


def same_openings(a, b):
    """Fails where a pair both matches (`pair_games`) played started from different positions
    (matches of different --seed, or of different opening rules), naming the first such pair."""
    for k in sorted(set(a) & set(b)):
        if a[k]["start"] != b[k]["start"]:
            raise ValueError(f"pair {k} starts from {a[k]['start']!r} in one match and {b[k]['start']!r} "
                             f"in the other: compare only matches of the same --seed")


def compare(a, b):
    """Match `a` against match `b` pair by pair over the pairs both played (the same openings
    where both used the same `--seed`): the mean difference of the agent's points a game, with
    its 95 % interval (± 1.96 standard errors of the pairs' differences)."""
    common = sorted(set(a) & set(b))
    if len(common) < 2:
        raise ValueError(f"the matches share {len(common)} whole pairs; at least 2 are needed")
    d = [a[k] - b[k] for k in common]
    mean = statistics.mean(d) / 2
    half = 1.96 * statistics.stdev(d) / math.sqrt(len(d)) / 2
    return (f"{len(d)} pairs, the same openings: {100 * mean:+.1f} % a game [{100 * (mean - half):+.1f}, "
            f"{100 * (mean + half):+.1f}] (95 %); pairs better {sum(x > 0 for x in d)}, the same "
            f"{sum(x == 0 for x in d)}, worse {sum(x < 0 for x in d)}")


def pooled_points(matches):
    """The pairs of several matches as one: pair k of the i-th match keyed `i:k`, so that
    `compare` pairs it with pair k of the other side's i-th match (the same `--seed`)."""
    return {f"{i}:{k}": v for i, points in enumerate(matches) for k, v in points.items()}


def read_records(folder):
    """The games of a match folder, `(file name, record)` in pair order."""
    return [(p.name, json.loads(p.read_text())) for p in sorted((pathlib.Path(folder) / "games").glob("pair-*.json"))]


def main():
    if sys.argv[1:2] == ["summary"] and len(sys.argv) == 3:
        try:
            return print_summary(sys.argv[2], os.environ.get("AYO", str(ROOT / "target/release/ayo")))
        except (ValueError, OSError, subprocess.CalledProcessError) as e:
            sys.exit(f"aalina-bridge summary: {e}")
    if sys.argv[1:2] == ["digest"] and len(sys.argv) == 3:
        try:
            return print(digest(read_match(sys.argv[2])), end="")
        except ValueError as e:
            sys.exit(f"aalina-bridge digest: {e}")
    if sys.argv[1:2] == ["compare"] and len(sys.argv) == 4:
        try:
            a, b = (sys.argv[i].split(",") for i in (2, 3))
            if len(a) != len(b):
                raise ValueError(f"{len(a)} match(es) against {len(b)}: list as many on each side, "
                                 f"the k-th of each played with the same --seed")
            a, b = ([read_match(d) for d in side] for side in (a, b))
            for ga, gb in zip(a, b):
                same_openings(ga, gb)
            a, b = (pooled_points([points(g) for g in side]) for side in (a, b))
            return print(f"{sys.argv[2]} against {sys.argv[3]}: {compare(a, b)}")
        except ValueError as e:
            sys.exit(f"aalina-bridge compare: {e}")
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                epilog="`aalina_bridge.py summary DIR` prints the match that "
                                       "scripts/vs-aalina.sh left in DIR (a stopped one rated by $AYO tournament "
                                       "--records); `aalina_bridge.py compare A B` "
                                       "compares two matches pair by pair (the same --seed: the same openings); A and B may each "
                                       "list several folders, comma-separated, the k-th of each of the same --seed. "
                                       "`aalina_bridge.py digest DIR > F.csv` writes a match's per-pair results, "
                                       "which compare reads in place of its folder.")
    p.add_argument("--aalina", default=os.environ.get("AALINA_DIR", str(pathlib.Path.home() / ".cache/ayo/aalina")),
                   help="the folder scripts/build-aalina.sh built (default $AALINA_DIR or ~/.cache/ayo/aalina)")
    p.add_argument("--movetime", type=int, default=500, help="Aalina's time per move in ms (default 500)")
    p.add_argument("--book", action="store_true", help="let Aalina play from its opening book (default: off)")
    p.add_argument("--ayo", default=os.environ.get("AYO", str(ROOT / "target/release/ayo")),
                   help="the ayo binary, whose `engine` is the referee (default $AYO or target/release/ayo)")
    p.add_argument("--variant", default="oware")
    p.add_argument("--warmup-ms", type=int, default=3000, help="JVM warm-up: searches of 1 s up to this total")
    p.add_argument("--java-opt", action="append", default=None,
                   help="an option for java (repeatable; default -XX:+UseSerialGC -XX:ActiveProcessorCount=1)")
    p.add_argument("--log", help="append the bridge's events to this file (JSON lines: move, illegal, disputed, "
                                 "failed), and Aalina's and the referee's stderr to LOG.err")
    p.add_argument("--check", action="store_true", help="start, check the tables, warm up, and exit")
    args = p.parse_args()
    if args.java_opt is None:
        args.java_opt = ["-XX:+UseSerialGC", "-XX:ActiveProcessorCount=1"]
    log = open(args.log, "a") if args.log else None
    stderr = open(args.log + ".err", "a") if args.log else subprocess.DEVNULL
    try:
        bridge = Bridge(args, log, stderr)
    except (RuntimeError, OSError) as e:
        print(f"aalina-bridge: {e}", file=sys.stderr)
        if log:
            log.write(json.dumps({"event": "failed", "reason": str(e)}) + "\n")
        sys.exit(1)
    if args.check:
        print(f"Aalina ready: {args.aalina}, {args.movetime} ms per move, book {'on' if args.book else 'off'}, "
              f"endgame table loaded; referee {args.ayo} ({bridge.referee.variant})")
    else:
        bridge.serve()
    bridge.close()


if __name__ == "__main__":
    main()
