// tribune_env/engine/determinize.py: a full state consistent with one seat's information (the deals of search).
// Every draw is the Python function's, in its order, from the same generator: the same state comes out (tests/native).
#include <algorithm>

#include "codec.hpp"
#include "engine.hpp"

namespace tribune {

namespace {

// ("chariot_resolve",) in state.agenda
bool chariot_pending(const State& st) {
    for (const Task& t : st.agenda)
        if (t.step == S_chariot_resolve && t.n == 0) return true;
    return false;
}

// _sealed_choice: a sealed bid for ``seat``; the Brutii's chariot choice may also be the opt-out (R49)
int sealed_choice(const State& st, int seat, PyRandom& rng) {
    const int money = st.players[static_cast<size_t>(seat)].money;
    if (seat != st.brutii || !chariot_pending(st)) return static_cast<int>(rng.randint(0, money));
    const int64_t choice = rng.randint(-1, money);
    return choice < 0 ? OPTED_OUT : static_cast<int>(choice);
}

}  // namespace

State resample(const State& st, int seat, PyRandom& rng) {
    State other;
    {  // clone(events=False): the copy's log is empty; the original's is put back at once
        State& source = const_cast<State&>(st);
        std::vector<Event> log;
        log.swap(source.events);
        other = source;
        source.events.swap(log);
    }
    std::vector<std::vector<int>*> slots = {&other.draw, &other.discard};
    for (int region : other.t().regions) {  // _hidden_fields, in the tables' region order
        auto& fields = other.fields[static_cast<size_t>(region)];
        for (size_t i = 0; i < fields.size(); i++)
            if (!fields[i].empty() && !field_visible(other, seat, region, static_cast<int>(i))) slots.push_back(&fields[i]);
    }
    if (!other.staged.empty() && (!other.has_pending || other.pending.seat != seat)) slots.push_back(&other.staged);
    if (!other.augur_cards.empty() && other.officials[AUGUR] != seat) slots.push_back(&other.augur_cards);  // R39
    const int n = other.num_players();
    std::vector<int> pool;
    for (const auto* slot : slots) pool.insert(pool.end(), slot->begin(), slot->end());
    std::vector<int> sizes(static_cast<size_t>(n), 0);
    for (int s = 0; s < n; s++) {
        if (s == seat) continue;
        const auto& hand = other.players[static_cast<size_t>(s)].hand;
        sizes[static_cast<size_t>(s)] = other.players[static_cast<size_t>(s)].hand_size();
        for (size_t c = 0; c < hand.size(); c++)
            for (int k = 0; k < hand[c]; k++) pool.push_back(static_cast<int>(c));
    }
    // another player's sealed pair goes back to that hand: whether it was laid is hidden until the reveal (R2)
    std::vector<PairCards> kept;
    for (const auto& pr : other.pairs) {
        if (pr.seat != seat) {
            pool.push_back(pr.a);
            pool.push_back(pr.b);
            sizes[static_cast<size_t>(pr.seat)] += 2;
        } else {
            kept.push_back(pr);
        }
    }
    other.pairs = std::move(kept);
    std::sort(pool.begin(), pool.end());  // forget where the cards were: the deal depends on the view and rng only
    rng.shuffle(pool);
    auto pop = [&pool]() {
        const int card = pool.back();
        pool.pop_back();
        return card;
    };
    for (auto* slot : slots)
        for (auto& card : *slot) card = pop();
    for (int s = 0; s < n; s++) {
        if (s == seat) continue;
        auto& hand = other.players[static_cast<size_t>(s)].hand;
        std::fill(hand.begin(), hand.end(), 0);
        for (int k = 0; k < sizes[static_cast<size_t>(s)]; k++) hand[static_cast<size_t>(pop())] += 1;
    }
    for (int s = 0; s < n; s++)
        if (s != seat && other.bids[static_cast<size_t>(s)] != -1)  // a sealed choice was made; which is hidden
            other.bids[static_cast<size_t>(s)] = sealed_choice(other, s, rng);
    if (!other.emperor_pile.empty()) {  // R35: the pile's order is known to nobody
        std::sort(other.emperor_pile.begin(), other.emperor_pile.end());
        rng.shuffle(other.emperor_pile);
    }
    other.chance = rng.getrandbits(63);
    other.legal_valid = false;
    other.legal.clear();
    return other;
}

}  // namespace tribune
