// tribune_env/engine/scoring.py: victory objectives, scores, and the end of the game (R23, R24, R25).
#include <algorithm>
#include <stdexcept>

#include "engine.hpp"

namespace tribune {

namespace {

// objectives + fulfils: ``player`` meets the card's obligatory objectives and ``required`` objectives in all (R24).
bool fulfils(const Player& p, const VictoryCard& card, int required) {
    const int* t = card.need;
    uint32_t met = 0;
    met |= static_cast<uint32_t>(p.tile == TRIBUNE) << OBJ_TRIBUNE;
    met |= static_cast<uint32_t>(p.eternal_favor || p.temporary_favor) << OBJ_FAVOR;
    met |= static_cast<uint32_t>(p.laurels >= t[OBJ_LAURELS]) << OBJ_LAURELS;
    met |= static_cast<uint32_t>(p.legions >= t[OBJ_LEGIONS]) << OBJ_LEGIONS;
    met |= static_cast<uint32_t>(p.num_markers() >= t[OBJ_MARKERS]) << OBJ_MARKERS;
    if (card.expansion) {  // E72: claimed emperor tiles and patrons in place of denarii
        met |= static_cast<uint32_t>(static_cast<int>(p.emperor_tiles.size()) >= t[OBJ_EMPEROR_TILES])
               << OBJ_EMPEROR_TILES;
        met |= static_cast<uint32_t>(p.patrons >= t[OBJ_PATRONS]) << OBJ_PATRONS;
    } else {
        met |= static_cast<uint32_t>(p.money >= t[OBJ_DENARII]) << OBJ_DENARII;
    }
    if ((met & card.obligatory_bits) != card.obligatory_bits) return false;
    return __builtin_popcount(met) >= required;
}

void refresh(State& st, int seat) {
    if (st.config().point_variant) return;
    const VictoryCard& card = st.t().find_victory_card(st.victory_card);
    auto& since = st.fulfilled_since;
    if (fulfils(st.players[static_cast<size_t>(seat)], card, st.t().required(card))) {
        if (since[static_cast<size_t>(seat)] < 0) since[static_cast<size_t>(seat)] = st.clock;
    } else {
        since[static_cast<size_t>(seat)] = -1;
    }
}

const ScoringSpec& scoring_table(const State& st) {
    if (st.config().expansion && st.comps().has_expansion) return st.comps().expansion.scoring;
    return st.comps().scoring;
}

int64_t floordiv(int64_t a, int64_t b) {
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) q -= 1;
    return q;
}

int points(const Player& p, const ScoringSpec& s, bool expansion) {
    int tile = p.tile == TRIBUNE ? s.tribune : (p.tile == SCROLL ? s.scroll : 0);
    int total = tile + (p.eternal_favor ? s.eternal_favor : 0) + (p.temporary_favor ? s.temporary_favor : 0) +
                s.legion * p.legions + s.laurel * p.laurels + static_cast<int>(floordiv(p.money, s.denarii_per_point)) +
                s.marker * p.num_markers();
    if (expansion) total += s.patron * p.patrons + s.emperor_tile * static_cast<int>(p.emperor_tiles.size());
    return total;
}

std::vector<int> contenders(const State& st) {
    std::vector<int> out;
    for (int seat = 0; seat < st.num_players(); seat++)
        if (st.config().point_variant || st.truncated || st.fulfilled_since[static_cast<size_t>(seat)] >= 0)
            out.push_back(seat);
    return out;
}

}  // namespace

const VictoryCard* victory_card(const State& st) {
    if (st.config().point_variant) return nullptr;
    return &st.t().find_victory_card(st.victory_card);
}

void end_step(State& st) {
    uint32_t touched = st.touched;
    if (touched) {
        st.touched = 0;
        for (int seat = 0; seat < st.num_players(); seat++)
            if (touched >> seat & 1u) refresh(st, seat);
    }
    st.clock += 1;
}

void track_fulfilment(State& st) {
    for (int seat = 0; seat < st.num_players(); seat++) refresh(st, seat);
}

std::vector<int> scores(const State& st) {
    std::vector<int> total(st.players.size());
    scores_into(st, total.data());
    return total;
}

void scores_into(const State& st, int* out) {
    const ScoringSpec& spec = scoring_table(st);
    const bool expansion = st.config().expansion && st.comps().has_expansion;
    const int n = st.num_players();
    for (int seat = 0; seat < n; seat++) out[seat] = points(st.players[static_cast<size_t>(seat)], spec, expansion);
    constexpr int MAX_SEATS = 64;  // a stack list of seats (a game has at most 6)
    if (n > MAX_SEATS) throw std::out_of_range("too many seats");
    int first[MAX_SEATS];
    const int count = first_fulfillers(st, first);
    for (int k = 0; k < count; k++) out[first[k]] += spec.first_bonus;
}

int first_fulfillers(const State& st, int* out) {
    if (st.config().point_variant) return 0;
    int64_t first = -1;
    for (int64_t t : st.fulfilled_since)
        if (t >= 0 && (first < 0 || t < first)) first = t;
    if (first < 0) return 0;
    int count = 0;
    for (int seat = 0; seat < st.num_players(); seat++)
        if (st.fulfilled_since[static_cast<size_t>(seat)] == first) out[count++] = seat;
    return count;
}

bool game_ends(State& st) {
    if (st.config().point_variant) {
        int need = st.t().point_variant_markers();
        for (const auto& p : st.players)
            if (p.num_markers() >= need) return true;
        return false;
    }
    for (int64_t t : st.fulfilled_since)
        if (t >= 0) return true;
    return false;
}

std::vector<int> decide_winners(State& st) {
    auto total = scores(st);
    auto pool = contenders(st);
    int best = total[static_cast<size_t>(pool[0])];
    for (int s : pool) best = std::max(best, total[static_cast<size_t>(s)]);
    std::vector<int> out;
    for (int s : pool)
        if (total[static_cast<size_t>(s)] == best) out.push_back(s);
    return out;
}

std::vector<int> ranks(const State& st) {
    auto total = scores(st);
    auto pool = contenders(st);
    int n = st.num_players();
    std::vector<int> in_pool(static_cast<size_t>(n), 0);
    for (int s : pool) in_pool[static_cast<size_t>(s)] = 1;
    std::vector<int> out;
    for (int seat = 0; seat < n; seat++) {
        int rank = 1;
        for (int other = 0; other < n; other++) {
            auto a = std::make_pair(in_pool[static_cast<size_t>(other)], total[static_cast<size_t>(other)]);
            auto b = std::make_pair(in_pool[static_cast<size_t>(seat)], total[static_cast<size_t>(seat)]);
            if (a > b) rank++;
        }
        out.push_back(rank);
    }
    return out;
}

}  // namespace tribune
