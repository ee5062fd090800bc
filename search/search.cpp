// search/search.cpp: the search itself (worker.h): iterative deepening with aspiration
// windows, the root, PVS nodes with their numbered steps, the quiescence and Kinta's chance
// nodes. Sources: SPEC 12 (hearts), 26 (Kinta); the field's PVS, null move, late move
// reductions and futility pruning as Stockfish numbers them.
#include <algorithm>
#include <cmath>
#include <limits>

#include "worker.h"

namespace klinzha::detail {

void Worker::init_root(const MoveList& legal) {
    for (Move m : legal) {
        if (!sh_.limits.searchmoves.empty() &&
            std::find(sh_.limits.searchmoves.begin(), sh_.limits.searchmoves.end(), m) ==
                sh_.limits.searchmoves.end())
            continue;
        root_moves.push_back({m, -kInfinite, -kInfinite, 0, {m}});
    }
}

void Worker::iterate(const SearchCallbacks& cb) {
    cb_ = &cb;
    const bool main = id_ == 0;
    const int multipv = std::min<int>(sh_.settings.multipv, int(root_moves.size()));
    int max_depth = sh_.limits.depth > 0 ? std::min(sh_.limits.depth, kMaxPly - 8) : kMaxPly - 8;
    // Placement: one player's placements come in a row (no opposing reply, so no
    // alpha-beta cut-offs), so deeper searches only multiply ~150-wide levels. The
    // setup is chosen two placements ahead by the evaluation (docs/search.md).
    if (pos_.phase() == Phase::Place) max_depth = std::min(max_depth, kPlacementDepth);
    root_in_danger = heart_in_danger();
    if (mcts_applies()) {  // three players by Monte Carlo tree search: the main worker alone
        if (main) mcts(cb);
        return;
    }
    // Three players: a draw shares the points (RH 11.1), so a root player who stands
    // better avoids repetitions; one who stands worse takes them.
    if (pos_.players() == 3 && pos_.phase() == Phase::Play)
        contempt_ = std::clamp(static_eval() / 4, 0, 50);
    for (int depth = 1 + (main ? 0 : (id_ & 1)); depth <= max_depth; ++depth) {
        root_depth_ = depth;
        for (auto& rm : root_moves) rm.prev_score = rm.score;
        Move prev_best = root_moves[0].move;
        for (int pv_idx = 0; pv_idx < multipv; ++pv_idx) {
            for (std::size_t i = pv_idx; i < root_moves.size(); ++i)
                root_moves[i].score = -kInfinite;
            int prev = root_moves[pv_idx].prev_score;
            int delta = 30;
            int alpha = -kInfinite, beta = kInfinite;
            if (depth >= 4 && std::abs(prev) < kMateBound) {
                alpha = std::max(prev - delta, -kInfinite);
                beta = std::min(prev + delta, kInfinite);
            }
            while (true) {
                seldepth_ = 0;
                int score = root_search(alpha, beta, depth, pv_idx);
                std::stable_sort(
                    root_moves.begin() + pv_idx, root_moves.end(),
                    [](const RootMove& a, const RootMove& b) { return a.score > b.score; });
                if (stopped()) break;
                if (score <= alpha) {
                    beta = (alpha + beta) / 2;
                    alpha = std::max(score - delta, -kInfinite);
                } else if (score >= beta) {
                    beta = std::min(score + delta, kInfinite);
                } else {
                    break;
                }
                delta += delta / 2 + 10;
            }
            if (stopped() && root_moves[pv_idx].score == -kInfinite) {
                // Nothing of this iteration finished: keep the previous order.
                std::stable_sort(root_moves.begin() + pv_idx, root_moves.end(),
                                 [](const RootMove& a, const RootMove& b) {
                                     return a.prev_score > b.prev_score;
                                 });
                for (std::size_t i = pv_idx; i < root_moves.size(); ++i)
                    root_moves[i].score = root_moves[i].prev_score;
                break;
            }
            if (main && !stopped()) report(cb, depth, pv_idx);
        }
        if (stopped()) break;
        completed_depth = depth;
        if (root_moves[0].move != prev_best) best_move_changes += 1;
        best_move_changes *= 0.6;
        if (!main) continue;
        // Stop conditions checked between iterations.
        const int best = root_moves[0].score;
        if (sh_.limits.mate > 0 && best >= kMateBound && mate_moves(best) <= sh_.limits.mate) break;
        // A proven heart capture: deeper iterations cannot change it.
        if (std::abs(best) >= kMateBound && depth >= kMate - std::abs(best) + 2 &&
            !sh_.limits.infinite && !sh_.pondering.load())
            break;
        if (!sh_.pondering.load() && !sh_.limits.infinite && sh_.budget.soft_ms >= 0) {
            std::int64_t soft = adjusted_soft(sh_.budget, best_move_changes, root_in_danger);
            if (sh_.elapsed_for_limits() >= soft) break;
        }
        // A forced move (the position's only legal one, not a `searchmoves` choice of one:
        // that asks for the move's score, as the blind search's candidates do): no need to
        // think long.
        if (root_moves.size() == 1 && sh_.limits.searchmoves.empty() && !sh_.limits.untimed() &&
            depth >= 4 && !sh_.pondering.load() && !sh_.limits.infinite)
            break;
    }
}

void Worker::check_limits() {
    if (id_ != 0) return;
    if (sh_.limits.nodes && sh_.nodes() >= sh_.limits.nodes) sh_.stop = true;
    if ((nodes.load(std::memory_order_relaxed) & 1023) != 0) return;
    progress(Move(), 0);
    if (sh_.pondering.load() || sh_.limits.infinite || sh_.budget.hard_ms < 0) return;
    // The hard limit stops the search once a root move has a score (its first iteration's
    // first move): a depth-1 iteration may itself outlast the clock.
    if (root_scored_ && sh_.elapsed_for_limits() >= sh_.budget.hard_ms) sh_.stop = true;
}

bool Worker::heart_in_danger_for(Colour own, Colour mover) const {
    if (pos_.players() == 3 && mover != root_ && !pos_.rules().reflective)
        return pos_.is_in(root_) && attacks_heart(pos_, root_, own);
    return heart_attacked(pos_, own);
}

bool Worker::can_take_deciding_heart() const {
    if (pos_.phase() != Phase::Play || pos_.rules().reflective) return false;
    const Colour stm = pos_.to_move();
    for (int o = 0; o < kColours; ++o)
        if (deciding_victim(Colour(o)) && attacks_heart(pos_, stm, Colour(o))) return true;
    return false;
}

bool Worker::deciding_victim(Colour v) const {
    const Colour stm = pos_.to_move();
    if (v == pos_.army(stm) || !pos_.is_in(v) || pos_.heart(v) == NO_CELL) return false;
    if (pos_.kinta() && pos_.man_on(pos_.heart(v)) != kNoMan) return false;
    return pos_.players_in() <= 2 || (v == root_ && team(stm) != team(root_));
}

int Worker::take_deciding_heart(int ply) {
    // Only the moves onto the deciding victims' hearts: a blind turn's boards hold lone
    // hearts within reach at many nodes, and every legal move generated there to find one
    // capture took a fifteenth of the turn's time.
    Bitboard hearts = 0;
    for (int o = 0; o < kColours; ++o)
        if (deciding_victim(Colour(o))) hearts |= bit(pos_.heart(Colour(o)));
    MoveList l;
    generate_legal_to(pos_, l, hearts);
    for (Move m : l)
        if (const Colour v = pos_.heart_victim(m); v != NO_COLOUR && deciding_victim(v)) {
            pv_[ply][ply] = m;
            pv_len_[ply] = ply + 1;
            break;
        }
    return mate_in(ply + 1);
}

int Worker::nnue_standing(Colour p) {
    const int idx = pos_.ply() - root_ply_;
    nnue::Accumulator& a = idx < kAccPlies ? acc_[std::size_t(idx)] : acc_scratch_;
    if (idx >= kAccPlies || (a.key != pos_.key() && !update_from_ancestor(idx)))
        a.refresh(*net_, pos_);
    if (a.output[p] == nnue::Accumulator::kNoOutput)
        a.output[p] = nnue::evaluate(*net_, a, pos_, p);
    return a.output[p];
}

bool Worker::update_from_ancestor(int idx) {
    const int ply = pos_.ply();
    int from = -1;
    for (int k = 1; k <= kAccWalk && idx - k >= 0; ++k)
        if (acc_[std::size_t(idx - k)].key == pos_.state_at(ply - k).key) {
            from = idx - k;
            break;
        }
    if (from < 0) return false;
    for (int j = from + 1; j <= idx; ++j) {
        const int pj = ply - (idx - j);
        if (!acc_[std::size_t(j)].update(*net_, acc_[std::size_t(j - 1)], pos_.state_at(pj - 1),
                                         pos_.state_at(pj), pos_))
            return false;
    }
    return true;
}

int Worker::toward_draw(int v) const {
    const int limit = pos_.move_count_limit();
    if (limit <= 0 || pos_.phase() != Phase::Play) return v;
    const int hm = std::min(pos_.halfmove(), limit);
    return v * (2 * limit - hm) / (2 * limit);
}

int Worker::heart_lateness(Colour us) const {
    if (pos_.players() != 3 || pos_.state().hearts_taken == pos_.state_at(root_ply_).hearts_taken)
        return 0;
    std::array<int, kColours> late{};
    for (int p = pos_.ply(); p > root_ply_; --p) {
        const auto& now = pos_.state_at(p).hearts_taken;
        const auto& before = pos_.state_at(p - 1).hearts_taken;
        for (int c = 0; c < kColours; ++c) late[c] += (now[c] - before[c]) * (p - root_ply_);
    }
    return kHeartLateness * eval::against_others(pos_, us, late);
}

int Worker::static_eval() {
    const int late = heart_lateness(root_);
    if (net_ && eval::nnue_applies(pos_)) {
        const int v = nnue_standing(root_) + eval::beside_network(pos_, root_) - late;
        return toward_draw(pos_.to_move() == root_ ? v : -v);
    }
    int v = toward_draw(eval::evaluate_for_mover(pos_, root_, eval_cache_) -
                        (pos_.to_move() == root_ ? late : -late));
    if (sh_.noise_seed && pos_.phase() != Phase::Play) {
        std::uint64_t h = (pos_.key() ^ sh_.noise_seed) * 0x9E3779B97F4A7C15ULL;
        v += int((h >> 60) % 11) - 5;  // vary choices among near-equal setups
    }
    return v;
}

Move Worker::with_likelier_outcome(Move m) const {
    if (!pos_.is_attack(m)) return m;
    const combat::Odds o = fight_odds(m);
    return o.win >= 0.5f ? m.with_outcome(false, o.attacker_strength)
                         : m.with_outcome(true, o.defender_strength);
}

void Worker::make_move(Move m, bool tt_child) {
    pos_.do_move(m);
    if (tt_child) sh_.tt.prefetch(pos_.key());
    eval_cache_.prefetch(pos_.key());
}

bool Worker::terminal(int ply, int& v) const {
    if (pos_.phase() != Phase::Play) return false;
    const Colour stm = pos_.to_move();
    if (pos_.players() == 3 && !pos_.is_in(root_)) {  // the root player's heart fell
        v = team(stm) == team(root_) ? mated_in(ply) : mate_in(ply);
        return true;
    }
    if (pos_.game_over()) {
        const Colour winner = pos_.winner();
        v = winner != NO_COLOUR && team(winner) == team(stm) ? mate_in(ply) : mated_in(ply);
        return true;
    }
    if (ply > 0 && (pos_.move_count_draw() || pos_.repetition_draw(2))) {
        v = team(stm) == team(root_) ? -contempt_ : contempt_;
        return true;
    }
    return false;
}

int Worker::no_moves(int alpha, int beta, int depth, int ply) {
    if (pos_.phase() != Phase::Play || pos_.removal_ends_game()) {
        const Colour stm = pos_.to_move();
        const Colour winner = pos_.players_in() <= 2 ? NO_COLOUR : pos_.winner_over(stm);
        return winner != NO_COLOUR && team(winner) == team(stm) ? mate_in(ply) : mated_in(ply);
    }
    if (pos_.to_move() == root_) return mated_in(ply);
    const Colour mover = pos_.to_move();
    pos_.eliminate_to_move();
    int v;
    if (team(mover) != team(pos_.to_move()))
        v = -search(-beta, -alpha, depth, ply + 1, false);
    else
        v = search(alpha, beta, depth, ply + 1, false);
    pos_.undo_move();
    return v;
}

int Worker::root_search(int alpha, int beta, int depth, int pv_idx) {
    int best = -kInfinite;
    const Colour mover = pos_.to_move();
    for (std::size_t i = pv_idx; i < root_moves.size(); ++i) {
        RootMove& rm = root_moves[i];
        progress(rm.move, int(i) + 1);
        const bool attack = pos_.is_attack(rm.move);  // Kinta: a chance node
        if (!attack) pos_.do_move(rm.move);
        nodes.fetch_add(1, std::memory_order_relaxed);
        pv_len_[1] = 1;
        auto search_child = [&](int a, int b, bool pv) {
            if (!attack) return child(a, b, depth - 1, 0, pv, mover);
            return chance(rm.move, a, b, true, [&](int ca, int cb) {
                pv_len_[1] = 1;
                return child(ca, cb, depth - 1, 0, pv, mover);
            });
        };
        int score;
        if (i == std::size_t(pv_idx)) {
            score = search_child(alpha, beta, true);
        } else {
            score = search_child(alpha, alpha + 1, false);
            if (score > alpha && score < beta) score = search_child(alpha, beta, true);
        }
        if (!attack) pos_.undo_move();
        if (stopped()) break;
        if (i == std::size_t(pv_idx) || score > alpha) {
            rm.score = score;
            root_scored_ = true;
            rm.seldepth = seldepth_;
            rm.pv = shown_line(rm.move, pv_[1], pv_len_[1]);
        }
        if (score > best) best = score;
        if (score > alpha) alpha = score;
        if (alpha >= beta) break;
    }
    return best;
}

bool Worker::enter_node(int ply, int& v) {
    pv_len_[ply] = ply;
    nodes.fetch_add(1, std::memory_order_relaxed);
    check_limits();
    v = 0;
    if (stopped()) return true;
    seldepth_ = std::max(seldepth_, ply);
    if (terminal(ply, v)) return true;
    if (ply >= kMaxPly - 2) {
        v = static_eval();
        return true;
    }
    return false;
}

int Worker::search(int alpha, int beta, int depth, int ply, bool pv_node, bool allow_null) {
    if (depth <= 0) return qsearch(alpha, beta, ply, 0);
    int v;
    if (enter_node(ply, v)) return v;
    // Step 1. A heart capture that decides the game is a mate now.
    if (can_take_deciding_heart()) return pv_node ? take_deciding_heart(ply) : mate_in(ply + 1);
    alpha = std::max(alpha, mated_in(ply));
    beta = std::min(beta, mate_in(ply + 1));
    if (alpha >= beta) return alpha;

    // Step 2. Transposition table: its bound ends a non-PV node searched deep enough.
    const std::uint64_t key = pos_.key();
    TTHit hit;
    const bool tt_hit = sh_.tt.probe(key, hit);
    const Move tt_move = tt_hit ? hit.move : Move();
    if (!pv_node && tt_hit)
        if (const auto cut = tt_cutoff(hit, alpha, beta, depth, ply)) return *cut;

    // Step 3. Best-Reply Search: the opponents' layer of a three-player tree.
    if (brs_layer()) return brs_search(alpha, beta, depth, ply, pv_node, tt_move, key);

    if (!has_legal_move(pos_)) return no_moves(alpha, beta, depth, ply);

    // Steps 4-5. Reverse futility pruning and the null move.
    NodeState node = node_state(ply);
    if (!pv_node)
        if (const auto cut = prune_early(node, beta, depth, ply, allow_null)) return *cut;
    if (node.danger && ply < 2 * root_depth_) ++depth;  // like a check extension

    // Step 6. The transposition table's move before any generation: when it cuts off, the
    // other moves are never generated nor scored. Otherwise they are generated and scored
    // after its subtree (with the killers and history it left), the table's move at 0.
    MoveList list;
    list.size = 0;
    std::array<int, 1024> sc;
    bool generated = false;
    auto generate = [&] {
        generate_legal(pos_, list);
        const OrderContext oc = order_context(tt_move, ply);
        for (std::size_t i = 0; i < list.size; ++i) sc[i] = order_score(oc, list.moves[i]);
        generated = true;
    };
    const bool tt_first =
        node.play && !pos_.rules().goal_safety && !tt_move.is_none() && is_legal(pos_, tt_move);
    if (!tt_first) generate();

    // Step 7. Futility and late move pruning of quiet moves near the leaves.
    const bool prune_quiet = !pv_node && node.play && !node.danger && depth <= 3 &&
                             std::abs(alpha) < kMateBound && std::abs(beta) < kMateBound;
    const bool futile = prune_quiet && node_eval(node) + 150 * depth <= alpha;
    const std::size_t late =
        std::size_t(node.improving ? 6 + 4 * depth * depth : 4 + 2 * depth * depth);

    // Step 8. The moves, best first: PVS with late move reductions.
    const int alpha0 = alpha;
    int best = -kInfinite;
    Move best_move;
    const Colour mover = pos_.to_move();
    std::size_t quiets = 0;
    std::array<Move, 64> quiets_tried;  // quiet moves that did not cut off (history malus)
    std::size_t n_quiets_tried = 0;
    for (std::size_t i = 0; i < (generated ? list.size : 1); ++i) {
        if (generated) pick_next(list, sc, i);
        const Move m = generated ? list.moves[i] : tt_move;
        const int move_score = generated ? sc[i] : 1 << 30;
        const bool capture = is_capture(m);
        if (!capture && move_score < (1 << 27) && i > 0 && best > -kMateBound) {
            ++quiets;
            // Moves come in falling score, and every capture or killer scores above
            // 2^27: the moves left are quiet too, and pruned as well.
            if (futile || (prune_quiet && quiets > late)) break;
        }
        const bool attack = pos_.is_attack(m);  // Kinta: a chance node (SPEC 26)
        if (!attack) make_move(m, depth > 1);
        auto child_at = [&](int a, int b, int d, bool pv) {
            if (!attack) return child(a, b, d, ply, pv, mover);
            return chance(m, a, b, d > 0,
                          [&](int ca, int cb) { return child(ca, cb, d, ply, pv, mover); });
        };
        const int r = !capture && !node.danger && move_score < (1 << 27)
                          ? late_move_reduction(depth, i, pv_node, node.improving)
                          : 0;
        const int score = pvs(child_at, i == 0, r, alpha, beta, depth, pv_node);
        if (!attack) pos_.undo_move();
        if (stopped()) return 0;
        if (!capture && score < beta && n_quiets_tried < quiets_tried.size())
            quiets_tried[n_quiets_tried++] = m;
        if (score > best) {
            best = score;
            if (score > alpha) {
                best_move = m;
                update_pv(ply, m);
                if (score >= beta) {
                    if (!capture)
                        reward_quiet_cutoff(m, ply, depth, quiets_tried.data(), n_quiets_tried);
                    break;
                }
                alpha = score;
            }
        }
        if (!generated) {  // the table's move did not cut off: now the others
            generate();
            pick_next(list, sc, 0);  // the table's move, at 0 as before
        }
    }
    return store(key, best_move, best, alpha0, beta, depth, ply);
}

std::optional<int> Worker::tt_cutoff(const TTHit& hit, int alpha, int beta, int depth,
                                     int ply) const {
    if (hit.depth < depth) return std::nullopt;
    const int s = from_tt(hit.score, ply);
    if ((hit.bound == BOUND_EXACT) || (hit.bound == BOUND_LOWER && s >= beta) ||
        (hit.bound == BOUND_UPPER && s <= alpha))
        return s;
    return std::nullopt;
}

int Worker::late_move_reduction(int depth, std::size_t i, bool pv_node, bool improving) {
    if (i == 0 || depth < 3 || i < (pv_node ? 4u : 2u)) return 0;
    int r = reduction(depth, i);
    if (pv_node) r = std::max(0, r - 1);
    if (!pv_node && !improving) ++r;
    return std::clamp(r, 0, depth - 2);
}

Worker::NodeState Worker::node_state(int ply) {
    NodeState n;
    n.danger = heart_in_danger();
    n.play = pos_.phase() == Phase::Play;
    n.null_ok = pos_.players() == 2 || (brs_mode() && pos_.to_move() == root_);
    // Improving: two players, the static evaluation above the one of our move before (two
    // plies up). Not improving, the pruning below is bolder.
    eval_stack_[ply] = n.play && !n.danger && pos_.players() == 2 ? node_eval(n) : kNoEval;
    n.improving = ply >= 2 && eval_stack_[ply] != kNoEval && eval_stack_[ply - 2] != kNoEval &&
                  eval_stack_[ply] > eval_stack_[ply - 2];
    return n;
}

std::optional<int> Worker::prune_early(NodeState& n, int beta, int depth, int ply,
                                       bool allow_null) {
    if (!n.play || n.danger || !n.null_ok || std::abs(beta) >= kMateBound) return std::nullopt;
    // Step 4. Reverse futility pruning: near the leaves, a static evaluation this far above
    // beta is taken as a fail high (where null move is sound).
    if (depth <= kRfpDepth) {
        const int margin = kRfpMargin * (depth - (n.improving ? 1 : 0));
        if (node_eval(n) - margin >= beta) return node_eval(n) - margin;
    }
    // Step 5. Null move: two players, and the root player's nodes of Best-Reply Search (a
    // pass there hands the one opponents' layer the move, as in two players). Not in paranoid
    // three-player search: a pass hands the coalition two moves in a row.
    if (allow_null && depth >= 3 &&
        popcount(pos_.pieces(pos_.to_move()) & ~pos_.pieces(pos_.to_move(), PAWN)) >= 3 &&
        node_eval(n) >= beta) {
        const int r = 2 + depth / 4;
        const Colour mover = pos_.to_move();
        pos_.do_move(Move::null());
        const int s = team(mover) != team(pos_.to_move())
                          ? -search(-beta, -beta + 1, depth - 1 - r, ply + 1, false, false)
                          : search(beta - 1, beta, depth - 1 - r, ply + 1, false, false);
        pos_.undo_move();
        if (stopped()) return 0;
        if (s >= beta) return s >= kMateBound ? beta : s;
    }
    return std::nullopt;
}

void Worker::reward_quiet_cutoff(Move m, int ply, int depth, const Move* tried, std::size_t n) {
    if (m.kind() == Move::Normal && killers_[ply][0] != m) {
        killers_[ply][1] = killers_[ply][0];
        killers_[ply][0] = m;
    }
    history_.reward_quiet(pos_.to_move(), m, tried, n, depth);
    history_.reward_continuation(pos_, m, tried, n, depth);
    if (Move* slot = history_.counter_slot(pos_.state().last_move)) *slot = m;
}

int Worker::qsearch(int alpha, int beta, int ply, int qply) {
    int v;
    if (enter_node(ply, v)) return v;
    if (can_take_deciding_heart()) return take_deciding_heart(ply);

    // Step 1. Stand pat, unless the mover's heart is attacked at the first quiescence ply
    // (then every move that saves it is searched: the evasions).
    const bool evasions = heart_in_danger() && qply == 0;
    int best = -kInfinite;
    if (!evasions) {
        best = stand_pat(alpha, beta);
        if (best >= beta) return best;
        alpha = std::max(alpha, best);
    }
    // Step 2. The moves. Paranoid quiescence: a coalition member only looks at captures of
    // the root player's men (captures among the coalition cannot lower the root's score much).
    const bool coalition = pos_.players() == 3 && pos_.to_move() != root_;
    const Bitboard root_men =
        pos_.pieces(root_) | (pos_.heart(root_) != NO_CELL ? bit(pos_.heart(root_)) : 0);
    MoveList list;
    if (evasions) {
        generate_legal(pos_, list);
        if (list.size == 0) return no_moves(alpha, beta, 0, ply);
    } else {  // captures only: moves ending on a man or a heart
        generate_legal_to(pos_, list, coalition ? root_men : pos_.occupied() | pos_.hearts());
        if (list.size == 0) return has_legal_move(pos_) ? best : no_moves(alpha, beta, 0, ply);
    }
    std::array<int, 1024> sc;
    keep_quiescence_moves(list, sc, evasions, best, alpha, ply);
    // Step 3. Search them, best first.
    const Colour mover = pos_.to_move();
    for (std::size_t i = 0; i < list.size; ++i) {
        pick_next(list, sc, i);
        const Move m = list.moves[i];
        auto qchild = [&](int a, int b) {
            return team(mover) != team(pos_.to_move()) ? -qsearch(-b, -a, ply + 1, qply + 1)
                                                       : qsearch(a, b, ply + 1, qply + 1);
        };
        int score;
        if (pos_.is_attack(m) && qply < kChanceQPlies) {  // Kinta: the expectation
            score = chance(m, alpha, beta, false, qchild);
        } else {
            make_move(with_likelier_outcome(m), false);
            score = qchild(alpha, beta);
            pos_.undo_move();
        }
        if (stopped()) return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                if (score >= beta) return score;
                alpha = score;
            }
        }
    }
    return best;
}

