#!/usr/bin/env bash
# tools/setup.sh: the project's one entry point on a fresh Debian machine.
#
#   tools/setup.sh run  [engine args...]  install packages, build Release, start klinzha
#   tools/setup.sh test [ctest args...]   install packages; build Release (GCC) and run every
#                                         test; a clang ASan/UBSan build (tests, then each
#                                         fuzzer for 15 s); a GCC ThreadSanitizer build (tests)
#   tools/setup.sh build                  install packages and build Release only
#   tools/setup.sh gui  [gui args...]     install packages, build Release, start klinzha-gui
#                                         (prints the address to open in a browser)
#
# Installing is idempotent: Debian packages are installed only when dpkg says they are
# missing. Environment: KLINZHA_SKIP_SLOW=1 skips tests labelled `slow`;
# KLINZHA_NO_SANITIZE=1 skips the clang ASan/UBSan build (and the fuzzers); KLINZHA_NO_FUZZ=1
# only the fuzzers; KLINZHA_NO_TSAN=1 the ThreadSanitizer build (tools/fuzz.sh fuzzes longer).
# The Release build is for this machine (-march=native: 4-8% more nodes a second than the
# x86-64-v2 baseline on the AMD EPYC of docs/search.md, the same nodes searched); set
# KLINZHA_ARCH=x86-64-v2 (or empty, the compiler's default) for a build, or a package, that
# other machines run.
set -euo pipefail

top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
packages=(g++ clang libclang-rt-dev cmake make libboost-dev libboost-program-options-dev
          doctest-dev libspdlog-dev nlohmann-json3-dev libsqlite3-dev libsqlitecpp-dev parallel
          help2man dpkg-dev file)
# Only for the tests: klinzha-gui in headless Chromium (tests/gui/browser_test.py), and the
# network's trainer against the engine (tests/nnue/nnue_test.py: PyTorch, NumPy); a WebSocket
# client for the installed klinzha-gui (tests/install) and tools/gui/loadtest.py.
test_packages=(chromium chromium-driver python3-selenium python3-torch python3-numpy python3-websockets)

install_packages() {  # install_packages [extra packages...]
    local missing=()
    for p in "${packages[@]}" "$@"; do
        dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "setup: installing ${missing[*]}" >&2
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >&2
}

jobs="$(nproc 2>/dev/null || echo 2)"
arch="${KLINZHA_ARCH-native}"  # the Release build's -march (CMake's own default: x86-64-v2)

build() {  # build <dir> <cmake args...>
    local dir="$1"; shift
    cmake -S "$top" -B "$top/$dir" "$@" >&2
    cmake --build "$top/$dir" -j "$jobs" >&2
}
release() { build build/release -DCMAKE_BUILD_TYPE=Release -DKLINZHA_ARCH="$arch"; }

cmd="${1:-run}"
[ $# -gt 0 ] && shift
if [ "$cmd" = test ]; then install_packages "${test_packages[@]}"; else install_packages; fi
case "$cmd" in
    build)
        release
        ;;
    run)
        release
        exec "$top/build/release/klinzha" "$@"
        ;;
    gui)
        release
        exec "$top/build/release/klinzha-gui" "$@"
        ;;
    test)
        release
        label_args=()
        [ "${KLINZHA_SKIP_SLOW:-0}" = 1 ] && label_args=(-LE slow)
        (cd "$top/build/release" && ctest --output-on-failure -j "$jobs" "${label_args[@]}" "$@")
        if [ "${KLINZHA_NO_SANITIZE:-0}" != 1 ]; then
            # clang with ASan and UBSan (and the fuzzers' coverage): the second compiler and
            # the sanitizers in one build, which tools/fuzz.sh then reuses.
            build build/fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
                -DKLINZHA_FUZZ=ON
            (cd "$top/build/fuzz" && ASAN_OPTIONS=allocator_may_return_null=1 \
                ctest --output-on-failure -j "$jobs" -LE "slow|gui" "$@")
            if [ "${KLINZHA_NO_FUZZ:-0}" != 1 ]; then bash "$top/tools/fuzz.sh" 15; fi
        fi
        if [ "${KLINZHA_NO_TSAN:-0}" != 1 ]; then  # threads: search, stop, ponder, matches
            build build/tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKLINZHA_TSAN=ON
            (cd "$top/build/tsan" && ctest --output-on-failure -j "$jobs" -LE "slow|gui" "$@")
        fi
        ;;
    *)
        echo "usage: tools/setup.sh run|test|build|gui [args...]" >&2
        exit 2
        ;;
esac
