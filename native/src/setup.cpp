// tribune_env/engine/setup.py (set-up, R3/R4; round start and end) and rounds.py (the round skeleton).
#include <algorithm>
#include <set>

#include "engine.hpp"

namespace tribune {

namespace {

// _random_victory_card (R3, R41): a random card valid for the player count, then a random row of it.
std::string random_victory_card(const Rules& r, PyRandom& rng) {
    auto valid = r.default_victory_cards();
    std::set<std::string> names;
    for (const VictoryCard* c : valid) names.insert(c->expansion ? c->id : c->card);
    std::vector<std::string> cards(names.begin(), names.end());
    const std::string& card = cards[static_cast<size_t>(rng.randrange(static_cast<int64_t>(cards.size())))];
    std::vector<std::string> rows;
    for (const VictoryCard* c : valid)
        if ((c->expansion ? c->id : c->card) == card) rows.push_back(c->id);
    return rows[static_cast<size_t>(rng.randrange(static_cast<int64_t>(rows.size())))];
}

// _expansion_setup (E10-E12)
void expansion_setup(State& st) {
    std::vector<int> pile;
    for (const auto& tile : st.comps().expansion.emperor_tiles) pile.push_back(tile.id);
    chance(st).shuffle(pile);
    st.emperor_up = pile.back();
    pile.pop_back();
    st.emperor_pile = pile;
    LOG(st, -1, "favor of the emperor tile ", st.emperor_up, " is face up at the Basilica");
}

void setup_discard(State& st, int seat) { ask(st, Pending{SETUP_DISCARD, seat, -1, -1}); }

void legal_setup(State& st, const Pending& pending, std::vector<Action>& out) { hand_choices(st, pending.seat, out); }

void resolve_setup(State& st, const Pending& pending, const Action& action) {
    discard_from_hand(st, pending.seat, action.a);
    LOG(st, pending.seat, seat_name(pending.seat), " discards a card face down");
    LOG_PRIVATE(st, pending.seat, pending.seat, seat_name(pending.seat), " discarded ", st.t().card_name(action.a));
}

void setup_finish(State& st) {
    st.draw.insert(st.draw.end(), st.discard.begin(), st.discard.end());
    st.discard.clear();
    chance(st).shuffle(st.draw);
}

void round_start(State& st) {
    st.round += 1;
    st.phase = CARD_PLACEMENT;
    LOG(st, -1, "round ", st.round, " begins; starting player ", seat_name(st.start_seat));
    push(st, round_tasks(st));
}

// _finish
void finish(State& st) {
    st.phase = GAME_OVER;
    st.agenda.clear();
    st.winners = decide_winners(st);
    if (st.logging) {
        std::string text = "game over; winner(s): ";
        for (size_t i = 0; i < st.winners.size(); i++) {
            if (i) text += ", ";
            text += seat_name(st.winners[i]);
        }
        st.log(-1, text);
    }
}

void round_end(State& st) {
    for (auto& region : st.fields)
        for (auto& field : region) {
            st.discard.insert(st.discard.end(), field.begin(), field.end());
            field.clear();
        }
    st.coin_bowl.clear();
    st.start_seat = (st.start_seat + 1) % st.num_players();
    if (game_ends(st)) {
        finish(st);
    } else if (st.round >= st.config().round_limit) {
        st.truncated = true;  // R25
        LOG(st, -1, "round limit ", st.config().round_limit, " reached: the game is truncated (R25)");
        finish(st);
    } else {
        push(st, task(S_round_start));
    }
}

}  // namespace

// rounds.py round_tasks(state): the agenda of a whole round (ROUND or EXPANSION_ROUND, then round_end).
std::vector<Task> round_tasks(State& st) {
    std::vector<Task> out;
    const auto& regions = st.t().regions;
    bool brutii = st.brutii >= 0;
    out.push_back(task(S_fill_board, 0));
    if (!st.config().expansion) {
        out.push_back(task(S_placement));
        for (int r : regions) out.push_back(task(S_evaluate, r));
        for (int f = 0; f < NUM_FACTIONS; f++) out.push_back(task(S_takeover, f));
        for (int f = 0; f < NUM_FACTIONS; f++) out.push_back(task(S_benefit, f));
        out.push_back(task(S_chariot));
    } else {
        out.push_back(task(S_placement));
        if (brutii) out.push_back(task(S_brutii_bowl));
        if (brutii) out.push_back(task(S_brutii_option, BC_CARDS));
        for (int r : regions)
            if (!region_is_expansion(r)) out.push_back(task(S_evaluate, r));
        if (brutii) out.push_back(task(S_brutii_option, BC_FACTION_TAKEOVER));
        for (int f = 0; f < NUM_FACTIONS; f++) out.push_back(task(S_takeover, f));
        out.push_back(task(S_tribunus_plebis));
        for (int f = 0; f < NUM_FACTIONS; f++) out.push_back(task(S_benefit, f));
        out.push_back(task(S_benefits_end));
        for (int r : regions)
            if (region_is_expansion(r)) out.push_back(task(S_evaluate, r));
        out.push_back(task(S_chariot));
        out.push_back(task(S_preparation));
    }
    out.push_back(task(S_round_end));
    return out;
}

// new_state (setup.py): deck, victory card, starting player, money, deal; the set-up discards come next.
State new_state(std::shared_ptr<const Rules> rules, uint64_t seed) {
    State st(rules);
    const Rules& t = *rules;
    const Config& config = t.config;
    st.chance = seed & ((uint64_t{1} << 63) - 1);
    PyRandom rng = chance(st);
    std::vector<int> deck;
    for (int card = 0; card < t.num_card_types(); card++)
        for (int k = 0; k < t.card_copies[static_cast<size_t>(card)]; k++) deck.push_back(card);
    rng.shuffle(deck);
    st.draw = deck;
    const Components& comps = t.comps;
    if (config.expansion) expansion_setup(st);
    if (!config.point_variant)
        st.victory_card = config.has_victory_card ? config.victory_card : random_victory_card(t, rng);
    int n = config.players;
    if (config.brutii) {  // R43
        st.brutii = config.brutii_seat >= 0 ? config.brutii_seat : static_cast<int>(rng.randrange(n));
        st.start_seat = (st.brutii + 1) % n;
    } else {
        st.start_seat = config.start_seat >= 0 ? config.start_seat : static_cast<int>(rng.randrange(n));
    }
    std::vector<int> order;
    for (int k = 0; k < n; k++) order.push_back((st.start_seat + k) % n);
    for (int k = 0; k < n; k++) {
        int seat = order[static_cast<size_t>(k)];
        st.players[static_cast<size_t>(seat)].money = comps.starting_money + k * comps.starting_money_step;
        for (int d = 0; d < comps.deal; d++) {
            int card = st.draw.back();
            st.draw.pop_back();
            st.players[static_cast<size_t>(seat)].hand[static_cast<size_t>(card)] += 1;
        }
    }
    track_fulfilment(st);
    LOG(st, -1, "new game: ", n, " players, starting player ", seat_name(st.start_seat), ", victory card ",
        st.victory_card.empty() ? std::string("none (point-value variant)") : st.victory_card,
        config.expansion ? ", with the expansion" : "",
        config.brutii ? cat(", ", seat_name(st.brutii), " is the Brutii") : std::string());
    std::vector<Task> tasks;
    for (int seat : order)
        for (int d = 0; d < comps.setup_discard; d++) tasks.push_back(task(S_setup_discard, seat));
    tasks.push_back(task(S_setup_finish));
    tasks.push_back(task(S_round_start));
    push(st, tasks);
    return st;
}

void register_setup() {
    STEPS[S_setup_discard] = [](State& st, const Task& t) { setup_discard(st, t.a[0]); };
    STEPS[S_setup_finish] = [](State& st, const Task&) { setup_finish(st); };
    STEPS[S_round_start] = [](State& st, const Task&) { round_start(st); };
    STEPS[S_round_end] = [](State& st, const Task&) { round_end(st); };
    DECISIONS[SETUP_DISCARD] = {legal_setup, resolve_setup, false, false, false};
}

}  // namespace tribune
