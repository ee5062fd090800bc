// tests/fuzz/fuzz_uci.cpp: libFuzzer target over protocol lines (UciSession::handle_command).
// The input is split into lines, fed to one session (kept between inputs, Hash 1 MiB), then
// `stop` and `isready`: no input may crash, hang or leak. Lines that would name a file
// (`Debug Log File`) are skipped so the fuzzer writes nothing to disk.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "uci.h"

namespace {
klinzha::uci::UciSession& session() {
    static klinzha::uci::UciSession s([](std::string_view) {});
    static bool init = [] {
        s.handle_command("setoption name Hash value 1");
        return true;
    }();
    (void)init;
    return s;
}
bool names_a_file(std::string_view line) {
    std::string lower(line);
    for (auto& c : lower) c = char(std::tolower(static_cast<unsigned char>(c)));
    return lower.find("log") != std::string::npos || lower.find("hash") != std::string::npos;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    auto& s = session();
    std::string_view text(reinterpret_cast<const char*>(data), size);
    std::size_t start = 0;
    while (start <= text.size()) {
        auto nl = text.find('\n', start);
        auto line =
            text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
        if (line.rfind("quit", 0) != 0 && !names_a_file(line)) s.handle_command(line);
        if (nl == std::string_view::npos) break;
        start = nl + 1;
    }
    s.handle_command("stop");
    s.wait_task();
    s.engine().wait();
    return 0;
}
