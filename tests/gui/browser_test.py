#!/usr/bin/python3
"""klinzha-gui in real browsers (headless Chromium through Selenium), issue 16.

usage: browser_test.py BUILD_DIR

Starts klinzha-gui on a free port with a database of its own, then, the way people would:
three browsers play a three-player game by clicks in one room while a fourth watches; a
reload rejoins the seat; a take-back by agreement; a draw agreed by all three; a person
against the engine whose server is killed mid-game and started again (the game goes on); a
WebSocket handshake from a foreign origin refused; the board whole at a phone's width; no
console errors. Test hooks (docs/gui.md): data-cell, data-man, #status, #moves,
window.klinzha.state. Each check prints PASS or FAIL; the exit status is the number of
failures. Debian's Python (/usr/bin/python3) has selenium.
"""
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.common.by import By

BUILD = sys.argv[1] if len(sys.argv) > 1 else 'build/release'
KLINZHA = os.path.abspath(os.path.join(BUILD, 'klinzha'))
DB = os.path.join(tempfile.mkdtemp(prefix='klinzha-gui-'), 'gui.sqlite3')
FEN2 = '2 Hg79,Qi88,Rg79,Bi89,Nf59,Nb29,Pi67,Ph56,Pf58,Wi77 Hh12,Qi33,Ri23,Bh23,Ng25,Ng14,Ph24,Ph12,Pf26,Wi44 - g play 0 1'
FEN_DANGER = '2 Hi99,Pi99,Re38 Hd38,Pd38,Pi11 - b play 0 1'  # Green's rook can take Blue's heart
FEN3 = ('3 Hh79,Qh35,Rd49,Ni99,Ni45,Pi88,Ph68,Pf58,Wh45 Hg36,Qg13,Bi23,Nc29,Nb18,Pi12,Pg36,Wg24 '
        'Hf37,Rd16,Bb29,Ng68,Nf26,Pe38,Wd17 b play 1 20')
failures = 0


def check(ok, what):
    global failures
    print(('PASS ' if ok else 'FAIL ') + what, flush=True)
    if not ok:
        failures += 1


def wait_for(fn, seconds, step=0.1):
    end = time.time() + seconds
    while time.time() < end:
        try:
            v = fn()
            if v:
                return v
        except Exception:
            pass
        time.sleep(step)
    return None


def start_server(port=0):
    p = subprocess.Popen(
        [os.path.join(BUILD, 'klinzha-gui'), '--port', str(port), '--db', DB,
         '--engine', f'klinzha={KLINZHA}',
         # (up to four browsers on one address, each keeping several HTTP connections open
         # besides its WebSocket: the default 16 refused a page's socket now and then)
         '--max-connections-per-address', '64'],
        stdout=subprocess.PIPE, text=True, start_new_session=True)
    line = p.stdout.readline()
    m = re.search(r'http://[\d.]+:(\d+)/', line)
    if not m:
        print('FAIL klinzha-gui did not print its address:', line)
        sys.exit(1)
    return p, int(m.group(1))


def browser(width=1400, height=1000):
    opts = webdriver.ChromeOptions()
    for a in ('--headless=new', '--no-sandbox', '--disable-dev-shm-usage', f'--window-size={width},{height}'):
        opts.add_argument(a)
    opts.set_capability('goog:loggingPrefs', {'browser': 'ALL'})
    return webdriver.Chrome(options=opts)


def state(d):
    return d.execute_script('return window.klinzha.state')


def select(d, id_, value):
    d.execute_script(f'const s=document.getElementById("{id_}"); s.value="{value}"; s.dispatchEvent(new Event("change"));')


def click_cell(d, name):
    d.execute_script(f'document.querySelector(\'#board [data-cell="{name}"]\').dispatchEvent(new MouseEvent("click", {{bubbles: true}}))')


def click_piece(d, piece):
    """Clicks a tray button in one step (the tray is drawn again on every state, so a
    button found first and clicked later may be gone)."""
    d.execute_script(f'document.querySelector(\'#tray button[data-piece="{piece}"]\').click()')


def click_move(d, phase, mv):
    """Makes the move `mv` (an entry of the state's `legal` list) by clicks, as a person
    would: the tray's piece and a cell, the heart's cell, or the man and its destination
    (answering the carry question when the page asks it)."""
    if phase == 'place':
        click_piece(d, mv['piece'])
        click_cell(d, mv['to'])
    elif phase == 'heart':
        click_cell(d, mv['to'])
    else:
        click_cell(d, mv['from'])
        click_cell(d, mv['to'])
        if not d.find_element(By.ID, 'carry-choice').get_attribute('hidden'):
            d.find_element(By.ID, 'carry-yes' if mv['carry'] else 'carry-no').click()


