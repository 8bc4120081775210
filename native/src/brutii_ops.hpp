// tribune_env/engine/brutii_ops.py: small queries on the Brutii's state, shared by the phase modules (R42-R54).
#pragma once

#include <algorithm>

#include "ops.hpp"

namespace tribune {

constexpr int BRUTII_SLOT = -1;  // pending.index of a region decision the Brutii takes through an action card (R47)
constexpr int CARDS_OPTION = 0, TAKEOVER_OPTION = 1;  // positions in State::brutii_options (R46)

// OPTION_OF: BrutiiCard -> position in brutii_options, -1 for the other cards.
inline int option_of(int card) {
    return card == BC_CARDS ? CARDS_OPTION : card == BC_FACTION_TAKEOVER ? TAKEOVER_OPTION : -1;
}
// OPTION_PHASE
inline int option_phase(int card) { return card == BC_CARDS ? REGION_EVALUATION : TAKEOVERS; }

// REGION_CARDS: (card, option needed; -1: any); card -1 where no card lets the Brutii act at the region.
struct RegionCard {
    int card, needed;
};
inline RegionCard region_card(int region) {
    switch (region) {
        case FORUM: return {BC_CARDS, 0};
        case LATRINE: return {BC_DENARII, -1};
        case CURIA: return {BC_CARDS, 0};
        case CATACOMBS: return {BC_CARDS, 1};
        case PANTHEON: return {BC_ETERNAL_FAVOR, -1};
        case FIELD_OF_MARS: return {BC_LAURELS, -1};
        case REFUGIUM: return {BC_PATRON, -1};
        case BASILICA: return {BC_FAVOR_OF_THE_EMPEROR, -1};
        case CAPITOLEUM: return {BC_OFFICIAL, -1};
        default: return {-1, -1};
    }
}
// AS_OCCUPANT
inline bool as_occupant(int region) {
    return region == PANTHEON || region == REFUGIUM || region == BASILICA || region == CAPITOLEUM;
}

inline const BrutiiSpec& brutii_spec(const State& st) { return st.comps().expansion.brutii; }

inline bool is_brutii(const State& st, int seat) { return seat >= 0 && seat == st.brutii; }

inline bool played(const State& st, int card) {
    return st.brutii >= 0 && std::find(st.brutii_played.begin(), st.brutii_played.end(), card) != st.brutii_played.end();
}

inline int option(const State& st, int card) { return played(st, card) ? st.brutii_options[option_of(card)] : -1; }

inline bool stands_at(const State& st, int region) {
    for (int s : st.t().region_spaces[region])
        if (st.spaces[s] == st.brutii) return true;
    return false;
}

inline bool acts_at(const State& st, int region) {
    RegionCard rule = region_card(region);
    if (rule.card < 0 || st.veto == region) return false;
    if (!played(st, rule.card) || (as_occupant(region) && stands_at(st, region))) return false;
    return rule.needed < 0 || option(st, rule.card) == rule.needed;
}

// brutii_tail: appends the step by which the Brutii acts at ``region`` after its occupants, if his cards let him.
inline void brutii_tail(const State& st, int region, std::vector<Task>& out) {
    if (acts_at(st, region)) out.push_back(task(S_brutii_at, region));
}

inline bool by_card(const State& st, const Pending& pending) {
    return pending.index == BRUTII_SLOT && is_brutii(st, pending.seat);
}

inline bool through_a_card(const State& st, const Pending& pending) {
    switch (pending.kind) {
        case PANTHEON_SACRIFICE:
        case FIELD_OF_MARS_PAIR:
        case REFUGIUM_OPTION:
        case REFUGIUM_PATRON:
        case REFUGIUM_PAIRS:
        case BASILICA_CLAIM:
        case OFFICIAL_CHOICE: return by_card(st, pending);
        default: return false;
    }
}

}  // namespace tribune
