// engine/memory.h: large tables in large pages.
//
// The transposition table and the evaluation cache are read at random: with 4 KiB pages
// nearly every probe also misses the TLB. Memory from allocate_large() is aligned to 2 MiB
// and, on Linux, marked for transparent huge pages (madvise MADV_HUGEPAGE), which the
// kernel honours when its setting is "madvise" or "always" (Stockfish does the same).
// Elsewhere it is ordinary aligned memory.
#pragma once

#include <cstddef>
#include <memory>

namespace klinzha {

/// Frees memory from allocate_large().
struct LargeFree {
    void operator()(void* p) const noexcept;
};

using LargeMemory = std::unique_ptr<void, LargeFree>;

/// `bytes` bytes (> 0), uninitialised, aligned to 2 MiB, advised for huge pages. The size is
/// rounded up to whole 2 MiB internally. Throws std::bad_alloc when the memory cannot be had.
LargeMemory allocate_large(std::size_t bytes);

}  // namespace klinzha
