// engine/svg.cpp: see svg.h. Source: SPEC 1, 4, 5, 16, 17.
#include "svg.h"

#include <array>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "geometry.h"

namespace klinzha {
namespace {

constexpr std::array<const char*, kColours> kFill = {"#1f8a4c", "#2456c9", "#202020"};
constexpr std::array<const char*, kColours> kTint = {"#cfe9d8", "#d3ddf6", "#d2d2d2"};
constexpr std::array<const char*, kColours> kRegion = {"#f1f8f3", "#f1f4fc", "#f2f2f2"};
constexpr const char* kSeparator = "#fff6d6";
constexpr const char* kHeart = "#d11a2a";

/// The original axis (0 = u, 1 = v, 2 = w) drawn in place of axis a for viewer `view`:
/// a cyclic permutation, so the picture is the board turned, never mirrored.
int source_axis(Colour view, int a) {
    const int shift = view == BLACK ? 0 : view == GREEN ? 1 : 2;
    return (a + shift) % 3;
}

/// The label of the strip with original axis `axis` and coordinate `value` (SPEC 1): a row
/// letter for u, the smaller column digit R for v, the larger L for w.
std::string strip_label(int axis, int value) {
    if (axis == 0) return std::string(1, char('a' + 8 - value));
    return std::string(1, char('0' + (axis == 1 ? value + 1 : 9 - value)));
}

struct Layout {
    double side, h, cx, top;
    /// Drawn row (1 = bottom point .. 9 = top edge) and index in it of cell c.
    std::pair<int, int> place(Colour view, Cell c) const {
        const auto& ci = geo::info(c);
        const int u = ci.coord[source_axis(view, 0)];
        const int w = ci.coord[source_axis(view, 2)];
        return {9 - u, 2 * w + (ci.up ? 1 : 0)};
    }
    /// The triangle's three corners.
    std::array<std::pair<double, double>, 3> corners(int r, int k) const {
        const double yt = top + (9 - r) * h, yb = yt + h;
        const double x0 = cx - r * side / 2;
        const int w = k / 2;
        if (k % 2 == 0)  // points down
            return {
                {{x0 + w * side, yt}, {x0 + (w + 1) * side, yt}, {x0 + w * side + side / 2, yb}}};
        return {{{x0 + w * side + side / 2, yb},
                 {x0 + (w + 1) * side + side / 2, yb},
                 {x0 + (w + 1) * side, yt}}};
    }
};

std::string num(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.1f", v);
    return b;
}

}  // namespace

namespace {

/// The man on cell c (or the heart alone there) drawn at its centre (gx, gy) with `name`:
/// its colour's disc and letter, Kinta's strength, the badge of a heart it carries (SPEC 4,
/// 26); `up_shift` places it in an up or down triangle.
void draw_man(std::ostream& o, const Position& pos, const SvgOptions& opts, Cell c,
              const std::string& name, double gx, double gy, double up_shift) {
    const Man m = test(opts.hidden, c) ? kNoMan : pos.man_on(c);
    Colour heart_owner = NO_COLOUR;
    for (int col = 0; col < kColours; ++col)
        if (pos.heart(Colour(col)) == c && !test(opts.hidden, c)) heart_owner = Colour(col);
    if (m != kNoMan) {
        const Colour col = man_colour(m);
        const char letter = kPieceChar[man_type(m)];
        o << "<g data-man=\"" << kColourChar[col] << letter << "\""
          << " class=\"man\"><title>" << name << ": " << kColourName[col] << " "
          << kPieceName[man_type(m)]
          << (heart_owner != NO_COLOUR
                  ? std::string(", carrying ") + kColourName[heart_owner] + "'s heart"
                  : std::string())
          << (pos.kinta() ? ", strength " + std::to_string(pos.strength(c)) : std::string())
          << "</title>"
          << "<circle cx=\"" << num(gx) << "\" cy=\"" << num(gy + up_shift) << "\" r=\"14\" fill=\""
          << kFill[col] << "\" stroke=\"#fff\" stroke-width=\"1.5\"/>"
          << "<text x=\"" << num(gx) << "\" y=\"" << num(gy + up_shift + 5)
          << "\" text-anchor=\"middle\" font-size=\"15\" font-weight=\"bold\" fill=\"#fff\">"
          << letter << "</text>";
        if (pos.kinta())  // SPEC 26: the warrior's strength
            o << "<text class=\"strength\" x=\"" << num(gx) << "\" y=\"" << num(gy + up_shift + 24)
              << "\" text-anchor=\"middle\" font-size=\"9\" "
              << "fill=\"#222\">" << pos.strength(c) << "</text>";
        if (heart_owner != NO_COLOUR)
            o << "<text class=\"carried-heart\" x=\"" << num(gx + 12) << "\" y=\""
              << num(gy + up_shift - 7) << "\" text-anchor=\"middle\" font-size=\"14\" fill=\""
              << kHeart << "\">&#9829;</text>";
        o << "</g>";
    } else if (heart_owner != NO_COLOUR) {
        o << "<g data-man=\"" << kColourChar[heart_owner] << "H\" class=\"man heart-alone\">"
          << "<title>" << name << ": " << kColourName[heart_owner] << "'s heart, alone</title>"
          << "<text x=\"" << num(gx) << "\" y=\"" << num(gy + up_shift + 8)
          << "\" text-anchor=\"middle\" font-size=\"28\" fill=\"" << kHeart << "\" stroke=\""
          << kFill[heart_owner] << "\" stroke-width=\"1.5\">&#9829;</text></g>";
    }
}

/// Cell c drawn as a group: its triangle filled by region, separator, zone (`zone_of`, per
/// colour) or ablation, outlined when it is in `last_cells`; a cloud, the marks of `opts`,
/// its man or heart (draw_man) and, with opts.names, its name.
void draw_cell(std::ostream& o, const Position& pos, const SvgOptions& opts, const Layout& L,
               Cell c, const Bitboard (&zone_of)[kColours], Bitboard last_cells) {
    const auto [r, k] = L.place(opts.view, c);
    const auto pts = L.corners(r, k);
    const std::string name = geo::cell_name(c);
    // Fill: a zone's owner tint, else region or separator shade.
    std::string fill = "#ffffff";
    for (int col = 0; col < pos.players(); ++col)
        if (test(geo::region(Colour(col)), c)) fill = kRegion[col];
    if (test(geo::separators(), c)) fill = kSeparator;
    for (int col = 0; col < kColours; ++col)
        if (test(zone_of[col], c)) fill = kTint[col];
    if (test(pos.ablated(), c)) fill = "#8a8a8a";
    const double gx = (pts[0].first + pts[1].first + pts[2].first) / 3;
    const double gy = (pts[0].second + pts[1].second + pts[2].second) / 3;
    o << "<g data-cell=\"" << name << "\" class=\"cell\"><title>" << name << "</title>"
      << "<polygon points=\"";
    for (const auto& [x, y] : pts) o << num(x) << ',' << num(y) << ' ';
    const bool last_here = test(last_cells, c);
    o << "\" fill=\"" << fill << "\" stroke=\"" << (last_here ? "#e0a000" : "#777")
      << "\" stroke-width=\"" << (last_here ? 3 : 1) << "\"/>";
    if (test(pos.clouds(), c))
        o << "<circle class=\"cloud\" cx=\"" << num(gx) << "\" cy=\"" << num(gy)
          << "\" r=\"16\" fill=\"#b8c4d0\" opacity=\"0.6\"/>";
    if (test(opts.marked, c))
        o << "<circle class=\"mark\" cx=\"" << num(gx) << "\" cy=\"" << num(gy)
          << "\" r=\"7\" fill=\"#e0a000\" opacity=\"0.8\"/>";
    if (test(opts.crossed, c))
        o << "<path class=\"lost\" d=\"M" << num(gx - 8) << ',' << num(gy - 8) << " L"
          << num(gx + 8) << ',' << num(gy + 8) << " M" << num(gx + 8) << ',' << num(gy - 8) << " L"
          << num(gx - 8) << ',' << num(gy + 8)
          << "\" stroke=\"#b00020\" stroke-width=\"3\" opacity=\"0.7\"/>";
    if (c == opts.selected)
        o << "<polygon class=\"selected\" points=\"" << num(pts[0].first) << ','
          << num(pts[0].second) << ' ' << num(pts[1].first) << ',' << num(pts[1].second) << ' '
          << num(pts[2].first) << ',' << num(pts[2].second)
          << "\" fill=\"none\" stroke=\"#e0a000\" stroke-width=\"4\"/>";
    draw_man(o, pos, opts, c, name, gx, gy, (k % 2 == 0) ? -2 : 4);
    if (opts.names)
        o << "<text class=\"name\" x=\"" << num(gx) << "\" y=\"" << num(gy + (k % 2 == 0 ? 14 : 17))
          << "\" text-anchor=\"middle\" font-size=\"9\" fill=\"#555\">" << name << "</text>";
    o << "</g>\n";
}

/// Edge labels: drawn rows on the right (strips of drawn axis u), strips of drawn axis v on
/// the left, of drawn axis w along the top (docs/rules.md section 1), for `view` at the bottom.
void draw_edges(std::ostream& o, const Layout& L, Colour view) {
    const int au = source_axis(view, 0), av = source_axis(view, 1), aw = source_axis(view, 2);
    for (int r = 1; r <= 9; ++r) {
        const double y = L.top + (9 - r) * L.h + L.h / 2 + 4;
        const double xl = L.cx - r * L.side / 2 + L.side / 4 - 14;
        const double xr = L.cx + r * L.side / 2 - L.side / 4 + 14;
        o << "<text class=\"edge\" x=\"" << num(xr) << "\" y=\"" << num(y)
          << "\" font-size=\"13\" fill=\"#333\">" << strip_label(au, 9 - r) << "</text>";
        o << "<text class=\"edge\" x=\"" << num(xl) << "\" y=\"" << num(y)
          << "\" text-anchor=\"end\" font-size=\"13\" fill=\"#333\">" << strip_label(av, r - 1)
          << "</text>";
    }
    for (int w = 0; w <= 8; ++w) {
        const double x = L.cx - 9 * L.side / 2 + w * L.side + L.side / 2;
        o << "<text class=\"edge\" x=\"" << num(x) << "\" y=\"" << num(L.top - 10)
          << "\" text-anchor=\"middle\" font-size=\"13\" fill=\"#333\">" << strip_label(aw, w)
          << "</text>";
    }
}

}  // namespace

std::string board_svg(const Position& pos, const SvgOptions& opts) {
    const double margin = 34;
    const double width = 640;
    Layout L;
    L.side = (width - 2 * margin) / 9;
    L.h = L.side * std::sqrt(3.0) / 2;
    L.cx = width / 2;
    L.top = margin;
    const double height = L.top + 9 * L.h + margin;
    const Move last = opts.last_move.is_none() ? pos.state().last_move : opts.last_move;
    Bitboard last_cells = 0;
    if (last.kind() == Move::Normal) last_cells = bit(last.from()) | bit(last.to());
    if (last.kind() == Move::Place || last.kind() == Move::PlaceHeart) last_cells = bit(last.to());
    if (last_cells & opts.hidden) last_cells = 0;  // a hidden man's move is not shown

    Bitboard zone_of[kColours] = {};
    for (int c = 0; c < kColours; ++c) zone_of[c] = geo::neighbours_of(pos.pieces(Colour(c), WALL));

    std::ostringstream o;
    o << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"kz-board\" viewBox=\"0 0 " << num(width)
      << ' ' << num(height) << "\" width=\"" << opts.size_px << "\" height=\""
      << int(opts.size_px * height / width) << "\" font-family=\"sans-serif\">\n";
    o << "<rect width=\"100%\" height=\"100%\" fill=\"#fbfaf7\"/>\n";
    for (Cell c = 0; c < kCells; ++c) draw_cell(o, pos, opts, L, c, zone_of, last_cells);
    draw_edges(o, L, opts.view);
    o << "</svg>\n";
    return o.str();
}

}  // namespace klinzha
