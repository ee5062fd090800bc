#!/usr/bin/python3
"""tools/gui/loadtest.py: a load test of klinzha-gui (issue 16): many rooms at once, of
engines watched by spectators and of scripted people playing each other, over WebSockets.

    loadtest.py --gui build/release/klinzha-gui [--engine-rooms 4] [--people-rooms 20]
                [--spectators 5] [--movetime 50] [--seconds 120]

Starts klinzha-gui on a free port with a fresh SQLite file (the limits raised to fit the
test: --max-engines, --max-rooms, --max-connections-per-address), then at once:
* engine rooms: two engines (movetime ms a move), each watched by `spectators` connections;
* people rooms: two scripted people, each a connection that sits at its colour and, when the
  state says it is to move, sends a move drawn at random from the state's `legal` list (the
  setup included), as a browser would after a click.
It runs until every game is over or `seconds` pass, sampling the server's resident memory
(/proc/PID/status VmRSS) every second. Then "nothing lost": each room is joined again by a
fresh connection, which must see the game over with as many plies as every client of that
room saw last; and the server is restarted on the same file, and each finished room must read
back with the same plies. Prints: rooms, games finished, moves played, messages received and
sent per second, peak and final memory, and the checks (exit status 1 if one fails).
Needs python3-websockets (Debian). Errors: a server that does not start raises RuntimeError.
"""
import argparse
import asyncio
import json
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import time

import websockets


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def start_server(gui, db, port, args):
    cmd = [gui, '--port', str(port), '--db', db, '--max-engines', str(2 * args.engine_rooms + 2),
           '--max-rooms', str(args.engine_rooms + args.people_rooms + 5),
           '--max-connections-per-address', '10000', '--rate', '1000', '--log-level', 'error']
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.time() + 20
    while time.time() < deadline:
        try:
            with socket.create_connection(('127.0.0.1', port), timeout=0.2):
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError('klinzha-gui did not start: ' + ' '.join(cmd))


def rss_kib(pid):
    try:
        with open(f'/proc/{pid}/status') as f:
            m = re.search(r'VmRSS:\s+(\d+) kB', f.read())
            return int(m.group(1)) if m else 0
    except OSError:
        return 0


class Stats:
    def __init__(self):
        self.received = 0
        self.sent = 0
        self.moves = 0


class Client:
    """One WebSocket connection: sends JSON, counts every message, keeps the last state."""

    def __init__(self, url, origin, stats):
        self.url, self.origin, self.stats = url, origin, stats
        self.ws = None
        self.state = None
        self.inbox = asyncio.Queue()

    async def open(self):
        self.ws = await websockets.connect(self.url, origin=self.origin, max_size=2 ** 22)
        asyncio.ensure_future(self.reader())

    async def reader(self):
        try:
            async for raw in self.ws:
                self.stats.received += 1
                msg = json.loads(raw)
                if msg.get('type') == 'state':
                    self.state = msg
                await self.inbox.put(msg)
        except websockets.ConnectionClosed:
            pass

    async def send(self, **msg):
        self.stats.sent += 1
        await self.ws.send(json.dumps(msg))

    async def wait_for(self, kind, timeout=30):
        deadline = time.time() + timeout
        while True:
            msg = await asyncio.wait_for(self.inbox.get(), max(0.01, deadline - time.time()))
            if msg.get('type') == kind:
                return msg
            if msg.get('type') == 'error' and kind != 'error':
                raise RuntimeError('server error: ' + msg.get('message', ''))


async def person(client, rng, done):
    """Plays whenever the state says this connection is to move, until the game is over."""
    last_ply = -1
    while not done.is_set():
        msg = await client.inbox.get()
        if msg.get('type') != 'state':
            continue
        st = msg
        if st['status'] == 'over':
            return
        if st['legal'] and st['ply'] != last_ply:
            last_ply = st['ply']
            await client.send(type='move', move=rng.choice(st['legal'])['move'])
            client.stats.moves += 1


