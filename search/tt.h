// search/tt.h: the transposition table, shared by all search threads (Lazy SMP).
//
// Layout: buckets of 4 entries of 16 bytes (one 64-byte cache line). An entry is two
// 64-bit words, `check` = key ^ data and `data`, written and read with relaxed atomics;
// a torn entry fails the key check and is ignored (lock-free, Hyatt and Mann 2002).
// data bit layout:
//   bits  0-20 : move (Move::raw(), 21 bits)
//   bits 21-36 : score (int16, mate scores relative to the node)
//   bits 37-44 : depth + 1 (uint8; 0 = empty)
//   bits 45-46 : bound (1 upper, 2 lower, 3 exact)
//   bits 47-54 : generation (uint8), for aging
// Replacement: the entry with the same key, else the one with the least
// depth - 8 * age. Size is set in MiB (the `Hash` option); the memory comes in huge pages
// where the system gives them (engine/memory.h).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "engine/memory.h"
#include "engine/types.h"

namespace klinzha {

enum Bound : std::uint8_t { BOUND_NONE = 0, BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 };

/// What probe() found.
struct TTHit {
    Move move;
    int score = 0;
    int depth = -1;
    Bound bound = BOUND_NONE;
};

class TranspositionTable {
  public:
    /// Allocates mib MiB (at least 1) and clears the table; the same size again does
    /// nothing (the entries stay). The old table is freed first, so peak memory is one table.
    /// Throws std::bad_alloc if the memory cannot be had; the table then has its old size
    /// again (or 1 MiB if even that cannot be had back), cleared.
    void resize(std::size_t mib);
    /// Empties every entry (ucinewgame).
    void clear();
    /// Starts a new search: entries of older searches age.
    void new_search() { generation_ = std::uint8_t(generation_ + 1); }
    /// Looks up key. Returns true and fills hit when an entry for key is stored.
    bool probe(std::uint64_t key, TTHit& hit) const;
    /// Asks the CPU to load key's bucket into the cache (no effect on the contents): called
    /// when the key is known, well before probe().
    void prefetch(std::uint64_t key) const { __builtin_prefetch(&bucket(key)); }
    /// Stores an entry for key (see the replacement rule above). depth in plies (>= -1).
    void store(std::uint64_t key, Move m, int score, int depth, Bound b);
    /// Permille of sampled entries written in the current search (UCI `hashfull`).
    int hashfull() const;
    std::size_t size_mib() const { return mib_; }

  private:
    struct Entry {
        std::atomic<std::uint64_t> check{0};
        std::atomic<std::uint64_t> data{0};
    };
    struct alignas(64) Bucket {
        Entry e[4];
    };
    Bucket& bucket(std::uint64_t key) const {
        return buckets_[(static_cast<unsigned __int128>(key) * count_) >> 64];
    }

    LargeMemory memory_;         ///< the buckets' storage (huge pages where available)
    Bucket* buckets_ = nullptr;  ///< count_ buckets in memory_
    std::size_t count_ = 0;
    std::size_t mib_ = 0;
    std::uint8_t generation_ = 0;
};

}  // namespace klinzha
