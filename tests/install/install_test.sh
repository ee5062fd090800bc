#!/usr/bin/env bash
# tests/install/install_test.sh: the programs installed by `cmake --install` work from their
# prefix alone, and the Debian package builds (issue 30).
#
#   tests/install/install_test.sh BUILD_DIR
#
# 1. cmake --install BUILD_DIR into a fresh temporary prefix; every program, the page, the
#    docs with their pictures, the network tools, the manual pages and the systemd unit are
#    there.
# 2. From a folder outside the source and build trees: every program answers --version with
#    the one version; `klinzha bench` counts nodes; klinzha-match plays a two-game match of
#    the installed engine; the installed gen.sh finds the installed klinzha-gen; klinzha-gui
#    starts with its default engine (the installed klinzha beside it) and a room of two
#    engines plays (room_check.py).
# 3. cpack -G DEB builds the package; dpkg-deb -I shows its dependencies (computed, so
#    libboost-program-options, libspdlog and libsqlite3 among them) and -c lists every program.
# Exit status 0 when all hold; the first failure stops it with a message.
set -euo pipefail
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=$(mktemp -d /tmp/klinzha-install.XXXXXX)
gui_pid=""
cleanup() {
    [ -n "$gui_pid" ] && kill "$gui_pid" 2>/dev/null && wait "$gui_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "install test: FAILED: $*" >&2; exit 1; }
t0=$(date +%s)
step() { echo "install test: [$(( $(date +%s) - t0 )) s] $*"; }

prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" > "$work/install.log" || fail "cmake --install"
for f in bin/klinzha bin/klinzha-match bin/klinzha-gui bin/klinzha-gen bin/klinzha-tune \
         share/klinzha/www/index.html share/klinzha/www/app.js \
         share/klinzha/nnue/train.py share/klinzha/nnue/gen.sh \
         share/klinzha/nnue/shuffle.py share/klinzha/nnue/pipeline.sh \
         share/doc/klinzha/README.md share/doc/klinzha/rules.md share/doc/klinzha/gui.md \
         share/doc/klinzha/img/board-names.svg lib/systemd/system/klinzha-gui.service \
         share/man/man1/klinzha.1 share/man/man1/klinzha-match.1 share/man/man1/klinzha-gui.1 \
         share/man/man1/klinzha-gen.1 share/man/man1/klinzha-tune.1; do
    [ -e "$prefix/$f" ] || fail "cmake --install left out $f"
done
grep -q "ExecStart=$prefix/bin/klinzha-gui " "$prefix/lib/systemd/system/klinzha-gui.service" ||
    fail "the systemd unit does not start $prefix/bin/klinzha-gui"
step "$(find "$prefix" -type f | wc -l) files installed under the prefix"

cd "$work"  # nothing of the source or build tree is at hand from here
export PATH=/usr/bin:/bin
version=$("$prefix/bin/klinzha" --version | awk '{print $2}')
[ -n "$version" ] || fail "klinzha --version printed no version"
for p in klinzha-match klinzha-gui klinzha-gen klinzha-tune; do
    line=$("$prefix/bin/$p" --version) || fail "$p --version failed"
    [ "$line" = "$p $version" ] || fail "$p --version says '$line', not '$p $version'"
done
step "every program is version $version"
man -l "$prefix/share/man/man1/klinzha-match.1" 2>/dev/null | grep -q -- "-tc" ||
    grep -q -- "-tc" "$prefix/share/man/man1/klinzha-match.1" || fail "klinzha-match.1 lacks -tc"

"$prefix/bin/klinzha" bench > bench.txt 2>&1 || fail "klinzha bench: $(tail -3 bench.txt)"
grep -q "^Nodes searched" bench.txt || fail "klinzha bench printed no node count"
step "$(grep '^Nodes searched' bench.txt)"

"$prefix/bin/klinzha-match" -engine cmd="$prefix/bin/klinzha" name=a \
    -engine cmd="$prefix/bin/klinzha" name=b -games 2 -nodes 2000 -pgnout games.pgn \
    > match.txt 2>&1 || fail "klinzha-match: $(tail -5 match.txt)"
[ "$(grep -c '^\[Result' games.pgn)" = 2 ] || fail "the match did not record two games"
"$prefix/bin/klinzha" replay games.pgn --final > replay.txt || fail "klinzha replay of the match"
step "a two-game match played and read back"

"$prefix/share/klinzha/nnue/gen.sh" data.bin 1 1 --nodes 200 --players 2 > gen.txt 2>&1 ||
    fail "gen.sh: $(tail -3 gen.txt)"
[ -s data.bin ] || fail "gen.sh wrote no data"
step "gen.sh: $(tail -1 gen.txt)"

"$prefix/bin/klinzha-gui" --port 0 --db "$work/gui.sqlite3" > gui.txt 2> gui.err &
gui_pid=$!
port=""
for _ in $(seq 1 100); do
    port=$(sed -n 's|.*open http://127.0.0.1:\([0-9]*\)/.*|\1|p' gui.txt)
    [ -n "$port" ] && break
    kill -0 "$gui_pid" 2>/dev/null || fail "klinzha-gui did not start: $(cat gui.err)"
    sleep 0.1
done
[ -n "$port" ] || fail "klinzha-gui printed no address"
/usr/bin/python3 "$here/room_check.py" "$port" 4 || fail "the installed klinzha-gui's room"
step "klinzha-gui started its default engine; a room of two engines played"
kill "$gui_pid"
wait "$gui_pid" 2>/dev/null || true
gui_pid=""

# The Debian package.
command -v dpkg-deb > /dev/null || fail "no dpkg-deb (apt install dpkg-dev)"
(cd "$work" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work/deb" > cpack.txt 2>&1) ||
    fail "cpack: $(tail -5 "$work/cpack.txt")"
deb=$(ls "$work"/deb/klinzha_*.deb)
dpkg-deb -I "$deb" > info.txt
dpkg-deb -c "$deb" > contents.txt
cat info.txt
depends=$(sed -n 's/^ Depends: //p' info.txt)
for lib in libboost-program-options libsqlite3 libspdlog libc6; do
    case "$depends" in *"$lib"*) ;; *) fail "the package does not depend on $lib: $depends" ;; esac
done
for f in ./usr/bin/klinzha ./usr/bin/klinzha-match ./usr/bin/klinzha-gui ./usr/bin/klinzha-gen \
         ./usr/bin/klinzha-tune ./usr/share/klinzha/www/index.html \
         ./usr/lib/systemd/system/klinzha-gui.service ./usr/share/man/man1/klinzha.1 \
         ./usr/share/doc/klinzha/rules.md; do
    grep -q " $f\$" contents.txt || fail "the package lacks $f"
done
dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/lib/systemd/system/klinzha-gui.service |
    grep -q "^ExecStart=/usr/bin/klinzha-gui " || fail "the package's unit does not start /usr/bin/klinzha-gui"
step "$(basename "$deb"), $(stat -c %s "$deb") bytes, $(wc -l < contents.txt) entries"
step "passed"
