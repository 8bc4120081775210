// tribune_env/engine/drawing.py: drawing cards into hands, and cesura magna (R5).
#include "engine.hpp"

namespace tribune {

// draw_into: draw ``n`` cards for ``seat``, handing each to ``put``; the drawn card is private to ``seat`` (R1).
void draw_into(State& st, int seat, int n, int after_cesura, Step retry, const std::function<void(int)>& put,
               std::string_view note) {
    for (int i = 0; i < n; i++) {
        int card = draw_card(st);
        if (card < 0) {
            if (after_cesura) {
                LOG(st, seat, "no card left to draw for ", seat_name(seat), " (R5)");
                return;
            }
            push(st, {task(S_cesura), task(retry, seat, n - i, 1)});
            return;
        }
        put(card);
        LOG(st, seat, seat_name(seat), " draws a card", note);
        LOG_PRIVATE(st, seat, seat, seat_name(seat), " drew ", st.t().card_name(card), note);
    }
}

namespace {

void draw(State& st, int seat, int n, int after_cesura) {
    draw_into(st, seat, n, after_cesura, S_draw, [&st, seat](int card) { st.players[seat].hand[card] += 1; });
}

// cesura: sets of 3+ lose their lowest cards at once; hands over the limit discard by choice.
void cesura(State& st) {
    const Components& comps = st.comps();
    const auto& value = st.t().card_value;
    LOG(st, -1, "cesura magna: no cards left in the draw and discard piles");
    for (int faction = 0; faction < static_cast<int>(st.sets.size()); faction++) {
        auto& cards = st.sets[faction];
        int lose = st.controller[faction] >= 0 ? comps.cards_lost_in_cesura(static_cast<int>(cards.size())) : 0;
        for (int k = 0; k < lose; k++) {
            size_t low = 0;
            for (size_t i = 1; i < cards.size(); i++)
                if (value[cards[i]] < value[cards[low]]) low = i;
            int card = cards[low];
            cards.erase(cards.begin() + static_cast<long>(low));
            st.discard.push_back(card);
            LOG(st, st.controller[faction], seat_name(st.controller[faction]), " loses ", st.t().card_name(card),
                " from the displayed set (cesura magna)");
        }
    }
    int n = st.num_players();
    std::vector<Task> tasks;
    for (int k = 0; k < n; k++) {
        int s = (st.start_seat + k) % n;
        if (st.players[s].hand_size() > comps.hand_limit) tasks.push_back(task(S_cesura_discard, s));
    }
    push(st, tasks);
}

void cesura_discard(State& st, int seat) {
    if (st.players[seat].hand_size() > st.comps().hand_limit) ask(st, Pending{CESURA_DISCARD, seat, -1, -1});
}

void legal_cesura(State& st, const Pending& pending, std::vector<Action>& out) { hand_choices(st, pending.seat, out); }

void resolve_cesura(State& st, const Pending& pending, const Action& action) {
    discard_from_hand(st, pending.seat, action.a);
    LOG(st, pending.seat, seat_name(pending.seat), " discards ", st.t().card_name(action.a), " (cesura magna)");
    push(st, task(S_cesura_discard, pending.seat));
}

}  // namespace

void register_drawing() {
    STEPS[S_draw] = [](State& st, const Task& t) { draw(st, t.a[0], t.a[1], t.a[2]); };
    STEPS[S_cesura] = [](State& st, const Task&) { cesura(st); };
    STEPS[S_cesura_discard] = [](State& st, const Task& t) { cesura_discard(st, t.a[0]); };
    DECISIONS[CESURA_DISCARD] = {legal_cesura, resolve_cesura, false, false, false};
}

}  // namespace tribune