int Worker::stand_pat(int alpha, int beta) {
    // Lazy stand-pat: far above beta on material alone, the rest cannot bring it back
    // below; far below alpha, it cannot lift it to alpha, and only the captures can (the
    // margins bound the other terms in practice).
    if (pos_.phase() == Phase::Play) {
        // Scaled as static_eval is (toward_draw shrinks, so the margins still bound).
        const int late = heart_lateness(root_);
        const int quick = toward_draw(eval::material_for_mover(pos_, root_) -
                                      (pos_.to_move() == root_ ? late : -late));
        if (quick - eval::kLazyMarginBelow >= beta) return quick - eval::kLazyMarginBelow;
        if (quick + eval::kLazyMarginAbove <= alpha) return quick + eval::kLazyMarginAbove;
    }
    return static_eval();
}

void Worker::keep_quiescence_moves(MoveList& list, std::array<int, 1024>& sc, bool evasions,
                                   int best, int alpha, int ply) {
    std::size_t n = 0;
    const Colour own = pos_.army(pos_.to_move());
    const Colour stm = pos_.to_move();
    // Evasions: only moves that can save the heart are tried (SPEC 3-5: capture or block
    // an attacker, carry the heart, move a wall, leave the heart's cell, take a heart).
    Bitboard lines = 0;
    Cell own_heart = NO_CELL;
    if (evasions) {
        const bool root_only = pos_.players() == 3 && stm != root_ && !pos_.rules().reflective;
        lines = heart_attack_lines(pos_, own, root_only ? root_ : NO_COLOUR);
        own_heart = pos_.heart(own);
    }
    const OrderContext oc = order_context(Move(), ply);
    for (std::size_t i = 0; i < list.size; ++i) {
        const Move m = list.moves[i];
        if (!evasions && !is_capture(oc, m)) continue;
        // Delta pruning: a man's capture that cannot lift the stand-pat to alpha even
        // with a margin (heart captures are always tried).
        if (!evasions && best + kDeltaMargin < alpha && pos_.heart_victim(m) == NO_COLOUR) {
            const Man victim = pos_.man_on(m.to());
            if (victim != kNoMan &&
                best + eval::kWeights[eval::W_QUEEN + int(man_type(victim))] + kDeltaMargin <=
                    alpha)
                continue;
        }
        if (evasions) {  // only the moves that save the heart (or take one)
            if (!test(lines, m.to()) && !m.carries_heart() && m.from() != own_heart &&
                man_type(pos_.man_on(m.from())) != WALL && pos_.heart_victim(m) == NO_COLOUR)
                continue;
            pos_.do_move(m);
            const bool saved = pos_.game_over() || !pos_.is_in(own) || pos_.heart(own) == NO_CELL ||
                               !heart_in_danger_for(own, stm);
            pos_.undo_move();
            if (!saved) continue;
        }
        list.moves[n] = m;
        sc[n++] = order_score(oc, m);
    }
    // Nothing saves the heart: search every move; the reply takes it (a mate).
    if (evasions && n == 0)
        for (std::size_t i = 0; i < list.size; ++i) sc[n++] = order_score(oc, list.moves[i]);
    list.size = n;
}

}  // namespace klinzha::detail
