// eval/nnue/default_net.cpp: the networks built into the executable (network.h,
// default_network, default_network_three). The build passes KLINZHA_NNUE_FILE, the path of
// eval/nnue/default.nnue, and KLINZHA_NNUE3_FILE, that of eval/nnue/default3.nnue, when those
// files exist; the bytes are included as they are (.incbin), so the executable needs no file
// at run time.
#include "network.h"

// KLINZHA_INCBIN(name, "file"): the file's bytes in .rodata, between the symbols
// name_begin and name_end (64-byte aligned).
#define KLINZHA_INCBIN(name, file)                 \
    __asm__(                                       \
        ".section .rodata\n"                       \
        ".balign 64\n"                             \
        ".global " #name "_begin\n" #name          \
        "_begin:\n"                                \
        ".incbin \"" file                          \
        "\"\n"                                     \
        ".global " #name "_end\n" #name            \
        "_end:\n"                                  \
        ".previous\n");                            \
    extern "C" const unsigned char name##_begin[]; \
    extern "C" const unsigned char name##_end[]

#ifdef KLINZHA_NNUE_FILE
KLINZHA_INCBIN(klinzha_nnue_default, KLINZHA_NNUE_FILE);
#endif
#ifdef KLINZHA_NNUE3_FILE
KLINZHA_INCBIN(klinzha_nnue_three, KLINZHA_NNUE3_FILE);
#endif

namespace klinzha::nnue {

namespace {
/// The network in [begin, end), or nullptr when it does not read.
std::unique_ptr<Network> read_embedded([[maybe_unused]] const unsigned char* begin,
                                       [[maybe_unused]] const unsigned char* end) {
    auto r = Network::read(begin, std::size_t(end - begin));
    return std::holds_alternative<std::unique_ptr<Network>>(r)
               ? std::move(std::get<std::unique_ptr<Network>>(r))
               : nullptr;
}
}  // namespace

const Network* default_network() {
#ifdef KLINZHA_NNUE_FILE
    static const std::unique_ptr<Network> net =
        read_embedded(klinzha_nnue_default_begin, klinzha_nnue_default_end);
    return net.get();
#else
    return nullptr;
#endif
}

const Network* default_network_three() {
#ifdef KLINZHA_NNUE3_FILE
    static const std::unique_ptr<Network> net =
        read_embedded(klinzha_nnue_three_begin, klinzha_nnue_three_end);
    return net.get();
#else
    return nullptr;
#endif
}

}  // namespace klinzha::nnue