def play_a_move(d, k=0):
    """Plays a legal move by clicks (the k-th legal one); True when the server took it."""
    s = state(d)
    if not s or not s['can']['move']:
        return False
    plies = s['plies']
    click_move(d, s['phase'], s['legal'][k % len(s['legal'])])
    return wait_for(lambda: state(d)['plies'] > plies or state(d)['result'], 10, 0.05)


def create(d, players, seats, fen='', tc='', name='Ann'):
    """The lobby's form: seats are 'me', 'person' or 'engine:<name>'. Returns the room id."""
    wait_for(lambda: d.find_element(By.ID, 'name').is_displayed(), 10)  # the lobby is shown
    d.find_element(By.ID, 'name').clear()
    d.find_element(By.ID, 'name').send_keys(name)
    select(d, 'players', str(players))
    for i, s in enumerate(seats):
        select(d, f'seat-{i}', s)
    d.find_element(By.ID, 'tc').clear()
    if tc:
        d.find_element(By.ID, 'tc').send_keys(tc)
    d.find_element(By.ID, 'movetime').clear()
    d.find_element(By.ID, 'movetime').send_keys('200')
    d.find_element(By.ID, 'start-fen').clear()
    if fen:
        d.find_element(By.ID, 'start-fen').send_keys(fen)
    d.find_element(By.ID, 'create').click()
    wait_for(lambda: state(d) and state(d)['room'], 10)
    return state(d)['room']


def sit(d, url, colour, name):
    d.get(url)
    d.execute_script(f'localStorage.setItem("klinzha-name", "{name}")')
    # (clicked by script in one step: the players' box is drawn again on every state)
    wait_for(lambda: d.execute_script(
        f'const b = document.querySelector(\'button.sit[data-colour="{colour}"]\'); if (b) b.click(); return !!b;'), 10)
    return wait_for(lambda: state(d)['you'] == colour, 10)


def handshake_status(port, origin):
    s = socket.create_connection(('127.0.0.1', port), 5)
    s.sendall((f'GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: {origin}\r\nUpgrade: websocket\r\n'
               'Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n'
               'Sec-WebSocket-Version: 13\r\n\r\n').encode())
    head = s.recv(1024).decode(errors='replace')
    s.close()
    m = re.match(r'HTTP/1\.1 (\d+)', head)
    return int(m.group(1)) if m else -1


