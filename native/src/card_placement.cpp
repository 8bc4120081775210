// tribune_env/engine/card_placement.py: phase 1, card placement on the board, region by region.
#include "engine.hpp"

namespace tribune {

namespace {

bool needs_card(const State& st, int region, const std::vector<int>& field) {
    auto fn = REGIONS[region].needs_card;
    return fn ? fn(st, field) : field.empty();
}

// fill_board: fill every card field in region order; a failed draw triggers cesura magna, then a retry (R5).
void fill_board(State& st, int after_cesura) {
    st.phase = CARD_PLACEMENT;
    for (int region : st.t().regions) {
        for (auto& field : st.fields[static_cast<size_t>(region)]) {
            while (needs_card(st, region, field)) {
                int card = draw_card(st);
                if (card < 0) {
                    if (after_cesura) {
                        LOG(st, -1, "the board stays partly empty: no card can be drawn (R5)");
                        return;
                    }
                    push(st, {task(S_cesura), task(S_fill_board, 1)});
                    return;
                }
                field.push_back(card);
            }
        }
    }
    LOG(st, -1, "round ", st.round, ": cards placed on the board");
}

}  // namespace

void register_card_placement() {
    STEPS[S_fill_board] = [](State& st, const Task& t) { fill_board(st, t.a[0]); };
}

}  // namespace tribune
