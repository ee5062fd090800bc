// eval/nnue/default_net.cpp: the network built into the executable (network.h,
// default_network). The build passes KLINZHA_NNUE_FILE, the path of eval/nnue/default.nnue,
// when that file exists; the bytes are included as they are (.incbin), so the executable
// needs no file at run time.
#include "network.h"

#ifdef KLINZHA_NNUE_FILE
__asm__(
    ".section .rodata\n"
    ".balign 64\n"
    ".global klinzha_nnue_default_begin\n"
    "klinzha_nnue_default_begin:\n"
    ".incbin \"" KLINZHA_NNUE_FILE
    "\"\n"
    ".global klinzha_nnue_default_end\n"
    "klinzha_nnue_default_end:\n"
    ".previous\n");
extern "C" const unsigned char klinzha_nnue_default_begin[];
extern "C" const unsigned char klinzha_nnue_default_end[];
#endif

namespace klinzha::nnue {

const Network* default_network() {
#ifdef KLINZHA_NNUE_FILE
    static const std::unique_ptr<Network> net = [] {
        auto r = Network::read(klinzha_nnue_default_begin,
                               std::size_t(klinzha_nnue_default_end - klinzha_nnue_default_begin));
        return std::holds_alternative<std::unique_ptr<Network>>(r)
                   ? std::move(std::get<std::unique_ptr<Network>>(r))
                   : nullptr;
    }();
    return net.get();
#else
    return nullptr;
#endif
}

}  // namespace klinzha::nnue
