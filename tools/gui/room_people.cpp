// tools/gui/room_people.cpp: what people do in a room (room.h): take a seat, arrive and leave,
// move, offer and accept draws (SPEC 27), resign, abort, and take moves back. Each returns
// the error words a page shows, or nullopt; a refused action changes nothing.
#include "room.h"

#include <spdlog/spdlog.h>

#include "engine/combat.h"
#include "engine/geometry.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/record.h"
#include "engine/svg.h"
#include "room_words.h"
#include "store.h"
#include "util.h"

namespace klinzha::gui {

using nlohmann::json;

namespace {

/// A person's name: 1-40 printable ASCII characters, trimmed.
std::optional<std::string> clean_name(const std::string& in) {
    const auto b = in.find_first_not_of(' ');
    if (b == std::string::npos) return std::nullopt;
    std::string s = in.substr(b, in.find_last_not_of(' ') - b + 1);
    if (s.size() > 40) return std::nullopt;
    for (unsigned char ch : s)
        if (ch < 0x20 || ch > 0x7e) return std::nullopt;
    return s;
}

}  // namespace

// -- People ------------------------------------------------------------------------------

std::optional<std::string> Room::sit(Colour c, const std::string& name, std::string& token) {
    const auto clean = clean_name(name);
    if (!clean) return "a name is 1 to 40 printable characters";
    std::lock_guard control(control_m_);
    {
        std::lock_guard lock(m_);
        if (c >= settings_.players) return "this game has no such seat";
        if (status_ != Status::Waiting) return "the game has started: watch it";
        if (!settings_.seats[c].person) return "an engine sits there";
        if (!tokens_[c].empty()) return "that seat is taken";
        token = random_hex(128);
        tokens_[c] = token;
        game_.names[c] = *clean;
        absent_since_[c] = present_[c] ? 0 : steady_ms();
        bool free_seat = false;
        for (int o = 0; o < settings_.players; ++o)
            free_seat |= settings_.seats[o].person && tokens_[o].empty();
        if (!free_seat) start_game();
    }
    changed();
    return std::nullopt;
}

std::optional<Colour> Room::seat_of(const std::string& token) const {
    if (token.size() != 32) return std::nullopt;
    std::lock_guard lock(m_);
    for (int c = 0; c < settings_.players; ++c)
        if (!tokens_[c].empty() && tokens_[c] == token) return Colour(c);
    return std::nullopt;
}

void Room::attach(std::optional<Colour> c) {
    {
        std::lock_guard lock(m_);
        if (!c) {
            ++spectators_;
            return;
        }
        ++present_[*c];
        absent_since_[*c] = 0;
    }
    changed();
}

void Room::detach(std::optional<Colour> c) {
    {
        std::lock_guard lock(m_);
        if (!c) {
            spectators_ = std::max(0, spectators_ - 1);
            return;
        }
        if (present_[*c] > 0 && --present_[*c] == 0) absent_since_[*c] = steady_ms();
    }
    changed();
}

std::optional<std::string> Room::move(Colour seat, const std::string& text) {
    HumanPlayer* h = nullptr;
    {
        std::lock_guard lock(m_);
        if (status_ != Status::Running) return "no game is running here";
        const Position pos = position_at_locked(-1);
        if (pos.to_move() != seat) return "it is not your turn";
        h = humans_[seat];
        if (!h || !h->waiting()) return "it is not your turn yet";
        if (blind_locked()) {  // SPEC 25: a proposal legal in the seat's own view, not refused
            const auto v = blind_view_locked(seat, -1);
            if (!v) return "no view of this game for your seat";
            auto m = parse_move(v->position(), text);
            if (auto* err = std::get_if<std::string>(&m)) return *err;
            const auto props = v->proposals();
            if (std::find(props.begin(), props.end(), std::get<Move>(m)) == props.end())
                return "that proposal was refused already this turn";
        } else {
            auto m = parse_move(pos, text);
            if (auto* err = std::get_if<std::string>(&m)) return *err;
        }
    }
    if (!h->submit(text)) return "the move came too late";
    return std::nullopt;
}

std::optional<std::string> Room::cannot_act_locked(Colour seat) const {
    if (status_ != Status::Running) return "no game is running here";
    if (!is_in_locked(seat)) return "you are out of the game";
    return std::nullopt;
}

std::optional<std::string> Room::offer_draw(Colour seat) {
    std::lock_guard control(control_m_);
    std::unique_lock lock(m_);
    if (auto err = cannot_act_locked(seat)) return err;
    for (int c = 0; c < settings_.players; ++c)
        if (c != seat && is_in_locked(Colour(c)) && !settings_.seats[c].person)
            return "an engine does not accept draw offers";
    if (!draw_offer_[seat]) {
        draw_offer_[seat] = true;
        // Written `(=)` after the offerer's last move (SPEC 11.1, 27).
        for (std::size_t i = game_.moves.size(); i-- > 0;)
            if (std::string& alg = game_.moves[i].algebraic; game_.moves[i].mover == seat) {
                if (alg.find("(=)") == std::string::npos) alg += "(=)";
                break;
            }
    }
    bool all = true;
    for (int c = 0; c < settings_.players; ++c)
        if (is_in_locked(Colour(c))) all &= draw_offer_[c];
    if (all) {
        stop_referee(lock);
        std::array<Outcome, kColours> o{};
        for (int c = 0; c < kColours; ++c)
            o[c] = is_in_locked(Colour(c)) ? Outcome::Draw : Outcome::Loss;
        finish("draw by agreement", o);
    }
    lock.unlock();
    changed();
    return std::nullopt;
}

std::optional<std::string> Room::decline_draw(Colour seat) {
    {
        std::lock_guard lock(m_);
        bool any = false;
        for (int c = 0; c < kColours; ++c) any |= c != seat && draw_offer_[c];
        if (!any) return "there is no draw offer";
        for (int c = 0; c < kColours; ++c)
            if (c != seat) draw_offer_[c] = false;
    }
    changed();
    return std::nullopt;
}

std::optional<std::string> Room::resign(Colour seat) {
    std::lock_guard control(control_m_);
    std::unique_lock lock(m_);
    if (auto err = cannot_act_locked(seat)) return err;
    if (settings_.players == 2) {
        stop_referee(lock);
        std::array<Outcome, kColours> o{Outcome::Win, Outcome::Win, Outcome::Draw};
        o[seat] = Outcome::Loss;
        finish(game_.names[seat] + " resigns", o);
    } else if (auto* h = humans_[seat]) {
        h->resign();  // out at once when to move, else at the next turn (SPEC 7)
    }
    lock.unlock();
    changed();
    return std::nullopt;
}

std::optional<std::string> Room::abort_game(Colour seat) {
    std::lock_guard control(control_m_);
    std::unique_lock lock(m_);
    if (status_ != Status::Running && status_ != Status::Waiting)
        return "there is no game to abort";
    for (std::size_t i = first_ply_; i < game_.moves.size(); ++i)
        if (!game_.moves[i].setup) return "the game has begun: offer a draw or resign";
    stop_referee(lock);
    finish("aborted by " + shown_name_locked(seat), std::nullopt);
    lock.unlock();
    changed();
    return std::nullopt;
}

std::optional<std::string> Room::ask_takeback(Colour seat) {
    std::unique_lock lock(m_);
    if (auto err = cannot_act_locked(seat)) return err;
    if (!has_moved_locked(seat)) return "you have made no move to take back";
    for (int c = 0; c < settings_.players; ++c)
        if (c != seat && !settings_.seats[c].person && is_in_locked(Colour(c)) &&
            !settings_.tc.empty())
            return "an engine on the clock does not take moves back";
    takeback_by_ = seat;
    takeback_yes_ = {};
    takeback_yes_[seat] = true;
    lock.unlock();
    return answer_takeback(seat, true);
}

std::optional<std::string> Room::answer_takeback(Colour seat, bool accept) {
    std::lock_guard control(control_m_);
    std::unique_lock lock(m_);
    if (takeback_by_ == NO_COLOUR) return "nobody asked to take back";
    if (!accept) {
        takeback_by_ = NO_COLOUR;
        lock.unlock();
        changed();
        return std::nullopt;
    }
    takeback_yes_[seat] = true;
    for (int c = 0; c < settings_.players; ++c)
        if (settings_.seats[c].person && is_in_locked(Colour(c)) && !takeback_yes_[c]) {
            lock.unlock();
            changed();  // waits for the others
            return std::nullopt;
        }
    const Colour by = takeback_by_;
    // The running clock keeps the time its player used before the take-back.
    if (clock_running_ != NO_COLOUR && clock_ms_[clock_running_] >= 0)
        clock_ms_[clock_running_] -= steady_ms() - clock_stamp_ms_;
    const auto clocks = clock_ms_;
    stop_referee(lock);
    clock_ms_ = clocks;
    // Back to before the requester's last move (an engine's answer goes with it).
    std::size_t n = game_.moves.size();
    while (n > 0 && game_.moves[n - 1].mover != by) --n;
    if (n == 0)
        n = game_.moves.size();  // (cannot happen: checked when asked)
    else
        --n;
    game_.truncate(n);
    hinted_.erase(hinted_.lower_bound(n), hinted_.end());  // moves taken back: hints too
    takeback_by_ = NO_COLOUR;
    draw_offer_ = {};
    for (auto* h : humans_)
        if (h) h->reset();
    start_referee();
    lock.unlock();
    changed();
    return std::nullopt;
}

}  // namespace klinzha::gui