async def run(args):
    port = free_port()
    url, origin = f'ws://127.0.0.1:{port}/ws', f'http://127.0.0.1:{port}'
    tmp = tempfile.mkdtemp(prefix='klinzha-load-')
    db = os.path.join(tmp, 'gui.sqlite3')
    server = start_server(args.gui, db, port, args)
    stats = Stats()
    rng = random.Random(args.seed)
    rooms = []  # (room id, [clients])
    tasks = []
    done = asyncio.Event()
    t0 = time.time()
    try:
        for _ in range(args.engine_rooms):
            creator = Client(url, origin, stats)
            await creator.open()
            await creator.send(type='hello')
            await creator.wait_for('welcome')
            engine = 'klinzha'
            await creator.send(type='create', players=2, movetime=args.movetime,
                               seats=[{'kind': 'engine', 'engine': engine}] * 2)
            rid = (await creator.wait_for('created'))['room']
            watchers = [creator]
            for _ in range(args.spectators):
                w = Client(url, origin, stats)
                await w.open()
                await w.send(type='hello', room=rid)
                watchers.append(w)
            rooms.append((rid, watchers))
        for _ in range(args.people_rooms):
            a, b = Client(url, origin, stats), Client(url, origin, stats)
            await a.open()
            await b.open()
            await a.send(type='hello')
            await a.wait_for('welcome')
            await a.send(type='create', players=2, sit='g',
                         seats=[{'kind': 'person'}, {'kind': 'person'}])
            rid = (await a.wait_for('created'))['room']
            await b.send(type='hello', room=rid)
            await b.wait_for('state')
            await b.send(type='sit', colour='b', name='scripted')
            await b.wait_for('seat')
            tasks.append(asyncio.ensure_future(person(a, rng, done)))
            tasks.append(asyncio.ensure_future(person(b, rng, done)))
            rooms.append((rid, [a, b]))
        peak = 0
        while time.time() - t0 < args.seconds:
            peak = max(peak, rss_kib(server.pid))
            over = sum(1 for _, cs in rooms
                       if any(c.state and c.state['status'] == 'over' for c in cs))
            if over == len(rooms):
                break
            await asyncio.sleep(1)
        elapsed = time.time() - t0
        done.set()
        final = rss_kib(server.pid)
        finished = sum(1 for _, cs in rooms
                       if any(c.state and c.state['status'] == 'over' for c in cs))
        # Nothing lost: a fresh connection sees what the room's clients saw last.
        failures = []
        seen = {}
        for rid, cs in rooms:
            plies = max((c.state['plies'] for c in cs if c.state), default=-1)
            seen[rid] = plies
            fresh = Client(url, origin, stats)
            await fresh.open()
            await fresh.send(type='hello', room=rid)
            st = await fresh.wait_for('state')
            if st['plies'] != plies:
                failures.append(f'room {rid}: clients saw {plies} plies, a fresh join {st["plies"]}')
            await fresh.ws.close()
        for _, cs in rooms:
            for c in cs:
                await c.ws.close()
    finally:
        server.terminate()
        server.wait(timeout=20)
    # The same file after a restart: every room reads back with the same plies.
    server = start_server(args.gui, db, port, args)
    try:
        for rid, plies in seen.items():
            c = Client(url, origin, Stats())
            await c.open()
            await c.send(type='hello', room=rid)
            try:
                st = await c.wait_for('state')
                if st['plies'] < plies:
                    failures.append(f'room {rid}: {plies} plies before the restart, {st["plies"]} after')
            except RuntimeError as e:
                failures.append(f'room {rid} after the restart: {e}')
            await c.ws.close()
    finally:
        server.terminate()
        server.wait(timeout=20)
    print(f'rooms {len(rooms)} ({args.engine_rooms} of engines with {args.spectators} spectators '
          f'each, {args.people_rooms} of scripted people); games over {finished} in {elapsed:.0f} s; '
          f'moves sent by people {stats.moves}')
    print(f'messages received {stats.received} ({stats.received / elapsed:.0f}/s), sent '
          f'{stats.sent} ({stats.sent / elapsed:.0f}/s); server memory peak {peak / 1024:.1f} MiB, '
          f'at the end {final / 1024:.1f} MiB')
    print('nothing lost: ' + ('yes' if not failures else 'NO'))
    for f in failures:
        print('  ' + f)
    return 0 if not failures else 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--gui', default='build/release/klinzha-gui')
    ap.add_argument('--engine-rooms', type=int, default=4)
    ap.add_argument('--people-rooms', type=int, default=20)
    ap.add_argument('--spectators', type=int, default=5)
    ap.add_argument('--movetime', type=int, default=50)
    ap.add_argument('--seconds', type=int, default=120)
    ap.add_argument('--seed', type=int, default=1)
    args = ap.parse_args()
    sys.exit(asyncio.run(run(args)))


if __name__ == '__main__':
    main()
