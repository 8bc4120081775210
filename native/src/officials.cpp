// tribune_env/engine/officials.py: expansion officials and phase 8: Tribunus Plebis (R38), the emperor tile pile and
// the Matrona (R35), Augur (R39), Quaestor (R40). The Princeps (R37) acts in phase 2 (follower_placement.cpp).
#include <algorithm>
#include <vector>

#include "engine.hpp"

namespace tribune {

namespace {

// _spec
const OfficialSpec& spec(const State& st, int official) {
    return st.comps().expansion.officials.at(static_cast<size_t>(official));
}

// holder: the seat holding ``official``, -1 while it lies on the Capitoleum (or in a base game).
int holder(const State& st, int official) { return st.officials.empty() ? -1 : st.officials[official]; }

// _tile_name
std::string tile_name(int tile) { return cat("emperor tile ", tile); }

// --- Tribunus Plebis (R38) ------------------------------------------------------------------

// _controlled: the factions ``seat`` controls, in board order.
std::vector<int> controlled(const State& st, int seat) {
    std::vector<int> out;
    for (int f = 0; f < static_cast<int>(st.controller.size()); f++)
        if (st.controller[f] == seat) out.push_back(f);
    return out;
}

// _tribunus_ready (R38): a scroll on his tile and at least ``factions`` controlled factions.
bool tribunus_ready(const State& st, int seat) {
    int need = spec(st, TRIBUNUS_PLEBIS).numbers.at("factions");
    return st.players[seat].tile == SCROLL && static_cast<int>(controlled(st, seat).size()) >= need;
}

// tribunus_plebis (R38): at the start of phase 5 the holder may name two controlled factions for a tribune.
void tribunus_plebis(State& st) {
    st.phase = FACTION_BENEFITS;
    int seat = holder(st, TRIBUNUS_PLEBIS);
    if (seat >= 0 && tribunus_ready(st, seat)) ask(st, Pending{TRIBUNUS_PLEBIS_CHOICE, seat, -1, -1});
}

// _legal_tribunus: names in board order, one sequence per pair: the second name comes after the first, and a first
// name is offered only if a second can follow it.
void legal_tribunus(State& st, const Pending& pending, std::vector<Action>& out) {
    std::vector<int> factions;
    for (int f : controlled(st, pending.seat))
        if (f > pending.faction) factions.push_back(f);
    int later = spec(st, TRIBUNUS_PLEBIS).numbers.at("factions") - (pending.faction < 0 ? 1 : 2);
    int len = static_cast<int>(factions.size());
    int stop = len - later;  // factions[:stop], with Python's slice bounds
    if (stop < 0) stop += len;
    stop = std::clamp(stop, 0, len);
    for (int i = 0; i < stop; i++) out.push_back(choose_faction(factions[i]));
    out.push_back(decline());
}

// _resolve_tribunus
void resolve_tribunus(State& st, const Pending& pending, const Action& action) {
    int seat = pending.seat;
    if (action.type == A_DECLINE) {
        LOG(st, seat, seat_name(seat), " does not use the Tribunus Plebis");
        return;
    }
    std::vector<int> named;
    if (pending.faction >= 0) named.push_back(pending.faction);
    named.push_back(action.a);
    if (static_cast<int>(named.size()) < spec(st, TRIBUNUS_PLEBIS).numbers.at("factions")) {
        ask(st, Pending{TRIBUNUS_PLEBIS_CHOICE, seat, action.a, -1});
        return;
    }
    for (int faction : named) st.benefit_blocked[faction] = true;
    st.players[seat].tile = TRIBUNE;
    touch(st, seat);
    if (st.logging) {
        std::string names;
        for (size_t i = 0; i < named.size(); i++) {
            if (i) names += " and ";
            names += faction_name(st, named[i]);
        }
        LOG(st, seat, seat_name(seat), " becomes tribune with the Tribunus Plebis, naming the ", names, " (R38)");
        LOG(st, seat, "the ", names, " give ", seat_name(seat), " no benefit this phase (R38)");
    }
}

// benefits_end: the end of phase 5: the factions named for the Tribunus Plebis give benefits again.
void benefits_end(State& st) { std::fill(st.benefit_blocked.begin(), st.benefit_blocked.end(), 0); }

// --- phase 8 (R40 order) ----------------------------------------------------------------------

// _turn_emperor_tile (R35 (1)-(2), E66): the top tile is turned face up; the previous one, unclaimed, goes to the
// bottom. An empty pile leaves the previous unclaimed tile face up.
void turn_emperor_tile(State& st) {
    if (st.emperor_pile.empty()) {
        if (st.emperor_up >= 0) LOG(st, -1, "the pile is empty: ", tile_name(st.emperor_up), " stays face up (R35)");
        return;
    }
    int previous = st.emperor_up;
    st.emperor_up = st.emperor_pile.back();
    st.emperor_pile.pop_back();
    LOG(st, -1, tile_name(st.emperor_up), " is turned face up at the Basilica");
    if (previous >= 0) {
        st.emperor_pile.insert(st.emperor_pile.begin(), previous);
        LOG(st, -1, tile_name(previous), ", unclaimed, goes to the bottom of the pile (E66)");
    }
}

// _matrona_tiles (R35 (3)-(4), E63, E67): the Matrona holder takes the next tiles of the pile (what there is); his
// unclaimed tiles of the previous round go to the bottom, lowest id first, even if he keeps the Matrona.
void matrona_tiles(State& st) {
    std::vector<int> previous = st.matrona_tiles;
    std::sort(previous.begin(), previous.end());
    int seat = holder(st, MATRONA);
    std::vector<int> taken;
    if (seat >= 0 && seat == st.brutii && !played(st, BC_FAVOR_OF_THE_EMPEROR)) {
        LOG(st, seat, seat_name(seat), " (the Brutii) receives no Matrona tiles without Favor of the Emperor (R50)");
    } else if (seat >= 0) {
        int count = spec(st, MATRONA).numbers.at("tiles");
        while (!st.emperor_pile.empty() && static_cast<int>(taken.size()) < count) {
            taken.push_back(st.emperor_pile.back());
            st.emperor_pile.pop_back();
        }
        if (!taken.empty() && st.logging) {
            std::string names;
            for (size_t i = 0; i < taken.size(); i++) {
                if (i) names += ", ";
                names += tile_name(taken[i]);
            }
            LOG(st, seat, seat_name(seat), " receives ", names, " (Matrona)");
        }
    }
    st.matrona_tiles = taken;
    for (int tile : previous) {
        st.emperor_pile.insert(st.emperor_pile.begin(), tile);
        LOG(st, -1, tile_name(tile), ", an unclaimed Matrona tile, goes to the bottom of the pile (E67)");
    }
}

// preparation: expansion phase 8 (R40 order): emperor tiles (R35), then the Augur (R39), then the Quaestor (R40).
void preparation(State& st) {
    st.phase = PREPARATION;
    turn_emperor_tile(st);
    matrona_tiles(st);
    int augur = holder(st, AUGUR);
    std::vector<Task> tasks;
    if (augur >= 0) {
        int draws = spec(st, AUGUR).numbers.at("draws");
        tasks.push_back(task(S_augur_draw, augur, draws, 0));
        tasks.push_back(task(S_augur_keep, augur));
    }
    tasks.push_back(task(S_quaestor));
    if (st.brutii >= 0) tasks.push_back(task(S_brutii_reset));  // E104 last (R40)
    push(st, tasks);
}

// --- Augur (R39) ------------------------------------------------------------------------------

// augur_draw (R39): the Augur draws ``n`` cards apart from his hand; R5 as for any draw (cesura magna once).
void augur_draw(State& st, int seat, int n, int after_cesura) {
    draw_into(st, seat, n, after_cesura, S_augur_draw, [&st](int card) { st.augur_cards.push_back(card); },
              " (Augur)");
}

// _augur_keeps
int augur_keeps(const State& st) {
    const Numbers& numbers = spec(st, AUGUR).numbers;
    return numbers.at("draws") - numbers.at("discards");
}

// _augur_takes_rest
void augur_takes_rest(State& st, int seat) {
    std::vector<int> cards;
    cards.swap(st.augur_cards);
    auto& hand = st.players[seat].hand;
    for (int card : cards) hand[card] += 1;
    if (!cards.empty())
        LOG(st, seat, seat_name(seat), " takes ", static_cast<int>(cards.size()), " card(s) into his hand (Augur)");
}

// augur_keep (R39): with all his cards drawn the Augur discards one of them; fewer drawn: he keeps them all.
void augur_keep(State& st, int seat) {
    int drawn = static_cast<int>(st.augur_cards.size());
    if (drawn >= spec(st, AUGUR).numbers.at("draws") && drawn > augur_keeps(st))
        ask(st, Pending{AUGUR_DISCARD, seat, -1, -1});
    else
        augur_takes_rest(st, seat);
}

// _legal_augur
void legal_augur(State& st, const Pending&, std::vector<Action>& out) {
    std::vector<int> cards = st.augur_cards;
    std::sort(cards.begin(), cards.end());
    cards.erase(std::unique(cards.begin(), cards.end()), cards.end());
    for (int c : cards) out.push_back(pick_card(c));
}

// _resolve_augur
void resolve_augur(State& st, const Pending& pending, const Action& action) {
    int seat = pending.seat;
    int card = action.a;
    auto it = std::find(st.augur_cards.begin(), st.augur_cards.end(), card);
    if (it == st.augur_cards.end()) throw std::logic_error("list.remove(x): x not in list");
    st.augur_cards.erase(it);
    st.discard.push_back(card);
    LOG(st, seat, seat_name(seat), " discards a card (Augur)");
    LOG_PRIVATE(st, seat, seat, seat_name(seat), " discarded ", st.t().card_name(card), " (Augur)");
    if (static_cast<int>(st.augur_cards.size()) > augur_keeps(st))
        ask(st, Pending{AUGUR_DISCARD, seat, -1, -1});
    else
        augur_takes_rest(st, seat);
}

// --- Quaestor (R40) ---------------------------------------------------------------------------

// quaestor (R40): every other player pays the Quaestor the printed amount or all his money, the stock paying the
// rest; the Quaestor also takes ``stock`` from the stock.
void quaestor(State& st) {
    int seat = holder(st, QUAESTOR);
    if (seat < 0) return;
    int n = st.num_players();
    const OfficialSpec& q = spec(st, QUAESTOR);
    auto found = q.payment.find(n - 1);  // ExpansionSpec.quaestor_payment
    if (found == q.payment.end()) throw std::out_of_range(cat("no Quaestor payment for ", n - 1, " opponents"));
    int amount = found->second;
    for (int k = 1; k < n; k++) {
        int other = (seat + k) % n;
        int paid = std::min(amount, st.players[other].money);
        std::string quaestor_name = st.logging ? seat_name(seat) : std::string();
        std::string other_name = st.logging ? seat_name(other) : std::string();
        pay(st, other, paid, cat("to ", quaestor_name, ", the Quaestor"));
        give_money(st, seat, paid, cat("from ", other_name, ", Quaestor"));
        give_money(st, seat, amount - paid, cat("the stock pays ", other_name, "'s shortfall, Quaestor (R40)"));
    }
    give_money(st, seat, q.numbers.at("stock"), "from the stock, Quaestor");
}

}  // namespace

void register_officials() {
    STEPS[S_tribunus_plebis] = [](State& st, const Task&) { tribunus_plebis(st); };
    STEPS[S_benefits_end] = [](State& st, const Task&) { benefits_end(st); };
    STEPS[S_preparation] = [](State& st, const Task&) { preparation(st); };
    STEPS[S_augur_draw] = [](State& st, const Task& t) { augur_draw(st, t.a[0], t.a[1], t.a[2]); };
    STEPS[S_augur_keep] = [](State& st, const Task& t) { augur_keep(st, t.a[0]); };
    STEPS[S_quaestor] = [](State& st, const Task&) { quaestor(st); };

    DECISIONS[TRIBUNUS_PLEBIS_CHOICE] = {legal_tribunus, resolve_tribunus, false, false, false};
    DECISIONS[AUGUR_DISCARD] = {legal_augur, resolve_augur, false, false, false};
}

}  // namespace tribune
