// tribune_env/engine/chariot.py: phase 6, the chariot auction (R22) and the end of the round.
#include <algorithm>

#include "engine.hpp"

namespace tribune {

namespace {

// chariot: the chariot leaves its faction; every player bids, sealed, in turn order from the starting player.
void chariot(State& st) {
    st.phase = CHARIOT_AUCTION;
    st.chariot = -1;
    int n = st.num_players();
    st.bids.assign(static_cast<size_t>(n), -1);
    std::vector<Task> tasks;
    for (int k = 0; k < n; k++) tasks.push_back(task(S_chariot_bid, (st.start_seat + k) % n));
    tasks.push_back(task(S_chariot_resolve));
    push(st, tasks);
}

// chariot_bid
void chariot_bid(State& st, int seat) { ask(st, Pending{CHARIOT_BID, seat, -1, -1}); }

// _legal_bid: every affordable bid; the Brutii may also opt out, in the same sealed choice (R49).
void legal_bid(State& st, const Pending& pending, std::vector<Action>& out) {
    bid_choices(st, pending.seat, out);
    if (pending.seat == st.brutii) out.push_back(decline());
}

// _resolve_bid
void resolve_bid(State& st, const Pending& pending, const Action& action) {
    if (action.type == A_DECLINE) {
        st.bids[pending.seat] = OPTED_OUT;
        LOG(st, pending.seat, seat_name(pending.seat), " makes a sealed chariot choice");
        LOG_PRIVATE(st, pending.seat, pending.seat, seat_name(pending.seat), " opts out (sealed)");
        return;
    }
    if (pending.seat == st.brutii)  // the same public words as opting out (R49: one sealed choice)
        LOG(st, pending.seat, seat_name(pending.seat), " makes a sealed chariot choice");
    seal_bid(st, pending.seat, action.a, "the chariot");
}

// chariot_resolve: a unique highest bid wins and pays the stock; a tie leaves the chariot off the board.
void chariot_resolve(State& st) {
    const std::vector<int> bids = st.bids;
    if (st.logging) {
        std::string shown;
        for (size_t s = 0; s < bids.size(); s++) {
            if (s) shown += ", ";
            shown += seat_name(static_cast<int>(s));
            shown += ' ';
            if (bids[s] == OPTED_OUT)
                shown += "opts out";
            else
                shown += std::to_string(bids[s]);
        }
        st.log(-1, "chariot bids revealed: " + shown);
    }
    int best = *std::max_element(bids.begin(), bids.end());
    std::vector<int> top;
    for (size_t s = 0; s < bids.size(); s++)
        if (bids[s] == best) top.push_back(static_cast<int>(s));
    bool opted_out = st.brutii >= 0 && bids[st.brutii] == OPTED_OUT;
    st.bids.assign(static_cast<size_t>(st.num_players()), -1);
    if (top.size() != 1) {
        LOG(st, -1, "the chariot auction is tied: the chariot stays off the board (R22)");
        return;
    }
    int winner = top[0];
    pay(st, winner, best, "the chariot");
    if (opted_out && played(st, BC_DENARII))  // R49: the winner's payment goes to the Brutii
        give_money(st, st.brutii, best, "the chariot winner's payment, Denarii (R49)");
    ask(st, Pending{CHARIOT_PLACEMENT, winner, -1, -1});
}

// _legal_place
void legal_place(State& st, const Pending& pending, std::vector<Action>& out) {
    for (int f = 0; f < static_cast<int>(st.controller.size()); f++)
        if (st.controller[f] == pending.seat) out.push_back(choose_faction(f));
    out.push_back(decline());
}

// _resolve_place
void resolve_place(State& st, const Pending& pending, const Action& action) {
    if (action.type == A_DECLINE) {
        LOG(st, pending.seat, seat_name(pending.seat), " leaves the chariot off the board");
        return;
    }
    st.chariot = action.a;
    LOG(st, pending.seat, seat_name(pending.seat), " blocks the ", faction_name(st, action.a), " with the chariot");
}

}  // namespace

void register_chariot() {
    STEPS[S_chariot] = [](State& st, const Task&) { chariot(st); };
    STEPS[S_chariot_bid] = [](State& st, const Task& t) { chariot_bid(st, t.a[0]); };
    STEPS[S_chariot_resolve] = [](State& st, const Task&) { chariot_resolve(st); };
    DECISIONS[CHARIOT_BID] = {legal_bid, resolve_bid, false, true, false};
    DECISIONS[CHARIOT_PLACEMENT] = {legal_place, resolve_place, false, false, false};
}

}  // namespace tribune
