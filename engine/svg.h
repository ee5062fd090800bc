// engine/svg.h: a picture of a position as SVG: the one drawing code path of `klinzha svg`,
// the documentation's pictures and klinzha-gui's board (the server sends this markup to
// the page, which only attaches clicks to it).
//
// The board is the 81-cell triangle of SPEC 1 (docs/rules.md section 1), drawn point down
// with the viewer's region at the bottom (the strip coordinates are permuted cyclically, a
// rotation by 120 degrees). Each cell is a <g data-cell="<name>"> holding its triangle; a man
// is a <g data-man="<colour><letter>"> inside it (`gQ`, `bH` for a heart standing alone).
// Regions and separators are shaded, wall zones tinted in the owner's colour, clouds and
// ablated cells marked, the last move outlined, and row letters and column digits written
// along the edges. Source: SPEC 1 (cells, regions, separators), 4 (hearts), 5 (zones), 16
// (clouds), 17 (ablation).
#pragma once

#include <string>

#include "position.h"

namespace klinzha {

/// What to draw besides the position.
struct SvgOptions {
    Colour view = BLACK;      ///< whose region is at the bottom (Black: row a at the bottom)
    bool names = false;       ///< write every cell's name in it
    Move last_move;           ///< outlined (none: the position's own last move, if any)
    Bitboard marked = 0;      ///< cells drawn with a highlight (legal destinations, say)
    Cell selected = NO_CELL;  ///< a cell drawn as picked
    /// Cells whose man or heart is not drawn (what a seat may not see: klinzha-gui's views,
    /// the Blind game of SPEC 25).
    Bitboard hidden = 0;
    /// Cells drawn with a cross: where a Blind player lost men (SPEC 25: it is told the cell).
    Bitboard crossed = 0;
    int size_px = 640;  ///< width of the picture in pixels
};

/// The SVG document (a complete <svg> element, UTF-8) of pos under opts. Never fails.
std::string board_svg(const Position& pos, const SvgOptions& opts = {});

}  // namespace klinzha
