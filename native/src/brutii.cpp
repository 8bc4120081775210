// tribune_env/engine/brutii.py: the Brutii variant (R42-R54; E76-E107): his phase-2 turns, his action cards and what
// they do. Each turn reveals one of his face-down discs at random (R44): a cross does nothing, an arrow asks him to
// play an unplayed action card, the arrow with follower also has him place the proconsul if he holds it. Four cards
// act at once (E89, R51-R54); the others let him act at a location after its occupants (R47, brutii_at), in the
// take-overs (R48, takeovers.cpp) and at the chariot auction (R49). Phase 8 takes his cards back (E104).
#include <algorithm>
#include <string>
#include <vector>

#include "engine.hpp"

namespace tribune {

namespace {

// SLAVE_REGIONS: the regions whose face-up slaves "Slave Cards" takes, in board order (R52).
constexpr int SLAVE_REGIONS[3] = {THERMAE, FORUM, CURIA};

// card_name
std::string card_name(int card) {
    std::string out = BRUTII_CARD_KEYS[card];
    std::replace(out.begin(), out.end(), '_', ' ');
    return out;
}

// disc_name
std::string disc_name(int disc) {
    std::string out;
    for (const char* p = BRUTII_DISC_KEYS[disc]; *p; ++p) {
        if (*p == '_')
            out += " + ";
        else
            out += *p;
    }
    return out;
}

std::string brutii_name(int seat) { return cat(seat_name(seat), " (the Brutii)"); }

// --- phase 2: his turns (R44) ---------------------------------------------------------------------

// face_down: his face-down discs, by symbol in a fixed order (their order on the table is unknown to all, R45).
std::vector<int> face_down(const State& st) {
    const BrutiiSpec& spec = brutii_spec(st);
    std::vector<int> out;
    for (int d = 0; d < NUM_BRUTII_DISCS; d++) {
        auto found = spec.discs.find(d);
        int copies = found == spec.discs.end() ? 0 : found->second;
        int left = copies - static_cast<int>(std::count(st.brutii_revealed.begin(), st.brutii_revealed.end(), d));
        for (int k = 0; k < left; k++) out.push_back(d);
    }
    return out;
}

// brutii_card
void brutii_card(State& st) { ask(st, Pending{BRUTII_CARD, st.brutii, -1, -1}); }

// _legal_card
void legal_card(State& st, const Pending&, std::vector<Action>& out) {
    for (int c = 0; c < NUM_BRUTII_CARDS; c++)
        if (std::find(st.brutii_played.begin(), st.brutii_played.end(), c) == st.brutii_played.end())
            out.push_back(choose_action_card(c));
}

// _resolve_card (E88, E89): the card lies face up; Buy a Legion, Slave Cards, Mass Murder and Veto act at once.
void resolve_card(State& st, const Pending& pending, const Action& action) {
    int card = action.a;
    st.brutii_played.push_back(card);
    LOG(st, pending.seat, brutii_name(pending.seat), " plays the action card ", card_name(card));
    if (card == BC_VETO)
        ask(st, Pending{BRUTII_VETO, pending.seat, -1, -1});
    else if (card == BC_BUY_A_LEGION)  // _IMMEDIATE_STEP
        push(st, task(S_brutii_legion));
    else if (card == BC_SLAVE_CARDS)
        push(st, task(S_brutii_slaves));
    else if (card == BC_MASS_MURDER)
        push(st, task(S_mass_murder));
}

// brutii_proconsul (E86, E91): with the follower disc he places the proconsul, if he holds it, as a normal placement.
void brutii_proconsul(State& st) {
    int seat = st.brutii;
    if (st.players[seat].followers > 0)
        ask(st, Pending{PLACE_FOLLOWER, seat, -1, -1});
    else
        LOG(st, seat, brutii_name(seat), " holds no proconsul to place");
}

// brutii_pass (E90): his turn ends; the next seat's turn follows.
void brutii_pass(State& st) {
    st.turn_seat = (st.brutii + 1) % st.num_players();
    push(st, task(S_place_next));
}

// brutii_bowl: the end of phase 2: with "Denarii" he takes 1 per follower on the coin bowl (R47, E98); a proconsul
// he did not place goes back.
void brutii_bowl(State& st) {
    int seat = st.brutii;
    st.players[seat].followers = 0;
    if (played(st, BC_DENARII))
        give_money(st, seat, static_cast<int>(st.coin_bowl.size()),
                   "a denarius per follower on the coin bowl, Denarii (R47)");
}

// --- the cards that act at once (R51-R54) -----------------------------------------------------------

// _legion_price (R51): the sum of his displayed Legates set, or the printed price without one.
int legion_price(const State& st) {
    if (st.controller[LEGATES] == st.brutii) return set_sum(st, st.sets[LEGATES]);
    return brutii_spec(st).legion_price;
}

// brutii_legion
void brutii_legion(State& st) {
    int seat = st.brutii;
    int price = legion_price(st);
    if (st.players[seat].money >= price)
        ask(st, Pending{BRUTII_LEGION, seat, -1, -1});
    else
        LOG(st, seat, brutii_name(seat), " cannot pay ", price, " for a legion (R51)");
}

// _legal_legion
void legal_legion(State&, const Pending&, std::vector<Action>& out) {
    out.push_back(commit());
    out.push_back(decline());
}

// _resolve_legion
void resolve_legion(State& st, const Pending& pending, const Action& action) {
    int seat = pending.seat;
    if (action.type == A_DECLINE) {
        LOG(st, seat, brutii_name(seat), " buys no legion");
        return;
    }
    pay(st, seat, legion_price(st), "a legion, Buy a Legion (R51)");
    give_legions(st, seat, 1, "Buy a Legion (R51)");
}

// brutii_slaves (R52): every face-up slave on a Thermae, Forum or Curia field with no follower yet, in board order.
void brutii_slaves(State& st) {
    std::vector<Task> tasks;
    for (int region : SLAVE_REGIONS) {
        if (st.veto == region) continue;
        const auto& fields = st.fields[region];
        for (int i = 0; i < static_cast<int>(fields.size()); i++) {
            if (st.spaces[st.t().region_spaces[region][i]] >= 0) continue;
            for (int c : fields[i])
                if (st.t().is_slave(c)) tasks.push_back(task(S_brutii_slave, region, i, c));
        }
    }
    push(st, tasks);
}

// brutii_slave (R52): while he holds enough cards he lays them on the field, one at a time, then takes the slave.
void brutii_slave(State& st, int region, int i, int slave) {
    int seat = st.brutii;
    if (st.players[seat].hand_size() < brutii_spec(st).slave_lay) {
        LOG(st, seat, brutii_name(seat), " has too few cards to take another slave (R52)");
        return;
    }
    st.staged.clear();
    push(st, task(S_brutii_lay, region, i, slave));
    ask(st, Pending{BRUTII_SLAVES, seat, -1, -1});
}

// brutii_lay
void brutii_lay(State& st, int region, int i, int slave) {
    int seat = st.brutii;
    std::vector<int> cards;
    cards.swap(st.staged);
    auto& field = st.fields[region][i];
    auto it = std::find(field.begin(), field.end(), slave);
    if (it == field.end()) throw std::logic_error("list.remove(x): x not in list");
    field.erase(it);
    field.insert(field.end(), cards.begin(), cards.end());
    st.players[seat].hand[slave] += 1;
    LOG(st, seat, brutii_name(seat), " lays ", card_names(st, cards), " on ", REGION_KEYS[region], " field ", i + 1,
        " and takes ", st.t().card_name(slave), " (R52)");
}

// _legal_slaves: cards of the hand in ascending card-type order (one sequence per set), each offered only if the
// cards of its type and higher still complete the set.
void legal_slaves(State& st, const Pending& pending, std::vector<Action>& out) {
    const auto& hand = st.players[pending.seat].hand;
    int need = brutii_spec(st).slave_lay - static_cast<int>(st.staged.size());
    int start = st.staged.empty() ? 0 : st.staged.back();
    size_t first = out.size();
    int remaining = 0;
    for (int card = static_cast<int>(hand.size()) - 1; card >= start; card--) {
        remaining += hand[card];
        if (hand[card] && remaining >= need) out.push_back(pick_card(card));
    }
    std::reverse(out.begin() + static_cast<long>(first), out.end());
}

// _resolve_slaves
void resolve_slaves(State& st, const Pending& pending, const Action& action) {
    if (static_cast<int>(st.staged.size()) + 1 < brutii_spec(st).slave_lay) {
        stage(st, pending, action.a);
        return;
    }
    take_from_hand(st, pending.seat, action.a);
    st.staged.push_back(action.a);
}

// mass_murder (R53): every displayed set of the printed size or more, his own included, loses its highest card.
void mass_murder(State& st) {
    int seat = st.brutii;
    int least = brutii_spec(st).mass_murder_set;
    for (int faction = 0; faction < static_cast<int>(st.sets.size()); faction++) {
        auto& cards = st.sets[faction];
        if (static_cast<int>(cards.size()) >= least) {
            int card = remove_highest(st, cards);
            st.discard.push_back(card);
            int owner = st.controller[faction];
            LOG(st, seat, "Mass Murder: ", seat_name(owner), "'s ", faction_name(st, faction), " set loses ",
                st.t().card_name(card), " (R53)");
        }
    }
}

// _legal_veto
void legal_veto(State& st, const Pending&, std::vector<Action>& out) {
    for (int r : st.t().regions) out.push_back(choose_region(r));
}

// _resolve_veto (R54): no follower may go there for the rest of the round; the region is not evaluated.
void resolve_veto(State& st, const Pending& pending, const Action& action) {
    st.veto = action.a;
    LOG(st, pending.seat, brutii_name(pending.seat), " vetoes ", REGION_KEYS[action.a], " (R54)");
}

// --- options at the start of phases 3 and 4 (R46) -----------------------------------------------------

// _OPTION_KIND
int option_kind(int card) { return card == BC_CARDS ? BRUTII_CARDS_OPTION : BRUTII_TAKEOVER_OPTION; }

// brutii_option (R46): "Cards" is chosen at the start of phase 3, "Faction Take-Over" at the start of phase 4.
void brutii_option(State& st, int card) {
    st.phase = option_phase(card);
    if (played(st, card)) ask(st, Pending{option_kind(card), st.brutii, -1, -1});
}

// _legal_option
void legal_option(State&, const Pending&, std::vector<Action>& out) {
    out.push_back(choose_option(0));
    out.push_back(choose_option(1));
}

// _option_resolver(card)
template <int CARD>
void resolve_option(State& st, const Pending& pending, const Action& action) {
    st.brutii_options[option_of(CARD)] = action.a;
    LOG(st, pending.seat, brutii_name(pending.seat), " chooses option ", action.a + 1, " of ", card_name(CARD));
}

// --- at the locations, after the occupants (R47) ----------------------------------------------------

// _take_all
void take_all(State& st, int region, const std::vector<std::vector<int>*>& fields, bool private_ = false) {
    int seat = st.brutii;
    std::vector<int> cards;
    for (auto* field : fields) cards.insert(cards.end(), field->begin(), field->end());
    for (auto* field : fields) field->clear();
    for (int card : cards) st.players[seat].hand[card] += 1;
    if (private_) {  // R45: the Catacombs' cards are his secret
        LOG(st, seat, brutii_name(seat), " takes ", static_cast<int>(cards.size()), " card(s) from ",
            REGION_KEYS[region]);
        LOG_PRIVATE(st, seat, seat, seat_name(seat), " takes ", card_names(st, cards), " from ", REGION_KEYS[region]);
    } else if (!cards.empty()) {
        LOG(st, seat, brutii_name(seat), " takes ", card_names(st, cards), " from ", REGION_KEYS[region], " (R47)");
    }
}

// _occupied
bool occupied(const State& st, int region) {
    for (int s : st.t().region_spaces[region])
        if (st.spaces[s] >= 0) return true;
    return false;
}

// brutii_at (R47): the Brutii acts at ``region`` after every follower there.
void brutii_at(State& st, int region) {
    int seat = st.brutii;
    auto& fields = st.fields[region];
    if (region == FORUM || region == CURIA) {  // Cards 1: what no occupant bought or discarded for
        std::vector<std::vector<int>*> full;
        for (auto& f : fields)
            if (!f.empty()) full.push_back(&f);
        take_all(st, region, full);
    } else if (region == CATACOMBS) {  // Cards 2: the pile left after the occupants
        std::vector<std::vector<int>*> all;
        for (auto& f : fields) all.push_back(&f);
        take_all(st, region, all, true);
    } else if (region == LATRINE) {  // Denarii: an empty Latrine pays him its card's value
        if (!fields[0].empty() && !occupied(st, region)) {
            int value = st.t().card_value[fields[0][0]];
            LOG(st, seat, "Latrine card revealed: ", st.t().card_name(fields[0][0]));
            give_money(st, seat, value, "the empty Latrine's card, Denarii (R47)");
        }
    } else if (region == PANTHEON) {
        if (!fields[0].empty() && occupied(st, region) && !st.players[seat].eternal_favor)
            ask(st, Pending{PANTHEON_SACRIFICE, seat, -1, BRUTII_SLOT});
    } else if (region == FIELD_OF_MARS) {
        push(st, task(S_brutii_mars));
    } else if (region == REFUGIUM) {
        st.staged.clear();
        ask(st, Pending{REFUGIUM_OPTION, seat, -1, BRUTII_SLOT});
    } else if (region == BASILICA) {
        ask(st, Pending{BASILICA_CLAIM, seat, -1, BRUTII_SLOT});
    } else if (region == CAPITOLEUM) {
        ask(st, Pending{OFFICIAL_CHOICE, seat, -1, BRUTII_SLOT});
    }
}

// mars_room: pairs the Brutii may still lay with "Laurels": the Field of Mars' empty spaces, plus the pair his
// proconsul may lay there as an occupant, less his pairs (R47).
int mars_room(const State& st) {
    int empty = 0, standing = 0, laid = 0;
    for (int s : st.t().region_spaces[FIELD_OF_MARS]) {
        if (st.spaces[s] < 0) empty++;
        if (st.spaces[s] == st.brutii) standing++;
    }
    for (const auto& p : st.pairs)
        if (p.seat == st.brutii) laid++;
    return empty + standing - laid;
}

// brutii_mars (R47, E97): another sealed pair while the Field of Mars has room for it (asked again after each pair).
void brutii_mars(State& st) {
    if (mars_room(st) > 0) mars_offer(st, st.brutii, BRUTII_SLOT);
}

// --- phase 8 (E104) ----------------------------------------------------------------------------------

// brutii_reset (E104): he takes his action cards back and turns his discs face down; his options and Veto end.
void brutii_reset(State& st) {
    st.brutii_played.clear();
    st.brutii_revealed.clear();
    st.brutii_options[0] = st.brutii_options[1] = -1;
    st.veto = -1;
    LOG(st, st.brutii, brutii_name(st.brutii), " takes his action cards back");
}

}  // namespace

// brutii_turn: one phase-2 turn: reveal a disc at random and queue what it asks (E83-E86, E90).
void brutii_turn(State& st) {
    int seat = st.brutii;
    st.brutii_turns -= 1;
    std::vector<int> left = face_down(st);
    int disc = left[static_cast<size_t>(chance(st).randrange(static_cast<int64_t>(left.size())))];
    st.brutii_revealed.push_back(disc);
    LOG(st, seat, brutii_name(seat), " reveals a disc: ", disc_name(disc));
    std::vector<Task> tasks;
    if (disc != CROSS) tasks.push_back(task(S_brutii_card));
    if (disc == ARROW_FOLLOWER) tasks.push_back(task(S_brutii_proconsul));
    tasks.push_back(task(S_brutii_pass));
    push(st, tasks);
}

void register_brutii() {
    STEPS[S_brutii_card] = [](State& st, const Task&) { brutii_card(st); };
    STEPS[S_brutii_proconsul] = [](State& st, const Task&) { brutii_proconsul(st); };
    STEPS[S_brutii_pass] = [](State& st, const Task&) { brutii_pass(st); };
    STEPS[S_brutii_bowl] = [](State& st, const Task&) { brutii_bowl(st); };
    STEPS[S_brutii_legion] = [](State& st, const Task&) { brutii_legion(st); };
    STEPS[S_brutii_slaves] = [](State& st, const Task&) { brutii_slaves(st); };
    STEPS[S_brutii_slave] = [](State& st, const Task& t) { brutii_slave(st, t.a[0], t.a[1], t.a[2]); };
    STEPS[S_brutii_lay] = [](State& st, const Task& t) { brutii_lay(st, t.a[0], t.a[1], t.a[2]); };
    STEPS[S_mass_murder] = [](State& st, const Task&) { mass_murder(st); };
    STEPS[S_brutii_option] = [](State& st, const Task& t) { brutii_option(st, t.a[0]); };
    STEPS[S_brutii_at] = [](State& st, const Task& t) { brutii_at(st, t.a[0]); };
    STEPS[S_brutii_mars] = [](State& st, const Task&) { brutii_mars(st); };
    STEPS[S_brutii_reset] = [](State& st, const Task&) { brutii_reset(st); };

    DECISIONS[BRUTII_CARD] = {legal_card, resolve_card, false, false, false};
    DECISIONS[BRUTII_CARDS_OPTION] = {legal_option, resolve_option<BC_CARDS>, true, false, false};
    DECISIONS[BRUTII_TAKEOVER_OPTION] = {legal_option, resolve_option<BC_FACTION_TAKEOVER>, true, false, false};
    DECISIONS[BRUTII_VETO] = {legal_veto, resolve_veto, false, false, false};
    DECISIONS[BRUTII_SLAVES] = {legal_slaves, resolve_slaves, false, false, true};
    DECISIONS[BRUTII_LEGION] = {legal_legion, resolve_legion, true, false, false};
}

}  // namespace tribune
