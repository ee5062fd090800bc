#!/usr/bin/python3
"""klinzha-gui in a real browser (headless Chromium through Selenium), issue 10.

usage: browser_test.py BUILD_DIR

Starts klinzha-gui on a free port with the klinzha beside it, then drives the page the way a
person would, by clicks, through the test hooks documented in docs/gui.md (data-cell,
data-man, #fen, #status, #moves, window.klinzha.state). Each check prints PASS or FAIL; the
exit status is the number of failures. Debian's Python (/usr/bin/python3) has selenium.
"""
import os
import re
import signal
import subprocess
import sys
import time

from selenium import webdriver
from selenium.webdriver.common.by import By

BUILD = sys.argv[1] if len(sys.argv) > 1 else 'build/release'
KLINZHA = os.path.abspath(os.path.join(BUILD, 'klinzha'))
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


server = subprocess.Popen(
    [os.path.join(BUILD, 'klinzha-gui'), '--port', '0',
     '--engine', f'klinzha={KLINZHA}',
     '--engine', f'victim={KLINZHA} --Hash 3'],
    stdout=subprocess.PIPE, text=True, start_new_session=True)
line = server.stdout.readline()
m = re.search(r'http://[\d.]+:(\d+)/', line)
if not m:
    print('FAIL klinzha-gui did not print its address:', line)
    sys.exit(1)
url = f'http://127.0.0.1:{m.group(1)}/'

opts = webdriver.ChromeOptions()
for a in ('--headless=new', '--no-sandbox', '--disable-dev-shm-usage', '--window-size=1400,1000'):
    opts.add_argument(a)
driver = webdriver.Chrome(options=opts)
d = driver


def state():
    return d.execute_script('return window.klinzha.state')


def select(id_, value):
    d.execute_script(f'const s=document.getElementById("{id_}"); s.value="{value}"; s.dispatchEvent(new Event("change"));')


def start_game(players, seats, movetime=100, tc=''):
    select('players', str(players))
    for i, s in enumerate(seats):
        select(f'seat-{i}', s)
    d.find_element(By.ID, 'movetime').clear()
    d.find_element(By.ID, 'movetime').send_keys(str(movetime))
    d.find_element(By.ID, 'tc').clear()
    if tc:
        d.find_element(By.ID, 'tc').send_keys(tc)
    d.find_element(By.ID, 'start').click()
    wait_for(lambda: state()['running'] and not state()['result'], 20)


def click_cell(name):
    d.execute_script(f'document.querySelector(\'#board [data-cell="{name}"]\').dispatchEvent(new MouseEvent("click", {{bubbles: true}}))')


