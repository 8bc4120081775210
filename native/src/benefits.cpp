// tribune_env/engine/benefits.py: phase 5, faction benefits, factions in board order (R19, R20, R21).
#include "engine.hpp"

namespace tribune {

namespace {

// _TRIBUNE_PARTNER: for the factions whose option 1 makes a tribune, the partner faction it needs; -1 otherwise.
int tribune_partner(int faction) {
    return faction == PLEBEIANS ? PATRICIANS : faction == VESTALS ? SENATORS : -1;
}
// _SCROLL_FIRST
bool scroll_first(int faction) { return faction == LEGATES || faction == SENATORS; }

// benefit_options: the options of ``faction``'s benefit open to its controller ``seat`` (R20: a failed option is not
// offered).
void benefit_options(const State& st, int faction, int seat, std::vector<int>& out) {
    int tile = st.players[seat].tile;
    if (scroll_first(faction)) {
        if (tile == NO_TILE) out.push_back(0);
        out.push_back(1);
        return;
    }
    int partner = tribune_partner(faction);
    if (partner >= 0) {
        out.push_back(0);
        if (tile == SCROLL && st.controller[partner] == seat) out.push_back(1);
        return;
    }
    out.push_back(0);  // Gladiators
    out.push_back(1);
}

// benefit
void benefit(State& st, int faction) {
    st.phase = FACTION_BENEFITS;
    int seat = st.controller[faction];
    if (seat < 0 || st.benefit_blocked[faction]) return;  // R38: named for the Tribunus Plebis, no benefit
    const Numbers& numbers = st.comps().factions[faction].numbers;
    if (faction == PRAETORIANS) {
        give_legions(st, seat, numbers.at("benefit_legions"), "Praetorians benefit");
    } else if (faction == PATRICIANS) {
        st.proconsul = seat;
        LOG(st, seat, seat_name(seat), " receives the proconsul (Patricians benefit)");
    } else {
        ask(st, Pending{BENEFIT_OPTION, seat, faction, -1});
    }
}

// _legal_benefit
void legal_benefit(State& st, const Pending& pending, std::vector<Action>& out) {
    std::vector<int> options;
    benefit_options(st, pending.faction, pending.seat, options);
    for (int o : options) out.push_back(choose_option(o));
}

void gain_tribune(State& st, int seat, std::string_view why);
void vestal_favor(State& st, int seat, int laurels);

// _resolve_benefit
void resolve_benefit(State& st, const Pending& pending, const Action& action) {
    int seat = pending.seat, f = pending.faction, option = action.a;
    const Numbers& numbers = st.comps().factions[f].numbers;
    std::string why = cat(faction_name(st, f), " benefit");
    if (f == GLADIATORS) {
        if (option == 0) {
            int amount = st.colosseum;
            st.colosseum = 0;
            give_money(st, seat, amount, "the Colosseum");
        } else {
            push(st, {task(S_draw, seat, numbers.at("benefit_cards"), 0), task(S_assassin, seat)});
        }
    } else if (f == LEGATES) {
        if (option == 0)
            gain_scroll(st, seat, why);
        else
            push(st, {task(S_draw, seat, numbers.at("benefit_cards"), 0), task(S_legion_offer, seat)});
    } else if (f == PLEBEIANS) {
        if (option == 0) {
            push(st, task(S_draw, seat, numbers.at("benefit_cards"), 0));
            give_money(st, seat, numbers.at("benefit_denarii"), why);
        } else {
            gain_tribune(st, seat, why);
        }
    } else if (f == VESTALS) {
        if (option == 0)
            vestal_favor(st, seat, numbers.at("benefit_laurels"));
        else
            gain_tribune(st, seat, why);
    } else if (option == 0) {  // Senators
        gain_scroll(st, seat, why);
    } else {
        push(st, task(S_draw, seat, numbers.at("benefit_cards"), 0));
    }
}

// _gain_tribune: R19, the scroll is turned to its tribune side.
void gain_tribune(State& st, int seat, std::string_view why) {
    st.players[seat].tile = TRIBUNE;
    touch(st, seat);
    LOG(st, seat, seat_name(seat), " becomes tribune: the scroll is turned over (", why, ")");
}

// _vestal_favor
void vestal_favor(State& st, int seat, int laurels) {
    give_laurels(st, seat, laurels, "Vestal Virgins benefit");
    Player& player = st.players[seat];
    if (!player.eternal_favor && !player.temporary_favor) {
        player.temporary_favor = true;
        touch(st, seat);
        LOG(st, seat, seat_name(seat), " takes the temporary favor of the gods");
    }
}

// _legion_price
int legion_price(const State& st) { return set_sum(st, st.sets[LEGATES]); }

// legion_offer: R20, after the card, a legion for the sum of the player's displayed Legate set.
void legion_offer(State& st, int seat) {
    if (st.players[seat].money >= legion_price(st)) ask(st, Pending{LEGION_PURCHASE, seat, LEGATES, -1});
}

// _legal_legion
void legal_legion(State&, const Pending&, std::vector<Action>& out) {
    out.push_back(commit());
    out.push_back(decline());
}

// _resolve_legion
void resolve_legion(State& st, const Pending& pending, const Action& action) {
    if (action.type == A_DECLINE) return;
    pay(st, pending.seat, legion_price(st), "a legion (Legates benefit)");
    const Numbers& numbers = st.comps().factions[LEGATES].numbers;
    give_legions(st, pending.seat, numbers.at("benefit_legions"), "bought with the Legates benefit");
}

}  // namespace

void register_benefits() {
    STEPS[S_benefit] = [](State& st, const Task& t) { benefit(st, t.a[0]); };
    STEPS[S_legion_offer] = [](State& st, const Task& t) { legion_offer(st, t.a[0]); };
    DECISIONS[BENEFIT_OPTION] = {legal_benefit, resolve_benefit, false, false, false};
    DECISIONS[LEGION_PURCHASE] = {legal_legion, resolve_legion, false, false, false};
}

}  // namespace tribune
