// tribune_env/engine/regions.py: phase 3, region evaluation, regions I..VIII in order (R10..R14).
// The checks of loaded documents (on_slot, the *_problem functions, RegionRule.check) stay in Python.
#include <algorithm>
#include <string>
#include <vector>

#include "engine.hpp"

namespace tribune {

namespace {

constexpr int LATRINE_MONEY = 0, LATRINE_BUY = 1;

// _occupant
int occupant(const State& st, int region, int slot) { return st.spaces[st.t().region_spaces[region][slot]]; }

const Numbers& numbers_of(const State& st, int region) { return st.comps().region(region).numbers; }

// _slots: the number of follower spaces of ``region`` (range(len(region_spaces[region])))
int slots(const State& st, int region) { return static_cast<int>(st.t().region_spaces[region].size()); }

// evaluate: evaluate one region: queue the steps of its record, then end_region.
void evaluate(State& st, int region) {
    st.phase = region_is_expansion(region) ? EXPANSION_EVALUATION : REGION_EVALUATION;
    if (st.veto == region) {  // R54: its followers go home with no effect, its cards are discarded
        LOG(st, -1, REGION_KEYS[region], " is vetoed: nothing happens there this round (R54)");
        push(st, task(S_end_region, region));
        return;
    }
    std::vector<Task> tasks;
    REGIONS[region].evaluate(st, tasks);
    tasks.push_back(task(S_end_region, region));
    push(st, tasks);
}

// end_region: unclaimed cards go to the discard pile; followers go home; then the region's own clean-up.
void end_region(State& st, int region) {
    for (auto& field : st.fields[region]) {
        st.discard.insert(st.discard.end(), field.begin(), field.end());
        field.clear();
    }
    for (int space : st.t().region_spaces[region]) st.spaces[space] = -1;
    if (REGIONS[region].cleared) REGIONS[region].cleared(st);
}

}  // namespace

// free_spaces: the empty follower spaces of ``region`` (one follower per space).
std::vector<int> free_spaces(const State& st, int region) {
    std::vector<int> out;
    for (int s : st.t().region_spaces[region])
        if (st.spaces[s] < 0) out.push_back(s);
    return out;
}

// paired_spaces: spaces "1"/"2" filled in order, never both by one player (Atrium, faction fields).
std::vector<int> paired_spaces(const State& st, const std::vector<int>& ids, int seat) {
    int first = ids.at(0), second = ids.at(1);
    if (st.spaces[first] < 0) return {first};
    if (st.spaces[first] != seat && st.spaces[second] < 0) return {second};
    return {};
}

namespace {

// --- I, II: Thermae and Forum Romanum ---

// _evaluate_paid_fields: R10: pay the printed cost per space, field by field in board order, or lose the card.
void evaluate_paid_fields(State& st, int region) {
    int cost = numbers_of(st, region).at("cost");
    auto& fields = st.fields[region];
    for (int slot = 0; slot < static_cast<int>(fields.size()); slot++) {
        auto& field = fields[slot];
        int seat = occupant(st, region, slot);
        if (seat < 0 || field.empty()) continue;
        if (st.players[seat].money >= cost) {
            pay(st, seat, cost, cat(REGION_KEYS[region], " space ", slot + 1));
            for (int card : field) st.players[seat].hand[card] += 1;
            LOG(st, seat, seat_name(seat), " takes ", card_names(st, field), " from ", REGION_KEYS[region]);
            field.clear();
        } else {
            LOG(st, seat, seat_name(seat), " cannot pay ", cost, " for ", REGION_KEYS[region], " space ", slot + 1,
                " (R10)");
        }
    }
}

// --- III: Latrine ---

// latrine (step)
void latrine(State& st) {
    int seat = occupant(st, LATRINE, 0);
    const auto& field = st.fields[LATRINE][0];
    if (seat >= 0 && !field.empty()) {
        LOG(st, seat, "Latrine card revealed: ", st.t().card_name(field[0]));
        ask(st, Pending{LATRINE_CHOICE, seat, -1, -1});
    }
}

// _legal_latrine
void legal_latrine(State& st, const Pending& pending, std::vector<Action>& out) {
    int card = st.fields[LATRINE][0][0];
    out.push_back(choose_option(LATRINE_MONEY));
    if (st.players[pending.seat].money >= st.t().card_value[card]) out.push_back(choose_option(LATRINE_BUY));
}

// _resolve_latrine
void resolve_latrine(State& st, const Pending& pending, const Action& action) {
    int seat = pending.seat;
    auto& field = st.fields[LATRINE][0];
    int card = field.back();
    field.pop_back();
    int value = st.t().card_value[card];
    if (action.a == LATRINE_MONEY) {
        give_money(st, seat, value, "Latrine");
        st.discard.push_back(card);
    } else {
        pay(st, seat, value, "Latrine");
        st.players[seat].hand[card] += 1;
        if (played(st, BC_DENARII) && seat != st.brutii)  // R47: another buyer pays the Brutii
            give_money(st, st.brutii, value, "the Latrine card's price, Denarii (R47)");
        LOG(st, seat, seat_name(seat), " takes ", st.t().card_name(card), " from the Latrine");
    }
}

// --- IV: Curia ---

// curia_field (step)
void curia_field(State& st, int slot) {
    int seat = occupant(st, CURIA, slot);
    if (seat >= 0 && !st.fields[CURIA][slot].empty() && st.players[seat].hand_size())
        ask(st, Pending{CURIA_DISCARD, seat, -1, slot});
}

// _legal_curia
void legal_curia(State& st, const Pending& pending, std::vector<Action>& out) {
    hand_choices(st, pending.seat, out);
    out.push_back(decline());
}

// _resolve_curia
void resolve_curia(State& st, const Pending& pending, const Action& action) {
    int seat = pending.seat;
    if (action.type == A_DECLINE) {
        LOG(st, seat, seat_name(seat), " declines Curia field ", pending.index + 1);
        return;
    }
    if (option(st, BC_CARDS) == 1 && seat != st.brutii) {  // R47: Cards 2, others' discards are his
        take_from_hand(st, seat, action.a);
        st.players[st.brutii].hand[action.a] += 1;
        LOG(st, seat, "the discard goes to ", seat_name(st.brutii), " (the Brutii, Cards option 2)");
    } else {
        discard_from_hand(st, seat, action.a);
    }
    auto& field = st.fields[CURIA][pending.index];
    for (int card : field) st.players[seat].hand[card] += 1;
    LOG(st, seat, seat_name(seat), " discards ", st.t().card_name(action.a), " and takes ", card_names(st, field),
        " from Curia field ", pending.index + 1);
    field.clear();
}

// --- V: Atrium Auctionorum ---

// atrium (step): R11: a lone bidder on "1." pays the fixed price for the face-up cards; two bidders bid sealed.
void atrium(State& st) {
    int first = occupant(st, ATRIUM, 0);
    int second = occupant(st, ATRIUM, 1);
    if (first < 0) return;
    if (second >= 0) {
        st.bids.assign(static_cast<size_t>(st.num_players()), -1);
        push(st, {task(S_atrium_bid, first, 0), task(S_atrium_bid, second, 1), task(S_atrium_resolve)});
        return;
    }
    int price = numbers_of(st, ATRIUM).at("single_bidder_price");
    auto& fields = st.fields[ATRIUM];
    std::vector<int> up;
    for (int i = 0; i < static_cast<int>(fields.size()); i++)
        if (!fields[i].empty() && st.atrium_up[i]) up.push_back(i);
    if (st.players[first].money >= price && !up.empty()) {
        pay(st, first, price, "Atrium Auctionorum");
        std::vector<int> taken;
        for (int i : up) {
            taken.push_back(fields[i].back());
            fields[i].pop_back();
        }
        for (int card : taken) st.players[first].hand[card] += 1;
        LOG(st, first, seat_name(first), " takes ", card_names(st, taken), " from the Atrium");
    }
}

// atrium_bid (step)
void atrium_bid(State& st, int seat, int slot) { ask(st, Pending{ATRIUM_BID, seat, -1, slot}); }

// _legal_atrium_bid
void legal_atrium_bid(State& st, const Pending& pending, std::vector<Action>& out) {
    bid_choices(st, pending.seat, out);
}

// _resolve_atrium_bid
void resolve_atrium_bid(State& st, const Pending& pending, const Action& action) {
    seal_bid(st, pending.seat, action.a, "the Atrium cards");
}

// atrium_resolve (step): the higher bid wins, a tie goes to "1."; the winner pays the loser (R11).
void atrium_resolve(State& st) {
    int first = occupant(st, ATRIUM, 0);
    int second = occupant(st, ATRIUM, 1);
    int b1 = st.bids[first], b2 = st.bids[second];
    int winner, loser, amount;
    if (b1 >= b2) {
        winner = first;
        loser = second;
        amount = b1;
    } else {
        winner = second;
        loser = first;
        amount = b2;
    }
    LOG(st, -1, "Atrium bids revealed: ", seat_name(first), " ", b1, ", ", seat_name(second), " ", b2);
    pay(st, winner, amount, "Atrium bid");
    give_money(st, loser, amount, "Atrium bid of the winner");
    std::vector<int> taken;
    for (const auto& field : st.fields[ATRIUM]) taken.insert(taken.end(), field.begin(), field.end());
    for (auto& field : st.fields[ATRIUM]) field.clear();
    for (int card : taken) st.players[winner].hand[card] += 1;
    LOG(st, winner, seat_name(winner), " wins the Atrium auction and takes ", card_names(st, taken));
    st.bids.assign(static_cast<size_t>(st.num_players()), -1);
}

// --- VI: Catacombs ---

// catacombs_space (step)
void catacombs_space(State& st, int slot) {
    int seat = occupant(st, CATACOMBS, slot);
    if (seat >= 0 && !st.fields[CATACOMBS][0].empty()) ask(st, Pending{CATACOMBS_PURCHASE, seat, -1, slot});
}

// prices[pending.index] with Python's negative indexing
int catacombs_price(const State& st, int index) {
    const auto& prices = st.comps().region(CATACOMBS).prices;
    int n = static_cast<int>(prices.size());
    return prices.at(static_cast<size_t>(index < 0 ? index + n : index));
}

// _legal_catacombs
void legal_catacombs(State& st, const Pending& pending, std::vector<Action>& out) {
    int price = catacombs_price(st, pending.index);
    if (st.players[pending.seat].money >= price) {  // R12
        std::vector<int> cards = st.fields[CATACOMBS][0];
        std::sort(cards.begin(), cards.end());
        cards.erase(std::unique(cards.begin(), cards.end()), cards.end());
        for (int c : cards) out.push_back(pick_card(c));
    }
    out.push_back(decline());
}

// _resolve_catacombs
void resolve_catacombs(State& st, const Pending& pending, const Action& action) {
    int seat = pending.seat;
    if (action.type == A_DECLINE) {
        LOG(st, seat, seat_name(seat), " looks at the Catacombs and buys nothing");
        return;
    }
    int price = catacombs_price(st, pending.index);
    auto& pile = st.fields[CATACOMBS][0];
    auto it = std::find(pile.begin(), pile.end(), action.a);
    if (it == pile.end()) throw std::logic_error("list.remove(x): x not in list");
    pile.erase(it);
    st.players[seat].hand[action.a] += 1;
    pay(st, seat, price, "Catacombs, to the Colosseum");
    st.colosseum += price;
    LOG(st, seat, seat_name(seat), " buys a card from the Catacombs");
    LOG_PRIVATE(st, seat, seat, seat_name(seat), " bought ", st.t().card_name(action.a));
}

// --- VII: Pantheon ---

// pantheon_reveal (step)
void pantheon_reveal(State& st) {
    const auto& field = st.fields[PANTHEON][0];
    bool occupied = false;
    for (int s : st.t().region_spaces[PANTHEON])
        if (st.spaces[s] >= 0) occupied = true;
    if (!field.empty() && occupied) LOG(st, -1, "Pantheon card revealed: ", st.t().card_name(field[0]));
}

// pantheon_space (step): R13: a player who already has an eternal favor is not offered the sacrifice.
void pantheon_space(State& st, int slot) {
    int seat = occupant(st, PANTHEON, slot);
    if (seat < 0 || st.fields[PANTHEON][0].empty() || st.players[seat].eternal_favor) return;
    ask(st, Pending{PANTHEON_SACRIFICE, seat, -1, slot});
}

// _sacrifices: the card types a Pantheon card asks for (R13, R30; E33, E34): its faction's cards, any slave for a
// slave, an assassin for an assassin.
std::vector<int> sacrifices(const State& st, int revealed) {
    const auto& tables = st.t();
    int kind = tables.card_kind[revealed];
    if (kind == CK_SLAVE) {
        std::vector<int> out;
        for (const auto& cards : tables.slave_cards) out.insert(out.end(), cards.begin(), cards.end());
        return out;
    }
    if (kind == CK_ASSASSIN) return {revealed};
    return tables.faction_cards[tables.card_faction[revealed]];
}

// _legal_pantheon
void legal_pantheon(State& st, const Pending& pending, std::vector<Action>& out) {
    const auto& hand = st.players[pending.seat].hand;
    std::vector<int> choices;
    for (int c : sacrifices(st, st.fields[PANTHEON][0][0]))
        if (hand[c]) choices.push_back(c);
    std::stable_sort(choices.begin(), choices.end());
    for (int c : choices) out.push_back(pick_card(c));
    out.push_back(decline());
}

// _resolve_pantheon
void resolve_pantheon(State& st, const Pending& pending, const Action& action) {
    int seat = pending.seat;
    if (action.type == A_DECLINE) {
        LOG(st, seat, seat_name(seat), " makes no sacrifice at the Pantheon");
        return;
    }
    discard_from_hand(st, seat, action.a);
    st.sacrificed[seat] = true;
    LOG(st, seat, seat_name(seat), " sacrifices ", st.t().card_name(action.a), " at the Pantheon");
}

// pantheon_favor (step)
void pantheon_favor(State& st) {
    for (int seat = 0; seat < static_cast<int>(st.sacrificed.size()); seat++)
        if (st.sacrificed[seat]) give_eternal_favor(st, seat, "Pantheon sacrifice");
}

// --- VIII: Field of Mars ---

// _pair_size
int pair_size(const State& st) { return numbers_of(st, FIELD_OF_MARS).at("pair_size"); }

// mars_space (step)
void mars_space(State& st, int slot) {
    int seat = occupant(st, FIELD_OF_MARS, slot);
    if (seat >= 0) mars_offer(st, seat, slot);
}

// _log_mars_choice: R2: everybody reads that a sealed choice was made; only its owner reads which.
void log_mars_choice(State& st, int seat, std::string_view private_text) {
    LOG(st, seat, seat_name(seat), " makes a sealed choice on the Field of Mars");
    LOG_PRIVATE(st, seat, seat, seat_name(seat), " ", private_text, " on the Field of Mars (sealed)");
}

// _legal_pair_cards: cards that keep a full pair reachable, in ascending card-type order (one sequence per pair).
std::vector<int> legal_pair_cards(const State& st, int seat) {
    int need = pair_size(st) - static_cast<int>(st.staged.size());
    const auto& hand = st.players[seat].hand;
    const auto& tables = st.t();
    std::vector<std::vector<int>> groups_list;
    if (!st.staged.empty()) {
        const int faction = tables.card_faction[st.staged[0]];
        if (faction < 0) return {};  // a slave or assassin card makes no pair; a checked document never stages one
        std::vector<int> groups;
        for (int c : tables.faction_cards[faction])
            if (c >= st.staged.back()) groups.push_back(c);
        groups_list.push_back(std::move(groups));
    } else {
        groups_list = tables.faction_cards;
    }
    std::vector<int> out;
    for (const auto& cards : groups_list) {
        // ``card`` is offered if it and the cards of higher or equal type can finish the pair.
        int remaining = 0;
        for (auto it = cards.rbegin(); it != cards.rend(); ++it) {
            int card = *it;
            remaining += hand[card];
            if (hand[card] && remaining >= need) out.push_back(card);
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

// _legal_mars
void legal_mars(State& st, const Pending& pending, std::vector<Action>& out) {
    for (int c : legal_pair_cards(st, pending.seat)) out.push_back(pick_card(c));
    out.push_back(decline());
}

// _resolve_mars
void resolve_mars(State& st, const Pending& pending, const Action& action) {
    int seat = pending.seat;
    if (action.type == A_DECLINE) {
        unstage(st, seat);
        log_mars_choice(st, seat, "discards no pair");
        return;
    }
    if (static_cast<int>(st.staged.size()) + 1 < pair_size(st)) {
        stage(st, pending, action.a);
        return;
    }
    take_from_hand(st, seat, action.a);
    st.staged.push_back(action.a);
    if (st.staged.size() != 2) throw std::logic_error("a Field of Mars pair is two cards");
    int first = st.staged[0], second = st.staged[1];
    st.pairs.push_back(PairCards{seat, first, second});
    st.staged.clear();
    log_mars_choice(st, seat, cat("lays down the pair ", card_names(st, {first, second})));
    if (by_card(st, pending)) push(st, task(S_brutii_mars));  // R47: the Brutii may lay another pair while there is room
}

// mars_reveal (step): R14: a laurel per pair; the bonus laurel to the single highest pair sum, unless two players
// share it.
void mars_reveal(State& st) {
    const auto& numbers = numbers_of(st, FIELD_OF_MARS);
    const auto& value = st.t().card_value;
    std::vector<std::pair<int, int>> sums;  // (sum, seat)
    std::vector<PairCards> pairs = st.pairs;
    for (const auto& p : pairs) {
        st.discard.push_back(p.a);
        st.discard.push_back(p.b);
        sums.emplace_back(value[p.a] + value[p.b], p.seat);
        LOG(st, p.seat, seat_name(p.seat), " reveals ", card_names(st, {p.a, p.b}), " on the Field of Mars");
        give_laurels(st, p.seat, numbers.at("laurels_per_pair"), "Field of Mars pair");
    }
    if (!sums.empty()) {
        int best = sums[0].first;
        for (const auto& [s, seat] : sums) best = std::max(best, s);
        std::vector<int> holders;
        for (const auto& [s, seat] : sums)
            if (s == best && std::find(holders.begin(), holders.end(), seat) == holders.end()) holders.push_back(seat);
        if (holders.size() == 1)
            give_laurels(st, holders[0], numbers.at("bonus_laurels"), "highest pair on the Field of Mars");
        else
            LOG(st, -1, "the highest Field of Mars pair is tied: no bonus laurel (R14)");
    }
    st.pairs.clear();
}

// _flip_atrium: R8: "1." turns two face-down cards, picked at random; "2." turns the rest.
void flip_atrium(State& st, int seat, int slot) {
    auto& fields = st.fields[ATRIUM];
    std::vector<int> hidden;
    for (int i = 0; i < static_cast<int>(fields.size()); i++)
        if (!fields[i].empty() && !st.atrium_up[i]) hidden.push_back(i);
    if (slot == 0) {
        int flip = numbers_of(st, ATRIUM).at("first_flip");
        size_t k = static_cast<size_t>(std::min(flip, static_cast<int>(hidden.size())));
        hidden = chance(st).sample(hidden, k);
        std::sort(hidden.begin(), hidden.end());
    }
    for (int i : hidden) {
        st.atrium_up[i] = true;
        LOG(st, seat, "Atrium card turned face up: ", st.t().card_name(fields[i][0]));
    }
}

// _peek_pantheon
void peek_pantheon(State& st, int seat) {
    st.players[seat].pantheon_seen = true;
    const auto& field = st.fields[PANTHEON][0];
    if (!field.empty())
        LOG_PRIVATE(st, seat, seat, seat_name(seat), " looks at the Pantheon card: ", st.t().card_name(field[0]));
}

// --- the records ---

// _peek_hidden: visibility of a face-down field while a decision of ``kind`` is pending (for its decider only if
// ``own``).
template <int KIND, bool OWN>
bool peek_hidden(const State& st, int seat, int /*field*/) {
    return st.has_pending && st.pending.kind == KIND && (!OWN || st.pending.seat == seat);
}

// _curia_needs_card: R6, R30: fill until the sum (slaves count, E24) reaches the threshold or a leader or an assassin
// lies there (E23).
bool curia_needs_card(const State& st, const std::vector<int>& field) {
    const auto& tables = st.t();
    int total = 0;
    bool stopped = false;
    for (int c : field) {
        total += tables.card_value[c];
        if (std::find(tables.leader_card.begin(), tables.leader_card.end(), c) != tables.leader_card.end() ||
            tables.card_kind[c] == CK_ASSASSIN)
            stopped = true;
    }
    return total < numbers_of(st, CURIA).at("fill_sum") && !stopped;
}

// _atrium_spaces
void atrium_spaces(State& st, int seat, std::vector<int>& out) {
    for (int s : paired_spaces(st, st.t().region_spaces[ATRIUM], seat)) out.push_back(s);
}

// _atrium_cleared
void atrium_cleared(State& st) { std::fill(st.atrium_up.begin(), st.atrium_up.end(), 0); }

// _pantheon_spaces
void pantheon_spaces(State& st, int seat, std::vector<int>& out) {
    const auto& ids = st.t().region_spaces[PANTHEON];
    if (!st.players[seat].markers[VESTALS]) return;
    for (int s : ids)
        if (st.spaces[s] == seat) return;
    for (int s : free_spaces(st, PANTHEON)) out.push_back(s);
}

// _pantheon_cleared
void pantheon_cleared(State& st) {
    for (auto& player : st.players) player.pantheon_seen = false;
    st.sacrificed.assign(static_cast<size_t>(st.num_players()), 0);
}

// the Pantheon's visible: the player has looked at the card, or a sacrifice is being decided
bool pantheon_visible(const State& st, int seat, int i) {
    int n = st.num_players();
    const auto& player = st.players[static_cast<size_t>(seat < 0 ? seat + n : seat)];  // Python's index
    return player.pantheon_seen || peek_hidden<PANTHEON_SACRIFICE, false>(st, seat, i);
}

// _plain
template <int R>
void plain(State& st, int /*seat*/, std::vector<int>& out) {
    for (int s : free_spaces(st, R)) out.push_back(s);
}

// _paid
template <int R>
void paid(State& st, std::vector<Task>& out) {
    evaluate_paid_fields(st, R);
    brutii_tail(st, R, out);
}

void evaluate_latrine(State& st, std::vector<Task>& out) {
    out.push_back(task(S_latrine));
    brutii_tail(st, LATRINE, out);
}

void evaluate_curia(State& st, std::vector<Task>& out) {
    for (int i = 0; i < slots(st, CURIA); i++) out.push_back(task(S_curia_field, i));
    brutii_tail(st, CURIA, out);
}

void evaluate_atrium(State&, std::vector<Task>& out) { out.push_back(task(S_atrium)); }

void evaluate_catacombs(State& st, std::vector<Task>& out) {
    for (int i = 0; i < slots(st, CATACOMBS); i++) out.push_back(task(S_catacombs_space, i));
    brutii_tail(st, CATACOMBS, out);
}

void evaluate_pantheon(State& st, std::vector<Task>& out) {
    out.push_back(task(S_pantheon_reveal));
    for (int i = 0; i < slots(st, PANTHEON); i++) out.push_back(task(S_pantheon_space, i));
    brutii_tail(st, PANTHEON, out);
    out.push_back(task(S_pantheon_favor));
}

void evaluate_mars(State& st, std::vector<Task>& out) {
    for (int i = 0; i < slots(st, FIELD_OF_MARS); i++) out.push_back(task(S_mars_space, i));
    brutii_tail(st, FIELD_OF_MARS, out);
    out.push_back(task(S_mars_reveal));
}

}  // namespace

// mars_offer: ask ``seat`` (on space ``slot``, or the Brutii) for a sealed pair, if his hand can make one.
void mars_offer(State& st, int seat, int slot) {
    st.staged.clear();
    if (!legal_pair_cards(st, seat).empty())
        ask(st, Pending{FIELD_OF_MARS_PAIR, seat, -1, slot});
    else  // the same public words as a chosen pair or refusal (R1, R2)
        log_mars_choice(st, seat, "discards no pair");
}

void register_regions() {
    STEPS[S_evaluate] = [](State& st, const Task& t) { evaluate(st, t.a[0]); };
    STEPS[S_end_region] = [](State& st, const Task& t) { end_region(st, t.a[0]); };
    STEPS[S_latrine] = [](State& st, const Task&) { latrine(st); };
    STEPS[S_curia_field] = [](State& st, const Task& t) { curia_field(st, t.a[0]); };
    STEPS[S_atrium] = [](State& st, const Task&) { atrium(st); };
    STEPS[S_atrium_bid] = [](State& st, const Task& t) { atrium_bid(st, t.a[0], t.a[1]); };
    STEPS[S_atrium_resolve] = [](State& st, const Task&) { atrium_resolve(st); };
    STEPS[S_catacombs_space] = [](State& st, const Task& t) { catacombs_space(st, t.a[0]); };
    STEPS[S_pantheon_reveal] = [](State& st, const Task&) { pantheon_reveal(st); };
    STEPS[S_pantheon_space] = [](State& st, const Task& t) { pantheon_space(st, t.a[0]); };
    STEPS[S_pantheon_favor] = [](State& st, const Task&) { pantheon_favor(st); };
    STEPS[S_mars_space] = [](State& st, const Task& t) { mars_space(st, t.a[0]); };
    STEPS[S_mars_reveal] = [](State& st, const Task&) { mars_reveal(st); };

    // RegionRule{evaluate, free_spaces, needs_card, visible, placed, cleared, face_up}
    REGIONS[THERMAE] = RegionRule{paid<THERMAE>, plain<THERMAE>, nullptr, nullptr, nullptr, nullptr, true};
    REGIONS[FORUM] = RegionRule{paid<FORUM>, plain<FORUM>, nullptr, nullptr, nullptr, nullptr, true};
    REGIONS[LATRINE] = RegionRule{evaluate_latrine, plain<LATRINE>, nullptr, peek_hidden<LATRINE_CHOICE, false>,
                                  nullptr, nullptr, false};
    REGIONS[CURIA] = RegionRule{evaluate_curia, plain<CURIA>, curia_needs_card, nullptr, nullptr, nullptr, true};
    REGIONS[ATRIUM] = RegionRule{evaluate_atrium,
                                 atrium_spaces,
                                 nullptr,
                                 [](const State& st, int, int i) -> bool { return st.atrium_up[i]; },
                                 flip_atrium,
                                 atrium_cleared,
                                 false};
    REGIONS[CATACOMBS] = RegionRule{
        evaluate_catacombs,
        plain<CATACOMBS>,
        [](const State& st, const std::vector<int>& field) -> bool {
            return static_cast<int>(field.size()) < numbers_of(st, CATACOMBS).at("pile");
        },
        peek_hidden<CATACOMBS_PURCHASE, true>,
        nullptr,
        nullptr,
        false};
    REGIONS[PANTHEON] = RegionRule{evaluate_pantheon, pantheon_spaces, nullptr, pantheon_visible,
                                   [](State& st, int seat, int) { peek_pantheon(st, seat); },
                                   pantheon_cleared, false};
    REGIONS[FIELD_OF_MARS] = RegionRule{evaluate_mars, plain<FIELD_OF_MARS>, nullptr,
                                        [](const State&, int, int) -> bool { return false; },
                                        nullptr, nullptr, false};

    // DecisionRule{legal, resolve, always_asked, bid, stages}
    DECISIONS[LATRINE_CHOICE] = DecisionRule{legal_latrine, resolve_latrine, false, false, false};
    DECISIONS[CURIA_DISCARD] = DecisionRule{legal_curia, resolve_curia, false, false, false};
    DECISIONS[ATRIUM_BID] = DecisionRule{legal_atrium_bid, resolve_atrium_bid, false, true, false};
    // R12: the occupant may look at the pile without buying
    DECISIONS[CATACOMBS_PURCHASE] = DecisionRule{legal_catacombs, resolve_catacombs, true, false, false};
    DECISIONS[PANTHEON_SACRIFICE] = DecisionRule{legal_pantheon, resolve_pantheon, false, false, false};
    DECISIONS[FIELD_OF_MARS_PAIR] = DecisionRule{legal_mars, resolve_mars, false, false, true};
}

}  // namespace tribune
