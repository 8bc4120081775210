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

// _fits: whether ``card`` may be staged after ``picks`` in the pending decision: a take-over set holds the attacked
// faction's cards and as many assassins as its target allows (R31); a Field of Mars pair, cards of one faction
// (R14); the Refugium, slaves (of a nationality with a pair reward for pairs, E48).
bool fits(const State& st, int card, const std::vector<int>& picks) {
    const Rules& t = st.t();
    const Pending& pending = st.pending;
    const auto c = static_cast<size_t>(card);
    switch (pending.kind) {
        case TAKEOVER_SET: {
            if (card == t.assassin_card) {
                const std::vector<int>* target = pending.index == FIRST_OVER_SECOND ? &st.contest
                                                 : st.controller[static_cast<size_t>(pending.faction)] >= 0
                                                     ? &st.sets[static_cast<size_t>(pending.faction)]
                                                     : nullptr;
                int room = 0;  // _assassin_room
                if (target != nullptr && st.comps().has_expansion && t.assassin_card >= 0)
                    room = std::max(0, static_cast<int>(target->size()) - st.comps().expansion.assassins.protected_);
                return std::count(picks.begin(), picks.end(), card) < room;
            }
            return t.card_faction[c] == pending.faction;
        }
        case FIELD_OF_MARS_PAIR: {
            const int faction = t.card_faction[c];
            return faction >= 0 && (picks.empty() || t.card_faction[static_cast<size_t>(picks[0])] == faction);
        }
        case REFUGIUM_PATRON:
            return t.card_kind[c] == CK_SLAVE;
        case REFUGIUM_PAIRS:  // _pairable: the nationalities with a pair reward (the Refugium's spec)
            return t.card_kind[c] == CK_SLAVE && st.comps().expansion.regions.at(0).pairs.count(t.card_nationality[c]) > 0;
        default:
            return true;
    }
}

// _deal_staged: another player's ``count`` staged cards, dealt first from the shuffled ``pool`` (taken out of it)
// so that his pending decision keeps its constraints (issue 41, N6): each the last card of the pool that fits; for
// the Brutii's Slave Cards the lowest card of the pool (the first of equals). Staging order: ascending, assassins last.
std::vector<int> deal_staged(const State& st, std::vector<int>& pool, size_t count) {
    std::vector<int> picks;
    for (size_t k = 0; k < count; k++) {
        size_t at = 0;
        if (st.pending.kind == BRUTII_SLAVES) {
            at = static_cast<size_t>(std::min_element(pool.begin(), pool.end()) - pool.begin());
        } else {
            at = pool.size();
            for (size_t i = pool.size(); i-- > 0;)
                if (fits(st, pool[i], picks)) {
                    at = i;
                    break;
                }
            if (at == pool.size()) throw std::logic_error("resample: no card fits the pending decision's staged cards");
        }
        picks.push_back(pool[at]);
        pool.erase(pool.begin() + static_cast<std::ptrdiff_t>(at));
    }
    const int assassin = st.t().assassin_card;
    std::vector<int> out;
    for (int c : picks)
        if (c != assassin) out.push_back(c);
    std::sort(out.begin(), out.end());
    for (int c : picks)
        if (c == assassin) out.push_back(c);
    return out;
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
    const size_t staged = other.has_pending && other.pending.seat != seat ? other.staged.size() : 0;  // hidden
    if (!other.augur_cards.empty() && other.officials[AUGUR] != seat) slots.push_back(&other.augur_cards);  // R39
    const int n = other.num_players();
    std::vector<int> pool;
    for (const auto* slot : slots) pool.insert(pool.end(), slot->begin(), slot->end());
    if (staged) pool.insert(pool.end(), other.staged.begin(), other.staged.end());
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
    if (staged) other.staged = deal_staged(other, pool, staged);
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
