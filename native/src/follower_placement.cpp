// tribune_env/engine/follower_placement.py: phase 2, followers placed one at a time in turn order (R7-R9, R37).
#include <algorithm>

#include "engine.hpp"

namespace tribune {

namespace {

// placement: start phase 2; hand out followers; the proconsul is one more for its holder (R9).
void placement(State& st) {
    st.phase = FOLLOWER_PLACEMENT;
    int count = st.t().followers();
    for (auto& player : st.players) player.followers = count;
    if (st.brutii >= 0) {  // R44
        st.players[st.brutii].followers = 0;
        st.brutii_turns = count;
    }
    if (st.proconsul >= 0) {
        st.players[st.proconsul].followers += 1;
        LOG(st, st.proconsul, seat_name(st.proconsul), " places the proconsul as an extra follower (R9)");
    }
    st.turn_seat = st.start_seat;
    st.placed_this_turn = 0;
    push(st, task(S_place_next));
}

int princeps(const State& st) { return st.officials.empty() ? -1 : st.officials[PRINCEPS]; }

int princeps_placements(const State& st) {
    return st.comps().expansion.officials[PRINCEPS].numbers.at("placements");
}

// _pass_turn (R7, R37)
void pass_turn(State& st, int seat) {
    if (seat == princeps(st)) {
        st.placed_this_turn += 1;
        if (st.players[seat].followers > 0 && st.placed_this_turn < princeps_placements(st)) {
            st.turn_seat = seat;
            return;
        }
    }
    st.placed_this_turn = 0;
    st.turn_seat = (seat + 1) % st.num_players();
}

void place_next(State& st) {
    int n = st.num_players();
    for (int k = 0; k < n; k++) {
        int seat = (st.turn_seat + k) % n;
        if (seat == st.brutii) {  // R44
            if (st.brutii_turns > 0) {
                st.turn_seat = seat;
                brutii_turn(st);
                return;
            }
            continue;
        }
        if (st.players[seat].followers > 0) {
            st.turn_seat = seat;
            ask(st, Pending{PLACE_FOLLOWER, seat, -1, -1});
            return;
        }
    }
}

// legal_spaces: follower spaces ``seat`` may use now, in space order; the coin bowl is always legal (R7).
std::vector<int> legal_spaces(State& st, int seat) {
    const Rules& t = st.t();
    std::vector<int> out;
    std::vector<int> some;
    for (int region : t.regions) {
        if (region != st.veto) {  // R54
            some.clear();
            REGIONS[region].free_spaces(st, seat, some);
            out.insert(out.end(), some.begin(), some.end());
        }
    }
    for (int faction = 0; faction < static_cast<int>(t.faction_spaces.size()); faction++) {
        if (st.controller[faction] != seat && st.chariot != faction) {
            auto ids = paired_spaces(st, t.faction_spaces[faction], seat);
            out.insert(out.end(), ids.begin(), ids.end());
        }
    }
    out.push_back(t.coin_bowl);
    std::sort(out.begin(), out.end());
    return out;
}

void legal_place(State& st, const Pending& pending, std::vector<Action>& out) {
    for (int s : legal_spaces(st, pending.seat)) out.push_back(place_follower(s));
}

void resolve_place(State& st, const Pending& pending, const Action& action) {
    int seat = pending.seat;
    const SpaceSpec& spec = st.t().spaces[action.a];
    st.players[seat].followers -= 1;
    if (spec.kind == SK_COIN_BOWL) {
        const Components& comps = st.comps();
        int amount = st.coin_bowl.empty() ? comps.coin_bowl_first : comps.coin_bowl_later;
        st.coin_bowl.push_back(seat);
        LOG(st, seat, seat_name(seat), " places a follower on the coin bowl");
        give_money(st, seat, amount, "coin bowl");
    } else {
        st.spaces[action.a] = seat;
        LOG(st, seat, seat_name(seat), " places a follower on ", spec.label);
        if (spec.region >= 0 && REGIONS[spec.region].placed) REGIONS[spec.region].placed(st, seat, spec.slot);
    }
    if (seat != st.brutii) {
        pass_turn(st, seat);
        push(st, task(S_place_next));
    }
}

}  // namespace

void register_follower_placement() {
    STEPS[S_placement] = [](State& st, const Task&) { placement(st); };
    STEPS[S_place_next] = [](State& st, const Task&) { place_next(st); };
    DECISIONS[PLACE_FOLLOWER] = {legal_place, resolve_place, false, false, false};
}

}  // namespace tribune
