// engine/clouds.h: drawing clouded cells (SPEC 16) the way every tool of the project does,
// so that a seed names the same clouds everywhere (match runner, GUI, tests).
//
// Source: SPEC 16 (the procedure, splitmix64 and a partial Fisher-Yates shuffle of the cells
// in the order of the SPEC 1 table).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "types.h"

namespace klinzha {

/// The splitmix64 generator of SPEC 16: each call adds 0x9E3779B97F4A7C15 to the state and
/// returns the mixed value.
class SplitMix64 {
  public:
    explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next();

  private:
    std::uint64_t state_;
};

/// Draws clouds from seed S: `lo` cells when lo == hi, else lo + next() mod (hi - lo + 1)
/// cells (0 <= lo <= hi <= 81). Returns the cells sorted by name, as the `clouds` field
/// writes them. Errors: none (lo and hi are clamped to 0..81, hi to at least lo).
std::vector<Cell> draw_clouds(std::uint64_t seed, int lo, int hi);

/// The `clouds=` field for cells (SPEC 10), "" for none.
std::string clouds_field(const std::vector<Cell>& cells);

}  // namespace klinzha
