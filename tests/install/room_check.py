#!/usr/bin/python3
"""tests/install/room_check.py: opens a room of two engines on a running klinzha-gui and
waits for the engines to play (issue 30: the installed server starts its default engine).

    room_check.py PORT [PLIES]

Connects to ws://127.0.0.1:PORT/ws as a page would (hello, then create: two seats of the
server's first engine, 20 ms a move), and waits until a state shows at least PLIES moves
(default 4). Prints the engine's name and the plies seen. Exit status 0 when they come,
1 otherwise (with the last state's status). Needs python3-websockets.
"""
import asyncio
import json
import sys

import websockets


async def main(port, plies):
    url, origin = f'ws://127.0.0.1:{port}/ws', f'http://127.0.0.1:{port}'
    async with websockets.connect(url, origin=origin, max_size=2 ** 22) as ws:
        await ws.send(json.dumps({'type': 'hello'}))
        last = None
        engine = None
        async def receive():
            while True:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 60))
                if msg.get('type') == 'error':
                    raise RuntimeError('server error: ' + msg.get('message', ''))
                return msg
        while True:
            msg = await receive()
            if msg.get('type') == 'welcome':
                engine = msg['engines'][0]['name']
                await ws.send(json.dumps({'type': 'create', 'players': 2, 'movetime': 20,
                                          'seats': [{'kind': 'engine', 'engine': engine}] * 2}))
            elif msg.get('type') == 'state':
                last = msg
                if msg.get('plies', 0) >= plies:
                    print(f'room_check: engine {engine} played {msg["plies"]} plies')
                    return 0
                if msg.get('status') == 'over':
                    print('room_check: the game ended early:', msg.get('termination'))
                    return 1


if __name__ == '__main__':
    port = int(sys.argv[1])
    plies = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    try:
        sys.exit(asyncio.run(main(port, plies)))
    except (asyncio.TimeoutError, OSError, RuntimeError) as e:
        print('room_check: failed:', repr(e))
        sys.exit(1)
