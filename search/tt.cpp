// search/tt.cpp: see tt.h.
#include "tt.h"

#include <algorithm>
#include <memory>

namespace klinzha {
namespace {
constexpr std::uint64_t pack(Move m, int score, int depth, Bound b, std::uint8_t gen) {
    return (std::uint64_t(m.raw()) & 0x1FFFFF) | (std::uint64_t(std::uint16_t(score)) << 21) |
           (std::uint64_t(std::uint8_t(depth + 1)) << 37) | (std::uint64_t(b) << 45) |
           (std::uint64_t(gen) << 47);
}
int depth_of(std::uint64_t d) {
    return int((d >> 37) & 0xFF) - 1;
}
/// An entry is in use when its stored depth + 1 is not zero.
bool in_use(std::uint64_t d) {
    return ((d >> 37) & 0xFF) != 0;
}
std::uint8_t gen_of(std::uint64_t d) {
    return std::uint8_t((d >> 47) & 0xFF);
}
}  // namespace

void TranspositionTable::resize(std::size_t mib) {
    mib = std::max<std::size_t>(mib, 1);
    if (buckets_ && mib == mib_) return;  // unchanged: keep the table and its entries
    const std::size_t old_mib = mib_;
    auto allocate = [this](std::size_t m) {
        const std::size_t count = m * 1024 * 1024 / sizeof(Bucket);
        memory_.reset();  // free before allocating: never two tables at once
        buckets_ = nullptr;
        count_ = 0;
        memory_ = allocate_large(count * sizeof(Bucket));
        buckets_ = static_cast<Bucket*>(memory_.get());
        std::uninitialized_value_construct_n(buckets_, count);  // every entry empty
        count_ = count;
        mib_ = m;
    };
    try {
        allocate(mib);
    } catch (const std::bad_alloc&) {
        try {
            allocate(std::max<std::size_t>(old_mib, 1));
        } catch (const std::bad_alloc&) {
            allocate(1);
        }
        throw;
    }
}

void TranspositionTable::clear() {
    for (std::size_t i = 0; i < count_; ++i)
        for (auto& e : buckets_[i].e) {
            e.check.store(0, std::memory_order_relaxed);
            e.data.store(0, std::memory_order_relaxed);
        }
    generation_ = 0;
}

bool TranspositionTable::probe(std::uint64_t key, TTHit& hit) const {
    if (!count_) return false;
    for (const auto& e : bucket(key).e) {
        std::uint64_t d = e.data.load(std::memory_order_relaxed);
        std::uint64_t c = e.check.load(std::memory_order_relaxed);
        if ((c ^ d) != key || !in_use(d)) continue;
        // The move field holds Move::raw() bits 0-20 (all of a move's bits).
        hit.move = Move::from_raw(std::uint32_t(d & 0x1FFFFF));
        hit.score = std::int16_t((d >> 21) & 0xFFFF);
        hit.depth = depth_of(d);
        hit.bound = Bound((d >> 45) & 3);
        return true;
    }
    return false;
}

void TranspositionTable::store(std::uint64_t key, Move m, int score, int depth, Bound b) {
    if (!count_) return;
    Bucket& bk = bucket(key);
    Entry* target = nullptr;
    int worst = 1 << 30;
    for (auto& e : bk.e) {
        std::uint64_t d = e.data.load(std::memory_order_relaxed);
        std::uint64_t c = e.check.load(std::memory_order_relaxed);
        if ((c ^ d) == key && in_use(d)) {  // same position: keep its move if none
            if (m.is_none()) m = Move::from_raw(std::uint32_t(d & 0x1FFFFF));
            if (b != BOUND_EXACT && depth < depth_of(d) - 2 && gen_of(d) == generation_) return;
            target = &e;
            break;
        }
        int age = std::uint8_t(generation_ - gen_of(d));
        int value = !in_use(d) ? -(1 << 20) : depth_of(d) - 8 * age;
        if (value < worst) {
            worst = value;
            target = &e;
        }
    }
    std::uint64_t d = pack(m, score, std::clamp(depth, -1, 250), b, generation_);
    target->data.store(d, std::memory_order_relaxed);
    target->check.store(key ^ d, std::memory_order_relaxed);
}

int TranspositionTable::hashfull() const {
    if (!count_) return 0;
    int used = 0, seen = 0;
    for (std::size_t i = 0; i < std::min<std::size_t>(count_, 250); ++i)
        for (const auto& e : buckets_[i].e) {
            std::uint64_t d = e.data.load(std::memory_order_relaxed);
            used += in_use(d) && gen_of(d) == generation_;
            ++seen;
        }
    return seen ? used * 1000 / seen : 0;
}

}  // namespace klinzha
