// tribune_env/engine/flow.py: advance through automatic steps to the next decision; apply a choice.
#include "core.hpp"

namespace tribune {

namespace {

// _choices: the legal choices of the pending decision, computed once per decision.
const std::vector<Action>& choices(State& st) {
    if (!st.legal_valid) {
        st.legal.clear();
        DECISIONS[st.pending.kind].legal(st, st.pending, st.legal);
        st.legal_valid = true;
    }
    return st.legal;
}

void resolve(State& st, const Action& action) {
    Pending pending = st.pending;
    st.has_pending = false;
    st.legal_valid = false;
    DECISIONS[pending.kind].resolve(st, pending, action);
    end_step(st);
}

}  // namespace

const std::vector<Action>& legal_actions(State& st) {
    static const std::vector<Action> none;
    if (!st.has_pending) return none;
    return choices(st);
}

void advance(State& st) {
    while (true) {
        if (st.has_pending) {
            if (!st.config().auto_forced) return;
            const auto& legal = choices(st);
            if (legal.size() != 1 || DECISIONS[st.pending.kind].always_asked) {
                if (legal.empty()) throw std::logic_error(cat("no legal choice at ", KIND_KEYS[st.pending.kind]));
                return;
            }
            Action only = legal[0];
            resolve(st, only);
            continue;
        }
        if (st.agenda.empty()) return;
        Task t = st.agenda.back();
        st.agenda.pop_back();
        STEPS[t.step](st, t);
        end_step(st);
    }
}

bool apply_action(State& st, const Action& action) {
    if (!st.has_pending) return false;
    const auto& legal = choices(st);
    bool found = false;
    for (const auto& a : legal)
        if (a == action) {
            found = true;
            break;
        }
    if (!found) return false;
    Action chosen = action;
    resolve(st, chosen);
    advance(st);
    return true;
}

}  // namespace tribune
