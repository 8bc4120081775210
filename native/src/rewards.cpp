// tribune_env/engine/rewards.py: take-over rewards: take-over benefit, leader ability, faction marker, first laurel
// (R17). Also the assassin (R16), shared by the Plebeians' take-over benefit and the Gladiators' faction benefit.
#include "engine.hpp"

namespace tribune {

// cards_text: "a card" or "N cards", for option names.
std::string cards_text(int n) { return n == 1 ? std::string("a card") : cat(n, " cards"); }

// gain_scroll: R19, a scroll only for a player without a tile.
void gain_scroll(State& st, int seat, std::string_view why) {
    st.players[seat].tile = SCROLL;
    touch(st, seat);
    LOG(st, seat, seat_name(seat), " gains a scroll tile (", why, ")");
}

namespace {

constexpr int AGRIPPA_SCROLL = 0, AGRIPPA_CARD = 1;

std::vector<int> cato_choices(const State& st, int seat);

// _numbers
const Numbers& numbers(const State& st, int faction) { return st.comps().factions[faction].numbers; }

// takeover_benefit
void takeover_benefit(State& st, int faction, int seat) {
    const Numbers& n = numbers(st, faction);
    std::string why = cat(faction_name(st, faction), " take-over");
    switch (faction) {
        case GLADIATORS: give_legions(st, seat, n.at("takeover_legions"), why); break;
        case LEGATES:
        case PATRICIANS:
        case SENATORS: give_laurels(st, seat, n.at("takeover_laurels"), why); break;
        case PRAETORIANS: push(st, task(S_draw, seat, n.at("takeover_cards"), 0)); break;
        case PLEBEIANS: push(st, {task(S_draw, seat, n.at("takeover_cards"), 0), task(S_assassin, seat)}); break;
        case VESTALS: give_money(st, seat, n.at("takeover_denarii"), why); break;
        default: break;
    }
}

// leader
void leader(State& st, int faction, int seat) {
    const Numbers& n = numbers(st, faction);
    std::string why = cat("leader ", st.comps().factions[faction].leader);
    Player& player = st.players[seat];
    switch (faction) {
        case GLADIATORS: give_legions(st, seat, n.at("leader_legions"), why); break;
        case LEGATES: give_laurels(st, seat, n.at("leader_laurels"), why); break;
        case PRAETORIANS:
            if (player.hand_size()) ask(st, Pending{TIGELLINUS_DISCARD, seat, faction, -1});
            break;
        case PLEBEIANS: ask(st, Pending{AGRIPPA_CHOICE, seat, faction, -1}); break;
        case PATRICIANS: give_money(st, seat, n.at("leader_denarii"), why); break;
        case VESTALS:
            if (!player.eternal_favor) give_eternal_favor(st, seat, why);
            break;
        default:
            if (!cato_choices(st, seat).empty()) ask(st, Pending{CATO_MARKER, seat, faction, -1});
            break;
    }
}

// marker
void marker(State& st, int faction, int seat) {
    Player& player = st.players[seat];
    if (!player.markers[faction]) {
        player.markers[faction] = true;
        touch(st, seat);
        LOG(st, seat, seat_name(seat), " takes a ", faction_name(st, faction), " faction marker");
    }
}

// first_laurel
void first_laurel(State& st, int faction, int seat) {
    if (st.first_laurel[faction]) {
        st.first_laurel[faction] = false;
        give_laurels(st, seat, st.comps().starting_laurels, "first controller");
    }
}

// --- Gaius Tigellinus ---

// _legal_tigellinus
void legal_tigellinus(State& st, const Pending& pending, std::vector<Action>& out) {
    hand_choices(st, pending.seat, out);
    out.push_back(decline());
}

// _resolve_tigellinus
void resolve_tigellinus(State& st, const Pending& pending, const Action& action) {
    if (action.type == A_DECLINE) return;
    discard_from_hand(st, pending.seat, action.a);
    LOG(st, pending.seat, seat_name(pending.seat), " discards ", st.t().card_name(action.a));
    give_legions(st, pending.seat, numbers(st, pending.faction).at("leader_legions"), "leader Gaius Tigellinus");
}

// --- Agrippa ---

// _legal_agrippa
void legal_agrippa(State& st, const Pending& pending, std::vector<Action>& out) {
    if (st.players[pending.seat].tile == NO_TILE) out.push_back(choose_option(AGRIPPA_SCROLL));
    out.push_back(choose_option(AGRIPPA_CARD));
}

// _resolve_agrippa
void resolve_agrippa(State& st, const Pending& pending, const Action& action) {
    if (action.a == AGRIPPA_SCROLL)
        gain_scroll(st, pending.seat, "leader Agrippa");
    else
        push(st, task(S_draw, pending.seat, numbers(st, pending.faction).at("leader_cards"), 0));
}

// --- Cato the Elder ---

// _cato_choices: R17, a marker the player lacks, other than the Senators marker the take-over itself brings.
std::vector<int> cato_choices(const State& st, int seat) {
    const auto& markers = st.players[seat].markers;
    std::vector<int> out;
    for (int f = 0; f < static_cast<int>(markers.size()); f++)
        if (!markers[f] && f != SENATORS) out.push_back(f);
    return out;
}

// _legal_cato
void legal_cato(State& st, const Pending& pending, std::vector<Action>& out) {
    for (int f : cato_choices(st, pending.seat)) out.push_back(choose_faction(f));
}

// _resolve_cato
void resolve_cato(State& st, const Pending& pending, const Action& action) {
    st.players[pending.seat].markers[action.a] = true;
    touch(st, pending.seat);
    LOG(st, pending.seat, seat_name(pending.seat), " takes a ", faction_name(st, action.a),
        " faction marker (leader Cato the Elder)");
}

// --- the assassin (R16) ---

// assassin_targets: displayed sets larger than the smallest legal set (R16: two-card sets are immune).
void assassin_targets(const State& st, std::vector<Action>& out) {
    size_t smallest = static_cast<size_t>(st.comps().min_set_size);
    for (int f = 0; f < static_cast<int>(st.sets.size()); f++)
        if (st.controller[f] >= 0 && st.sets[f].size() > smallest) out.push_back(assassinate(st.controller[f], f));
}

bool has_assassin_target(const State& st) {
    size_t smallest = static_cast<size_t>(st.comps().min_set_size);
    for (int f = 0; f < static_cast<int>(st.sets.size()); f++)
        if (st.controller[f] >= 0 && st.sets[f].size() > smallest) return true;
    return false;
}

// assassin
void assassin(State& st, int seat) {
    if (has_assassin_target(st)) ask(st, Pending{ASSASSIN_TARGET, seat, -1, -1});
}

// _legal_assassin
void legal_assassin(State& st, const Pending&, std::vector<Action>& out) {
    assassin_targets(st, out);
    out.push_back(decline());
}

// _resolve_assassin
void resolve_assassin(State& st, const Pending& pending, const Action& action) {
    if (action.type == A_DECLINE) {
        LOG(st, pending.seat, seat_name(pending.seat), " sends no assassin");
        return;
    }
    int target_seat = action.a, faction = action.b;
    int card = remove_highest(st, st.sets[faction]);
    st.discard.push_back(card);
    LOG(st, pending.seat, seat_name(pending.seat), "'s assassin removes ", st.t().card_name(card), " from ",
        seat_name(target_seat), "'s ", faction_name(st, faction), " set");
}

}  // namespace

void register_rewards() {
    STEPS[S_takeover_benefit] = [](State& st, const Task& t) { takeover_benefit(st, t.a[0], t.a[1]); };
    STEPS[S_leader] = [](State& st, const Task& t) { leader(st, t.a[0], t.a[1]); };
    STEPS[S_marker] = [](State& st, const Task& t) { marker(st, t.a[0], t.a[1]); };
    STEPS[S_first_laurel] = [](State& st, const Task& t) { first_laurel(st, t.a[0], t.a[1]); };
    STEPS[S_assassin] = [](State& st, const Task& t) { assassin(st, t.a[0]); };
    DECISIONS[TIGELLINUS_DISCARD] = {legal_tigellinus, resolve_tigellinus, false, false, false};
    DECISIONS[AGRIPPA_CHOICE] = {legal_agrippa, resolve_agrippa, false, false, false};
    DECISIONS[CATO_MARKER] = {legal_cato, resolve_cato, false, false, false};
    DECISIONS[ASSASSIN_TARGET] = {legal_assassin, resolve_assassin, false, false, false};
}

}  // namespace tribune
