// tests/engine/memory_test.cpp: allocate_large (engine/memory.h) gives 2 MiB aligned memory
// of the size asked, usable to its last byte.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>

#include "engine/memory.h"

using namespace klinzha;

TEST_CASE("allocate_large: 2 MiB aligned, every byte writable, sizes below and above 2 MiB") {
    for (std::size_t bytes : {std::size_t(1), std::size_t(24) << 16, (std::size_t(5) << 20) + 3}) {
        LargeMemory m = allocate_large(bytes);
        REQUIRE(m);
        CHECK(reinterpret_cast<std::uintptr_t>(m.get()) % (std::uintptr_t(2) << 20) == 0);
        std::memset(m.get(), 0xA5, bytes);  // ASan reports any byte short of `bytes`
        CHECK(static_cast<unsigned char*>(m.get())[bytes - 1] == 0xA5);
    }
}
