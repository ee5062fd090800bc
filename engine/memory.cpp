// engine/memory.cpp: see memory.h.
#include "memory.h"

#include <cstdlib>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace klinzha {

void LargeFree::operator()(void* p) const noexcept {
    std::free(p);
}

LargeMemory allocate_large(std::size_t bytes) {
    constexpr std::size_t kAlign = std::size_t(2) << 20;
    const std::size_t size = (bytes + kAlign - 1) / kAlign * kAlign;
    void* p = std::aligned_alloc(kAlign, size);
    if (!p) throw std::bad_alloc();
#if defined(MADV_HUGEPAGE)
    madvise(p, size, MADV_HUGEPAGE);  // advice only: failure leaves ordinary pages
#endif
    return LargeMemory(p);
}

}  // namespace klinzha
