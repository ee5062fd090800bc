// tools/gui/room_words.h: the words a room's JSON uses (its stored state and its views), in
// one place: a room's status, a colour's outcome, the phase (SPEC 6). Internal to the room's
// files (room.cpp, room_store.cpp, room_view.cpp).
#pragma once

#include <string>

#include "engine/game.h"
#include "engine/position.h"
#include "room.h"

namespace klinzha::gui {

/// The phase as the views name it (SPEC 6).
inline const char* phase_name(Phase p) {
    return p == Phase::Place ? "place" : p == Phase::Heart ? "heart" : "play";
}

/// A room's status as the store and the views name it.
inline const char* status_name(Room::Status s) {
    switch (s) {
        case Room::Status::Waiting:
            return "waiting";
        case Room::Status::Running:
            return "running";
        case Room::Status::Over:
            return "over";
        case Room::Status::Review:
            return "review";
    }
    return "?";
}

/// A colour's outcome as the store and the views name it, and read back (anything else is
/// a draw).
inline const char* outcome_name(Outcome o) {
    return o == Outcome::Win ? "win" : o == Outcome::Loss ? "loss" : "draw";
}

inline Outcome outcome_of(const std::string& s) {
    return s == "win" ? Outcome::Win : s == "loss" ? Outcome::Loss : Outcome::Draw;
}

}  // namespace klinzha::gui