server, port = start_server()
base = f'http://127.0.0.1:{port}/'
drivers = []
try:
    a, b, c, w = (browser() for _ in range(4))
    drivers = [a, b, c, w]
    a.get(base)
    check(wait_for(lambda: a.find_element(By.ID, 'seat-0'), 10) is not None, 'the lobby loads with the new-game form')
    check(wait_for(lambda: a.find_element(By.CSS_SELECTOR, '#rules input[type=checkbox]'), 5) is not None,
          'rule options are checkboxes, selects and numbers, not free text')

    # 1. Three people in one room, a fourth watching (who sees it come into the lobby unasked).
    w.get(base)
    wait_for(lambda: w.find_element(By.ID, 'seat-0'), 10)
    room = create(a, 3, ['person', 'me', 'person'], fen=FEN3, name='Bea')
    url = base + 'game/' + room
    check(wait_for(lambda: w.find_elements(By.CSS_SELECTOR, f'#rooms a[href="/game/{room}"]'), 5),
          'a page in the lobby is shown the new room without asking (pushed)')
    check(state(a)['you'] == 'b' and state(a)['status'] == 'waiting', 'the creator sits at Blue and the room waits')
    check(sit(b, url, 'g', 'Gus') is not None, 'a second browser takes Green by a click')
    check(sit(c, url, 'k', 'Kim') is not None, 'a third browser takes Black by a click')
    w.get(url)
    check(wait_for(lambda: state(w)['status'] == 'running', 10), 'the game starts when every seat is taken; a fourth browser watches')
    check(state(w)['you'] is None and not state(w)['legal'], 'the spectator has no seat and no legal moves')
    by_colour = {'g': b, 'b': a, 'k': c}
    moved = 0
    for i in range(6):
        # (whose turn it is, read once the spectator has seen every move played so far: its
        # state may lag the mover's, which play_a_move waited for)
        s = wait_for(lambda: (lambda t: t if t['plies'] == moved else None)(state(w)), 10) or state(w)
        d = by_colour[s['to_move']]
        if wait_for(lambda: state(d)['can']['move'], 10) and play_a_move(d, i * 3):
            moved += 1
    check(moved == 6, f'six moves played by clicks in turn ({moved})')
    check(wait_for(lambda: state(w)['plies'] == 6, 10), 'the spectator sees every move')
    check(len(w.find_elements(By.CSS_SELECTOR, '#moves li')) == 6, 'the spectator\'s move list shows them')

    # 2. A reload mid-game rejoins the seat.
    b.refresh()
    check(wait_for(lambda: state(b)['you'] == 'g' and state(b)['plies'] == 6, 10), 'a reload rejoins the seat (the token is kept)')

    # 3. Take-back by agreement: the last mover asks, the two others allow it.
    last = state(w)['moves'][-1]['mover']
    asker = by_colour[last]
    wait_for(lambda: not asker.find_element(By.ID, 'ask-takeback').get_attribute('hidden'), 5)
    asker.find_element(By.ID, 'ask-takeback').click()
    for col, d in by_colour.items():
        if col != last:
            btn = wait_for(lambda: d.find_element(By.ID, 'accept-takeback') if not d.find_element(By.ID, 'accept-takeback').get_attribute('hidden') else None, 10)
            if btn:
                btn.click()
    check(wait_for(lambda: state(w)['plies'] == 5, 10), 'a take-back agreed by the others takes the move back')
    check(wait_for(lambda: state(asker)['can']['move'], 10) and play_a_move(asker), 'and its player moves again')

    # 4. A draw agreed by all three.
    for d in (a, b, c):
        for bid in ('offer-draw', 'accept-draw'):
            el = d.find_element(By.ID, bid)
            if not el.get_attribute('hidden'):
                el.click()
                break
        time.sleep(0.3)
    check(wait_for(lambda: state(w)['result'] == '1/2-1/2-1/2', 10), 'a draw agreed by every player ends the game: ' + str(state(w)['result']))
    check(wait_for(lambda: 'Draw' in a.find_element(By.ID, 'result-text').text, 5), 'a dialog says the result and why')
    check('agreement' in state(w)['termination'], 'the termination says draw by agreement')
    a.find_element(By.ID, 'result-close').click()
    a.find_element(By.ID, 'save').click()
    check(wait_for(lambda: '(=)' in a.find_element(By.ID, 'record').get_attribute('value'), 5), 'the record writes the offers (=)')
    # Analysis of the finished game (the spectator's): two MultiPV lines and the arrow.
    wait_for(lambda: w.find_element(By.ID, 'result-dialog').get_attribute('open'), 5)
    w.find_element(By.ID, 'result-close').click()
    w.find_element(By.CSS_SELECTOR, '#moves li[data-ply="3"]').click()
    wait_for(lambda: state(w)['ply'] == 3, 5)
    w.find_element(By.ID, 'multipv').clear()
    w.find_element(By.ID, 'multipv').send_keys('2')
    w.find_element(By.ID, 'analyse').click()
    check(wait_for(lambda: len(w.find_elements(By.CSS_SELECTOR, '#analysis tr.line')) >= 2, 20), 'analysis shows two MultiPV lines')
    check(wait_for(lambda: w.find_elements(By.CSS_SELECTOR, '#board .best-arrow'), 10), 'the best move is drawn as an arrow')
    w.find_element(By.ID, 'analyse-stop').click()
    # The evaluation graph: a review scores every move; a click on the graph goes to a move.
    # (The review searches every ply: under ctest -j beside the network trainer's test it took
    # over 30 s once, so it is given 90; a wait, not a measure of speed.)
    # A click that the page's redraw after the analysis stopped swallows starts no review (a
    # CI run under load waited 180 s with no graph; the test alone passed): while the page
    # shows no review under way, the click is made again, at most three times.
    graph = None
    for _ in range(3):
        w.find_element(By.ID, 'review').click()
        if not wait_for(lambda: w.find_element(By.ID, 'review-status').text
                        or w.find_elements(By.CSS_SELECTOR, '#graph polyline'), 10):
            continue
        graph = wait_for(lambda: w.find_elements(By.CSS_SELECTOR, '#graph polyline'), 90)
        break
    check(graph, 'a review draws the evaluation graph (status: %r)'
          % w.find_element(By.ID, 'review-status').text)
    # (each of the three players moved: a row each, with the moves it made scored)
    check(wait_for(lambda: len(w.find_elements(By.CSS_SELECTOR, '#review-summary tr')) == 4
                   and not state(w) is None and w.find_element(By.ID, 'review-status').text == '', 90),
          'the review sums up each player: moves, average loss, inaccuracies, mistakes, blunders')
    w.execute_script("const g = document.getElementById('graph'), r = g.getBoundingClientRect();"
                     "g.dispatchEvent(new MouseEvent('click', {clientX: r.left + 3, clientY: r.top + 10, bubbles: true}));")
    check(wait_for(lambda: state(w)['ply'] <= 2, 5), 'a click on the graph goes to the move: ply ' + str(state(w)['ply']))
    for d in (a, b, c, w):
        d.quit()
    drivers = []

    # 4b. A blind game (SPEC 25) against the engine: the page shows only the person's men and
    # what the arbiter told it; the person places and plays by clicks.
    q = browser()
    q.get(base)
    wait_for(lambda: q.find_element(By.ID, 'seat-0'), 10)
    q.execute_script("document.querySelector('#rules [data-rule=\"Blind\"]').checked = true;")
    create(q, 2, ['me', 'engine:klinzha'], name='Ann')
    played = 0
    told_seen = False
    ended = False
    for i in range(48):
        # (24 proposals or more, as many as it takes to play 12: the arbiter refuses some)
        if i >= 24 and played >= 12:
            break
        # (one state read: the turn is the person's and it is offered its proposals)
        s = wait_for(lambda: (lambda t: t if t['result'] or (t['can']['move'] and t['legal']) else None)(state(q)), 20)
        if not s or s['result']:
            ended = bool(s and s['result'])
            break
        check('data-man="b' not in s['svg'], 'a blind seat is shown none of the engine\'s men')
        before = s['plies']
        click_move(q, s['phase'], s['legal'][i % len(s['legal'])])
        # Played, or refused by the arbiter (the proposal is then listed and not offered again).
        wait_for(lambda: state(q)['plies'] > before or state(q).get('refused') or state(q)['result'], 10, 0.05)
        played += state(q)['plies'] > before
        # What the arbiter told the person, while the game hides anything (once it is over
        # the whole game is shown and the list goes): read in the page as it stands.
        told_seen = told_seen or q.execute_script(
            "const t = document.getElementById('told');"
            "return !t.hidden && t.textContent.includes('blue played');")
    # (the engine may end it sooner: against moves this arbitrary it takes the heart within
    # 30 plies of play in about half its games, docs/search.md)
    check(played >= 12 or (ended and played >= 4),
          f'a person plays a blind game by clicks ({played} proposals played, ended {ended})')
    check(told_seen, 'the page lists what the arbiter told the person')
    q.quit()

    # 5. A person against the engine; the server killed mid-game and started again.
    p = browser()
    drivers = [p]
    p.get(base)
    wait_for(lambda: p.find_element(By.ID, 'seat-0'), 10)
    room = create(p, 2, ['me', 'engine:klinzha'], tc='600+5', name='Ann')
    for i in range(4):
        wait_for(lambda: state(p)['can']['move'], 20)
        play_a_move(p, i)
    wait_for(lambda: state(p)['can']['move'], 20)
    before = state(p)['plies']
    check(before >= 4, f'person and engine play ({before} plies)')
    os.killpg(server.pid, signal.SIGKILL)
    server.wait(10)
    check(wait_for(lambda: not p.execute_script('return window.klinzha.connected'), 10), 'the page sees the server gone')
    seen = p.execute_script('return window.klinzha.states')
    server, _ = start_server(port)
    check(wait_for(lambda: p.execute_script('return window.klinzha.states') > seen and state(p)['plies'] == before and state(p)['status'] == 'running' and state(p)['you'] == 'g', 20),
          'after a restart the page reconnects to its room, seat and moves')
    clocks = state(p)['clocks']
    check(clocks[0] is not None and 500000 < clocks[0] <= 620000, f'the clocks are as they were ({clocks})')
    check(wait_for(lambda: state(p)['can']['move'], 20) and play_a_move(p),
          'the game goes on ' + p.find_element(By.ID, 'errors').text[:200])
    # (in the setup the person may place several men before the engine is asked)
    for i in range(12):
        if any(m['mover'] == 'b' for m in state(p)['moves'][before:]):
            break
        if wait_for(lambda: state(p)['can']['move'] or any(m['mover'] == 'b' for m in state(p)['moves'][before:]), 20) and state(p)['can']['move']:
            play_a_move(p, i)
    check(wait_for(lambda: any(m['mover'] == 'b' for m in state(p)['moves'][before:]), 30), 'the engine answers after the restart')
    wait_for(lambda: not p.find_element(By.ID, 'resign').get_attribute('hidden'), 5)
    p.find_element(By.ID, 'resign').click()
    p.switch_to.alert.accept()
    check(wait_for(lambda: state(p)['result'] == '0-1', 10), 'resigning ends the game 0-1')
    logs = [e for e in p.get_log('browser') if e['level'] == 'SEVERE' and 'favicon' in e['message']]
    check(not logs, 'no console error for the favicon')

    # 6. A foreign page may not open the WebSocket.
    check(handshake_status(port, f'http://127.0.0.1:{port}') == 101, 'the page\'s own origin opens /ws')
    check(handshake_status(port, 'http://evil.example.com') == 403, 'a foreign origin gets 403')

    # 7. A phone's width shows the whole board.
    ph = browser(400, 800)
    drivers.append(ph)
    ph.get(base + 'game/' + room)
    wait_for(lambda: ph.find_element(By.CSS_SELECTOR, '#board svg'), 10)
    # (headless Chromium's narrowest window is 500 px: the check is against its own width)
    width, inner = ph.execute_script('return [document.querySelector("#board svg").getBoundingClientRect().right, window.innerWidth]')
    check(width is not None and width <= inner, f'at a phone\'s width the board fits the screen (right edge {width} of {inner})')
    ph.save_screenshot('/tmp/klinzha-gui-phone.png')
    p.save_screenshot('/tmp/klinzha-gui-test.png')

    # 8. Klin Zha Kinta against the engine: the odds shown before an attack, each fight
    # (the person's and the engine's) shown round by round after it.
    p.get(base)
    wait_for(lambda: p.find_element(By.ID, 'seat-0'), 10)
    p.execute_script('document.querySelector(\'#rules [data-rule="Kinta"]\').checked = true')
    kinta_fen = ('2 Hg79,Qh67,Rg47,Bh78,Nf58,Pi67,Ph68,Pg79,Wh56 Hi12,Qi33,Ri45,Bg13,Ni22,Ng25,Ph24,Pf15,'
                 'Pf14,Wi12 - b play 0 2 strength=g25:127,g47:21,h24:24,h68:70,h78:40,i33:69')
    create(p, 2, ['engine:klinzha', 'me'], fen=kinta_fen, name='Ann')
    check(wait_for(lambda: state(p)['can']['move'] and state(p)['you'] == 'b', 20), 'a Kinta room from a position, the person (Blue) to move')
    click_cell(p, 'g25')
    odds = p.execute_script('return [...document.querySelectorAll("#board .odds")].map(e => e.firstChild.nodeValue)')
    check(len(odds) == 1 and odds[0].endswith('%'), f'picking the flier shows the odds of its attack ({odds})')
    click_cell(p, 'g47')
    check(wait_for(lambda: state(p)['plies'] >= 1 and state(p)['moves'][0]['spindles'], 10), 'the attack is fought by the referee\'s spindles')
    # (told at the live end also once the engine has answered, by an attack of its own or not)
    check(wait_for(lambda: p.execute_script('const r = document.querySelector(\'#fight .fight-block[data-ply="1"] .fight-result\');'
                                            'return !document.getElementById("fight").hidden && r && r.textContent !== ""'), 10),
          'the fight is shown, and its result once its rounds are told')
    # Play on, attacking whenever possible, until the game ends (or 60 plies).
    for i in range(60):
        if not wait_for(lambda: state(p)['can']['move'] or state(p)['result'], 30):
            break
        s = state(p)
        if s['result']:
            break
        attacks = [k for k, m in enumerate(s['legal']) if m.get('odds')]
        play_a_move(p, attacks[0] if attacks else i)
    # (the engine's answer to the last move is in before the plies are counted)
    wait_for(lambda: state(p)['can']['move'] or state(p)['result'], 30)
    s = state(p)
    fought = [i + 1 for i, m in enumerate(s['moves']) if m['spindles']]
    check(len(fought) >= 2, f'fights were fought ({len(fought)})')
    # Stepping to each fight shows it; at the live end (the last move picked) the page tells
    # the fights of the last turn round (room_view.cpp's first_fight: the last move of each
    # seat), so a fight at the ply before the last is shown there too.
    ok = True
    plies = len(s['moves'])
    rounds = lambda q: f"{q}:{len(s['moves'][q - 1]['spindles'].split()) - 1}"
    for ply in fought:
        want = [rounds(q) for q in fought if q == ply or (ply == plies and q > plies - len(s['seats']))]
        # Clicked again while it is not the current move (a click before the list is
        # redrawn can be lost), as the phone's check below does.
        pick = (f'const li = document.querySelector(\'#moves li[data-ply="{ply}"]\');'
                'if (li && !li.classList.contains("current")) li.click();')
        ok &= bool(wait_for(lambda: p.execute_script(pick) is None and state(p)['ply'] == ply and not p.find_element(By.ID, 'fight').get_attribute('hidden')
                       and p.execute_script(f'return [...document.querySelectorAll("#fight .fight-block")].map(b => b.dataset.ply + ":" + b.querySelectorAll(".fight-rounds tr").length)') ==
                       want, 10))
        if not ok:
            print(f'fight at ply {ply} not shown whole:', p.execute_script(
                'return [...document.querySelectorAll("#fight .fight-block")].map(b => b.dataset.ply + ":" + '
                'b.querySelectorAll(".fight-rounds tr").length)'), 'wanted', want)
            break
    check(ok, f'every fight of the game is shown whole when its move is picked ({len(fought)} fights)')
    p.save_screenshot('/tmp/klinzha-gui-kinta.png')
    # On a phone the players and their clocks come right after the board, the fight after them.
    ph.get(p.current_url)
    order = wait_for(lambda: ph.execute_script(
        f'const li = document.querySelector(\'#moves li[data-ply="{fought[0]}"]\');'
        'if (li && !li.classList.contains("current")) li.click();'
        'const f = document.getElementById("fight"), b = document.getElementById("players-box");'
        'const s = document.querySelector("#board svg");'
        'if (!f || f.hidden || !s) return null;'
        'return [s.getBoundingClientRect().bottom, b.getBoundingClientRect().top, f.getBoundingClientRect().top]'), 10)
    check(order and order[0] <= order[1] < order[2],
          f'on a phone the clocks follow the board and the fight comes after them ({order})')
    ph.save_screenshot('/tmp/klinzha-gui-phone-kinta.png')

    # 9. Three players: one resigns and play goes on; one loses on time and play goes on
    # (SPEC 7). Blue (the creator) is to move in FEN3.
    for d in drivers:  # (the Kinta and phone browsers are done)
        d.quit()
    a, b, c = (browser() for _ in range(3))
    drivers = [a, b, c]
    for tc, how in (('', 'resigns'), ('4+0', 'loses on time')):
        for d in (a, b, c):
            d.get(base)
        room = create(a, 3, ['person', 'me', 'person'], fen=FEN3, tc=tc, name='Bob')
        url = base + 'game/' + room
        check(sit(b, url, 'g', 'Ann') and sit(c, url, 'k', 'Cat'),
              f'three players ({how}): Green and Black are taken by clicks')
        check(wait_for(lambda: state(a)['can']['move'] and state(a)['can']['resign'], 10),
              f'three players ({how}): the game starts, Blue to move')
        if how == 'resigns':
            a.execute_script('window.confirm = () => true; document.getElementById("resign").click();')
        goes_on = wait_for(lambda: state(c)['to_move'] == 'k' and state(c)['can']['move'], 15)
        check(goes_on and state(c)['status'] == 'running' and not state(c)['seats'][1]['in'],
              f'three players: Blue {how}, is out, and Black is to move ({state(c)["status_text"]})')
        check(play_a_move(c) and wait_for(lambda: state(b)['can']['move'], 10),
              f'three players: after Blue {how}, Black moves and Green is to move')
        out = wait_for(lambda: [e.text for e in b.find_elements(By.CSS_SELECTOR, '#moves li.removal')], 5)
        check(out and out[0].startswith('b out:'), f'the move list says where Blue went out ({out})')
    c.save_screenshot('/tmp/klinzha-gui-three-after-resign.png')
    for d in (b, c):  # (a server takes 16 connections from one address: browsers keep some)
        d.quit()
    drivers = [a]

    # 10. A game against the engine at level 1: the level is chosen in the new-game form, the
    # seat says it, and the engine answers.
    a.get(base)
    wait_for(lambda: a.find_element(By.ID, 'level-1'), 10)
    check(not a.find_element(By.ID, 'level-1').get_attribute('hidden'), 'an engine seat offers levels 1-8')
    select(a, 'level-1', '1')
    room = create(a, 2, ['me', 'engine:klinzha'], fen=FEN2, name='Newcomer')
    check(wait_for(lambda: state(a)['seats'][1]['name'] == 'klinzha (level 1)', 10),
          'the engine seat says its level')
    wait_for(lambda: state(a)['can']['move'], 15)  # (the page's first state may come late on a busy machine)
    check(play_a_move(a) and wait_for(lambda: state(a)['plies'] >= 2, 15), 'the level-1 engine answers a move')
    check(wait_for(lambda: state(a)['can']['move'] and a.find_element(By.ID, 'hint-button').is_displayed(), 15),
          'a Hint button in a game against an engine')
    a.find_element(By.ID, 'hint-button').click()
    check(wait_for(lambda: a.find_elements(By.CSS_SELECTOR, '#board .best-arrow'), 10), 'the hint shows the best move as an arrow')
    a.save_screenshot('/tmp/klinzha-gui-level1.png')
    errors = a.find_element(By.ID, 'errors').text
    check('not JSON' not in errors, f'the page in a room is told no error it did not cause ({errors!r})')

    # 11. The Learn page: a man's moves shown on a small board, and exercises answered by
    # clicks, the server judging them.
    a.get(base + 'learn')
    check(wait_for(lambda: len(a.find_elements(By.CSS_SELECTOR, '#board-pieces [data-cell]')) == 81, 10),
          'the Learn page draws its boards')
    a.execute_script('document.querySelector(\'#pieces tr[data-piece="P"]\').click()')
    # A pawn steps once, to any of the 3 cells that share a side with its triangle.
    check(wait_for(lambda: len(a.find_elements(By.CSS_SELECTOR, '#board-pieces .mark')) == 3, 10),
          'a click on the pawn marks its 3 destinations')
    a.execute_script('document.querySelector(\'#pieces tr[data-piece="N"]\').click()')
    check(wait_for(lambda: len(a.find_elements(By.CSS_SELECTOR, '#board-pieces .mark')) > 3
                   and a.find_elements(By.CSS_SELECTOR, '#board-pieces [data-man="gN"]'), 10),
          'a click on the knight shows the knight and its destinations')

    def learn_click(cell):
        a.execute_script(f'document.querySelector(\'#board-exercise [data-cell="{cell}"]\').dispatchEvent(new MouseEvent("click", {{bubbles: true}}))')

    wait_for(lambda: a.find_element(By.ID, 'exercise-title').text == 'Take the heart', 10)
    learn_click('e38')
    wait_for(lambda: a.find_elements(By.CSS_SELECTOR, '#board-exercise .mark'), 10)
    learn_click('d38')
    check(wait_for(lambda: 'solved' in a.find_element(By.ID, 'exercise-verdict').get_attribute('class'), 10),
          'exercise "Take the heart" solved by two clicks')
    select(a, 'exercise', 'save-capture')
    wait_for(lambda: a.find_element(By.ID, 'exercise-title').text == 'Save your heart', 10)
    learn_click('d38')
    wait_for(lambda: a.find_elements(By.CSS_SELECTOR, '#board-exercise .mark'), 10)
    learn_click('d39')
    check(wait_for(lambda: 'failed' in a.find_element(By.ID, 'exercise-verdict').get_attribute('class'), 10),
          'exercise "Save your heart": a move that leaves the heart in danger is refused')
    a.find_element(By.ID, 'exercise-again').click()
    # (the exercise's board again: Blue's pawn back on d38, not on d39 where it went)
    wait_for(lambda: a.find_elements(By.CSS_SELECTOR, '#board-exercise [data-cell="d38"] [data-man="bP"]'), 10)
    learn_click('d38')
    wait_for(lambda: a.find_elements(By.CSS_SELECTOR, '#board-exercise .mark'), 10)
    learn_click('e38')
    check(wait_for(lambda: 'solved' in a.find_element(By.ID, 'exercise-verdict').get_attribute('class'), 10),
          'exercise "Save your heart" solved by taking the attacker')
    a.save_screenshot('/tmp/klinzha-gui-learn.png')

    # 12. Two people and a spectator: the heart in danger marked, the chat (a script tag
    # shown as text), no analysis for the spectator, a record saved mid-game read back with
    # its names, then a rematch.
    b, w = browser(), browser()
    drivers += [b, w]
    a.get(base)
    room = create(a, 2, ['me', 'person'], fen=FEN_DANGER, name='Ann')
    url = base + 'game/' + room
    check(sit(b, url, 'b', 'Bob') is not None, 'a second person takes Blue')
    w.get(url)
    check(wait_for(lambda: state(w)['status'] == 'running', 10), 'a spectator watches')
    check(wait_for(lambda: b.find_elements(By.CSS_SELECTOR, '#board [data-cell="d38"] .heart-danger'), 10),
          'the heart Green\'s rook can take is ringed in red on the board')
    check(w.find_element(By.ID, 'analyse').get_attribute('disabled') is not None and not state(w)['can']['analyse'],
          'the spectator may not analyse while people play each other')
    a.find_element(By.ID, 'chat-text').send_keys('<script>window.pwned = 1</script>good luck\n')
    check(wait_for(lambda: '<script>window.pwned = 1</script>good luck' in b.find_element(By.ID, 'chat').text, 10)
          and not b.execute_script('return window.pwned === 1'), 'a chat line with a script tag is shown as text')
    b.save_screenshot('/tmp/klinzha-gui-danger-chat.png')
    wait_for(lambda: state(b)['can']['move'], 10)
    take = next(m for m in state(b)['legal'] if m['from'] == 'd38' and m['to'] == 'e38' and m['carry'])
    click_move(b, 'play', take)
    check(wait_for(lambda: state(b)['plies'] == 1 and not b.find_elements(By.CSS_SELECTOR, '#board .heart-danger'), 10),
          'the heart saved: no mark left')
    # A premove: Bob picks his pawn's step while Ann is to move; it is played when his turn comes.
    wait_for(lambda: state(b)['to_move'] == 'g', 10)
    click_cell(b, 'i11')
    click_cell(b, 'i12')
    check(len(b.find_elements(By.CSS_SELECTOR, '#board .premove')) == 2, 'a premove is marked while the other player moves')
    check(wait_for(lambda: state(a)['can']['move'], 10) and play_a_move(a), 'Ann moves')
    check(wait_for(lambda: state(b)['plies'] == 3 and state(b)['moves'][2]['move'] == 'i11i12', 10),
          'the premove is played as soon as the turn comes')
    a.find_element(By.ID, 'save').click()
    pgn = wait_for(lambda: a.find_element(By.ID, 'record').get_attribute('value'), 10) or ''
    check('[Result "*"]' in pgn and '[Green "Ann"]' in pgn, 'a record saved mid-game says "*" and the names')
    w.get(base)
    wait_for(lambda: w.find_element(By.ID, 'load-record').is_displayed(), 10)
    w.execute_script('document.getElementById("load-record").value = arguments[0];', pgn)
    w.find_element(By.ID, 'load').click()
    check(wait_for(lambda: state(w)['status'] == 'review' and [s['name'] for s in state(w)['seats']] == ['Ann', 'Bob'], 10),
          'the record reads back as one game, with its names')
    a.execute_script('window.confirm = () => true; document.getElementById("resign").click();')
    check(wait_for(lambda: state(a)['status'] == 'over' and state(a)['can']['rematch'], 10), 'after the game a rematch is offered')
    wait_for(lambda: a.find_element(By.ID, 'result-rematch').is_displayed(), 10)
    a.find_element(By.ID, 'result-rematch').click()  # (in the result dialog, as people find it)
    check(wait_for(lambda: state(a)['room'] != room and state(a)['you'] == 'b', 10), 'the rematch: Ann now plays Blue')
    check(wait_for(lambda: state(b)['rematch'] == state(a)['room'] and b.find_element(By.ID, 'join-rematch').is_displayed(), 10),
          'Bob is offered the rematch')
finally:
    for d in drivers:
        try:
            d.quit()
        except Exception:
            pass
    try:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(10)
    except Exception:
        pass

print(f'{failures} failure(s)')
sys.exit(min(failures, 100))