try:
    d.get(url)
    check(wait_for(lambda: d.find_element(By.ID, 'seat-0'), 10) is not None, 'the page loads and lists seats')
    check(len(d.find_elements(By.CSS_SELECTOR, '[data-cell]')) == 81 or wait_for(lambda: len(d.find_elements(By.CSS_SELECTOR, '[data-cell]')) == 81, 5), 'the board has 81 cells with data-cell')

    # 1. Two players: a person (green) against the engine, from the empty board to the end, by clicks.
    start_game(2, ['human', 'klinzha'], movetime=50)
    clicks = 0
    end = time.time() + 240
    while time.time() < end:
        s = state()
        if s and s['result']:
            break
        if not s or not s['human_to_move']:
            time.sleep(0.05)
            continue
        plies = s['plies']
        legal = s['legal']
        if s['phase'] == 'place':
            mv = legal[0]
            d.find_element(By.CSS_SELECTOR, f'#tray button[data-piece="{mv["piece"]}"]').click()
            check(bool(d.find_elements(By.CSS_SELECTOR, '#board .cell.dest')), 'picking a piece shows where it may go') if clicks == 0 else None
            click_cell(mv['to'])
        elif s['phase'] == 'heart':
            click_cell(legal[0]['to'])
        else:
            # Prefer a heart capture or a capture, else the first move: a person who plays quickly.
            mv = legal[(plies * 7) % len(legal)]
            click_cell(mv['from'])
            click_cell(mv['to'])
            if not d.find_element(By.ID, 'carry-choice').get_attribute('hidden'):
                d.find_element(By.ID, 'carry-yes' if mv['carry'] else 'carry-no').click()
        clicks += 1
        wait_for(lambda: state()['plies'] > plies or state()['result'], 10, 0.02)
    s = state()
    check(bool(s['result']), f'the person-vs-engine game ends with a result ({s["result"]}: {s["termination"]}) after {s["plies"]} plies')
    check('Game over' in d.find_element(By.ID, 'status').text, '#status tells the result')
    check(len(d.find_elements(By.CSS_SELECTOR, '#moves li')) == s['plies'], '#moves lists every move, setup included')
    check(s['moves'][0]['setup'] and not s['moves'][-1]['setup'], 'the move list starts with the setup and ends in play')

    # 2. A record saved and loaded back shows the same position.
    fen_end = d.find_element(By.ID, 'fen').text
    d.find_element(By.ID, 'save').click()
    check(wait_for(lambda: '[' in d.find_element(By.ID, 'record').get_attribute('value'), 5), 'save writes a record')
    d.find_element(By.ID, 'first').click()
    wait_for(lambda: state()['ply'] == 0, 5)
    check(d.find_element(By.ID, 'fen').text != fen_end, 'stepping back shows an earlier position')
    d.find_element(By.ID, 'load').click()
    check(wait_for(lambda: d.find_element(By.ID, 'fen').text == fen_end, 10), 'the loaded record shows the same final position')

    # 3. Analysis shows at least two MultiPV lines, and follows stepping through the game.
    # A position from the middle of the game (its last ones may have a single legal move).
    setup_plies = sum(1 for m in state()['moves'] if m['setup'])
    target = min(setup_plies + 1, state()['plies'] - 1)
    d.find_element(By.CSS_SELECTOR, f'#moves li[data-ply="{target}"]').click()
    wait_for(lambda: state()['ply'] == target, 5)
    d.find_element(By.ID, 'multipv').clear()
    d.find_element(By.ID, 'multipv').send_keys('2')
    d.find_element(By.ID, 'analyse').click()
    check(wait_for(lambda: len(d.find_elements(By.CSS_SELECTOR, '#analysis tr.line')) >= 2, 20), 'analysis shows two MultiPV lines')
    check(wait_for(lambda: d.find_elements(By.CSS_SELECTOR, '#board .best-arrow'), 10), 'the best move is drawn as an arrow')
    d.find_element(By.ID, 'analyse-stop').click()

    # 4. Three engines play a game to its end.
    start_game(3, ['klinzha', 'klinzha', 'klinzha'], movetime=20)
    check(wait_for(lambda: state()['result'], 300, 0.5), 'a three-player game of engines reaches a result')
    s = state()
    print('     three-player game:', s['result'], s['termination'], s['plies'], 'plies')
    check(len(d.find_elements(By.CSS_SELECTOR, '[data-man]')) > 0, 'men are drawn with data-man')

    # 5. An engine killed mid-game: an error on the page, and the page stays usable.
    start_game(2, ['human', 'victim'], movetime=5000)
    # The person places until the engine must think, then the engine is killed.
    wait_for(lambda: state()['human_to_move'], 10)
    s = state()
    d.find_element(By.CSS_SELECTOR, f'#tray button[data-piece="{s["legal"][0]["piece"]}"]').click()
    click_cell(s['legal'][0]['to'])
    wait_for(lambda: state()['plies'] >= 1, 5)
    time.sleep(0.5)
    # Anchored: the server's own command line names the victim's command too.
    subprocess.run(['pkill', '-f', '^' + re.escape(KLINZHA) + ' --Hash 3'], check=False)
    # The person goes on placing (a whole set comes first) until the dead engine is asked.
    end = time.time() + 30
    while time.time() < end and not d.find_element(By.ID, 'errors').text:
        s = state()
        if s['human_to_move'] and s['phase'] == 'place':
            d.find_element(By.CSS_SELECTOR, f'#tray button[data-piece="{s["legal"][0]["piece"]}"]').click()
            click_cell(s['legal'][0]['to'])
            wait_for(lambda: state()['plies'] > s['plies'], 5, 0.02)
        elif s['human_to_move'] and s['phase'] == 'heart':
            click_cell(s['legal'][0]['to'])
            wait_for(lambda: state()['plies'] > s['plies'], 5, 0.02)
        time.sleep(0.1)
    check(wait_for(lambda: d.find_element(By.ID, 'errors').text, 20), 'the dead engine shows an error: ' + d.find_element(By.ID, 'errors').text[:80])
    check(wait_for(lambda: state()['result'] or not state()['running'], 10), 'the game ends and the state is kept: ' + d.find_element(By.ID, 'status').text)
    start_game(2, ['human', 'klinzha'], movetime=50)
    ok = wait_for(lambda: state()['human_to_move'] and state()['plies'] == 0, 10)
    s = state()
    check(ok, 'a new game starts after the error' + ('' if ok else f": running {s['running']} plies {s['plies']} human_to_move {s['human_to_move']} status {s['status']!r} errors {d.find_element(By.ID, 'errors').text[:200]!r}"))

    # 6. Bad input from the page: an error, nothing changed.
    before = d.find_element(By.ID, 'fen').text
    d.find_element(By.ID, 'fen-input').send_keys('3 nonsense')
    d.find_element(By.ID, 'set-fen').click()
    check(wait_for(lambda: 'set_position' in d.find_element(By.ID, 'errors').text, 5), 'a bad position string is refused with an error')
    check(d.find_element(By.ID, 'fen').text == before, 'the position shown is unchanged')
    d.save_screenshot(os.path.join('/tmp', 'klinzha-gui-test.png'))
finally:
    driver.quit()
    os.killpg(server.pid, signal.SIGTERM)
    server.wait(10)

print(f'{failures} failure(s)')
sys.exit(min(failures, 100))
