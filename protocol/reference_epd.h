// protocol/reference_epd.h: the perft reference positions built into the binary
// (format of shared/perft/README.md: `<position> ;<options> ;D1 <n> ;D2 <n> ...` a line).
#pragma once

namespace klinzha {
extern const char* const kReferenceEpd;
}
