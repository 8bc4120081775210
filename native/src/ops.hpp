// tribune_env/engine/ops.py: small state operations shared by the phases (agenda, chance, cards, holdings).
#pragma once

#include <algorithm>
#include <initializer_list>
#include <string_view>

#include "core.hpp"

namespace tribune {

// push(state, *tasks): run ``tasks`` next, in the given order, before anything already scheduled.
inline void push(State& st, std::initializer_list<Task> tasks) {
    for (auto it = tasks.end(); it != tasks.begin();) st.agenda.push_back(*--it);
}
inline void push(State& st, const std::vector<Task>& tasks) {
    for (auto it = tasks.rbegin(); it != tasks.rend(); ++it) st.agenda.push_back(*it);
}
inline void push(State& st, const Task& t) { st.agenda.push_back(t); }

inline void touch(State& st, int seat) { st.touched |= 1u << seat; }

inline void ask(State& st, const Pending& pending) {
    st.pending = pending;
    st.has_pending = true;
    st.legal_valid = false;
}

// chance(state): a generator for one chance event, seeded by the state's chance key, which then moves on.
inline PyRandom chance(State& st) {
    PyRandom rng(st.chance);
    st.chance = rng.getrandbits(63);
    return rng;
}

inline std::string seat_name(int seat) { return cat("P", seat); }

inline void reshuffle(State& st) {
    st.draw = std::move(st.discard);
    st.discard.clear();
    chance(st).shuffle(st.draw);
    LOG(st, -1, "the discard pile (", static_cast<int>(st.draw.size()), " cards) is shuffled into a new draw pile");
}

inline int draw_card(State& st) {
    if (st.draw.empty()) {
        if (st.discard.empty()) return -1;
        reshuffle(st);
    }
    int card = st.draw.back();
    st.draw.pop_back();
    return card;
}

inline void take_from_hand(State& st, int seat, int card) {
    auto& hand = st.players[seat].hand;
    if (hand[card] <= 0) throw std::logic_error(cat("seat ", seat, " has no card type ", card));
    hand[card] -= 1;
}

inline void stage(State& st, const Pending& pending, int card) {
    take_from_hand(st, pending.seat, card);
    st.staged.push_back(card);
    ask(st, pending);
}

inline std::vector<int> unstage(State& st, int seat) {
    std::vector<int> cards;
    cards.swap(st.staged);
    for (int card : cards) st.players[seat].hand[card] += 1;
    return cards;
}

inline void discard_from_hand(State& st, int seat, int card) {
    take_from_hand(st, seat, card);
    st.discard.push_back(card);
}

inline std::vector<int> cards_in_hand(const State& st, int seat) {
    std::vector<int> out;
    const auto& hand = st.players[seat].hand;
    for (int c = 0; c < static_cast<int>(hand.size()); c++)
        if (hand[c]) out.push_back(c);
    return out;
}

inline void hand_choices(const State& st, int seat, std::vector<Action>& out) {
    const auto& hand = st.players[seat].hand;
    for (int c = 0; c < static_cast<int>(hand.size()); c++)
        if (hand[c]) out.push_back(pick_card(c));
}

inline void bid_choices(const State& st, int seat, std::vector<Action>& out) {
    for (int b = 0; b <= st.players[seat].money; b++) out.push_back(bid(b));
}

inline void seal_bid(State& st, int seat, int amount, std::string_view what) {
    st.bids[seat] = amount;
    LOG_PRIVATE(st, seat, seat, seat_name(seat), " bids ", amount, " for ", what, " (sealed)");
}

inline int set_sum(const State& st, const std::vector<int>& cards) {
    int s = 0;
    for (int c : cards) s += st.t().card_value[c];
    return s;
}

inline bool beats(const State& st, const std::vector<int>& cards, const std::vector<int>& other) {
    return cards.size() > other.size() || set_sum(st, cards) > set_sum(st, other);
}

// remove_highest: the first card of the highest value (Python's max keeps the first maximum).
inline int remove_highest(const State& st, std::vector<int>& cards) {
    const auto& value = st.t().card_value;
    size_t best = 0;
    for (size_t i = 1; i < cards.size(); i++)
        if (value[cards[i]] > value[cards[best]]) best = i;
    int card = cards[best];
    cards.erase(cards.begin() + static_cast<long>(best));
    return card;
}

inline std::string card_names(const State& st, const std::vector<int>& cards) {
    if (cards.empty()) return "nothing";
    std::string out;
    for (size_t i = 0; i < cards.size(); i++) {
        if (i) out += ", ";
        out += st.t().card_name(cards[i]);
    }
    return out;
}

inline const std::string& faction_name(const State& st, int faction) { return st.comps().factions[faction].name; }

inline void give_laurels(State& st, int seat, int n, std::string_view why) {
    if (n) {
        st.players[seat].laurels += n;
        touch(st, seat);
        LOG(st, seat, seat_name(seat), " gains ", n, " laurel(s) (", why, ")");
    }
}

inline void give_legions(State& st, int seat, int n, std::string_view why) {
    if (n) {
        st.players[seat].legions += n;
        touch(st, seat);
        LOG(st, seat, seat_name(seat), " gains ", n, " legion(s) (", why, ")");
    }
}

inline void give_money(State& st, int seat, int n, std::string_view why) {
    if (n) {
        st.players[seat].money += n;
        touch(st, seat);
        LOG(st, seat, seat_name(seat), " receives ", n, " denarii (", why, ")");
    }
}

inline void pay(State& st, int seat, int n, std::string_view why) {
    auto& player = st.players[seat];
    if (n > player.money) throw std::logic_error(cat("seat ", seat, " cannot pay ", n));
    player.money -= n;
    touch(st, seat);
    if (n) LOG(st, seat, seat_name(seat), " pays ", n, " denarii (", why, ")");
}

inline void give_eternal_favor(State& st, int seat, std::string_view why) {
    auto& player = st.players[seat];
    player.eternal_favor = true;
    LOG(st, seat, seat_name(seat), " gains the eternal favor of the gods (", why, ")");
    if (player.temporary_favor) {
        player.temporary_favor = false;
        LOG(st, seat, seat_name(seat), " returns the temporary favor of the gods (R21)");
    }
    touch(st, seat);
}

// agenda_has(state, *task) of registry.py
inline bool agenda_has(const State& st, const Task& t) {
    return std::find(st.agenda.begin(), st.agenda.end(), t) != st.agenda.end();
}

}  // namespace tribune
