// tribune_env/engine/expansion_board.py: expansion phase 6, regions IX Refugium, X Basilica, XI Capitoleum
// (E46-E60; R33, R34, R36). The regions have follower spaces only (E7) and are evaluated IX, X, XI (E46); occupants
// act in space order and the common ``end_region`` sends the followers home after each region.
#include <algorithm>
#include <vector>

#include "engine.hpp"

namespace tribune {

namespace {

constexpr int PATRON = 0, PAIRS = 1;  // the options of a REFUGIUM_OPTION decision (R33)

// _spec
const ExpansionSpec& spec(const State& st) { return st.comps().expansion; }

// _region_spec
const ExpansionRegionSpec& region_spec(const State& st, int region) {
    return spec(st).regions.at(static_cast<size_t>(region - REFUGIUM));
}

// _occupant
int occupant(const State& st, int region, int slot) { return st.spaces[st.t().region_spaces[region][slot]]; }

// _slots
int slots(const State& st, int region) { return static_cast<int>(st.t().region_spaces[region].size()); }

// _occupants: the evaluation of a region whose occupants act one by one in space order (E46).
template <int R, Step S>
void occupants(State& st, std::vector<Task>& out) {
    for (int i = 0; i < slots(st, R); i++) out.push_back(task(S, i));
    brutii_tail(st, R, out);
}

// --- IX: Refugium (R33, E47-E49) ---------------------------------------------------------------------

// _patron_supply: patron tiles left on the Refugium (E10).
int patron_supply(const State& st) {
    int taken = 0;
    for (const auto& p : st.players) taken += p.patrons;
    return spec(st).patron_supply - taken;
}

// _patron_valid (E47, R33): exactly ``patron_slaves`` slaves, or exactly ``patron_slaves_with_nubian`` with a
// Nubian among them, and the player can pay their total value.
bool patron_valid(const State& st, int seat, const std::vector<int>& cards) {
    const Numbers& numbers = region_spec(st, REFUGIUM).numbers;
    bool nubian = false;
    for (int c : cards)
        if (st.t().card_nationality[c] == NUBIAN) nubian = true;
    int n = static_cast<int>(cards.size());
    bool size = n == numbers.at("patron_slaves") || (n == numbers.at("patron_slaves_with_nubian") && nubian);
    return size && set_sum(st, cards) <= st.players[seat].money;
}

// _slave_pool: the slave cards of ``nationalities`` in the hand of ``seat`` of type >= ``start``, one entry per card,
// ascending.
std::vector<int> slave_pool(const State& st, int seat, int start, const std::vector<int>& nationalities) {
    const auto& hand = st.players[seat].hand;
    std::vector<int> out;
    for (int n : nationalities)
        for (int c : st.t().slave_cards[n])
            if (c >= start)
                for (int k = 0; k < hand[c]; k++) out.push_back(c);
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<int> all_nationalities() {
    std::vector<int> out;
    for (int n = 0; n < NUM_NATIONALITIES; n++) out.push_back(n);
    return out;
}

// What _patron_completions gives as a set of runs, in the form its callers read: the first cards of the non-empty
// completions (ascending, distinct) and whether the empty completion is one.
struct Completions {
    std::vector<int> firsts;
    bool empty_run = false;
    bool any() const { return empty_run || !firsts.empty(); }
};

// Whether some combination of ``need`` more cards of ``pool`` from position ``from`` on (one per position, as
// itertools.combinations) makes ``cards`` a valid patron set.
bool completes(const State& st, int seat, const std::vector<int>& pool, size_t from, int need, std::vector<int>& cards) {
    if (need == 0) return patron_valid(st, seat, cards);
    if (pool.size() - from < static_cast<size_t>(need)) return false;
    for (size_t i = from; i < pool.size(); i++) {
        if (i > from && pool[i] == pool[i - 1]) continue;  // the same card type again: the same runs
        if (pool.size() - i < static_cast<size_t>(need)) break;
        cards.push_back(pool[i]);
        bool ok = completes(st, seat, pool, i + 1, need - 1, cards);
        cards.pop_back();
        if (ok) return true;
    }
    return false;
}

// _patron_completions: every ascending run of hand cards that turns ``staged`` into a valid, affordable patron set.
Completions patron_completions(const State& st, int seat, const std::vector<int>& staged) {
    const Numbers& numbers = region_spec(st, REFUGIUM).numbers;
    std::vector<int> pool = slave_pool(st, seat, staged.empty() ? 0 : staged.back(), all_nationalities());
    Completions out;
    int sizes[2] = {numbers.at("patron_slaves"), numbers.at("patron_slaves_with_nubian")};
    int count = sizes[0] == sizes[1] ? 1 : 2;
    int have = static_cast<int>(staged.size());
    std::vector<int> cards;
    for (int k = 0; k < count; k++) {
        int size = sizes[k];
        if (size < have) continue;
        int need = size - have;
        if (need == 0) {
            if (patron_valid(st, seat, staged)) out.empty_run = true;
            continue;
        }
        for (size_t i = 0; i < pool.size(); i++) {
            if (i > 0 && pool[i] == pool[i - 1]) continue;
            if (std::find(out.firsts.begin(), out.firsts.end(), pool[i]) != out.firsts.end()) continue;
            cards = staged;
            cards.push_back(pool[i]);
            if (completes(st, seat, pool, i + 1, need - 1, cards)) out.firsts.push_back(pool[i]);
        }
    }
    std::sort(out.firsts.begin(), out.firsts.end());
    return out;
}

// _patron_offered (R33): only to a player below the per-player limit, while the supply lasts, with an affordable
// valid set.
bool patron_offered(const State& st, int seat) {
    int limit = spec(st).patrons_per_player;
    return st.players[seat].patrons < limit && patron_supply(st) > 0 && patron_completions(st, seat, {}).any();
}

// _pairable: the nationalities with a pair reward (E48: not the Nubians).
std::vector<int> pairable(const State& st) {
    std::vector<int> out;
    for (const auto& [n, reward] : region_spec(st, REFUGIUM).pairs) out.push_back(n);
    return out;
}

// Counter of the nationalities of ``cards``.
std::array<int, NUM_NATIONALITIES> nationality_counts(const State& st, const std::vector<int>& cards) {
    std::array<int, NUM_NATIONALITIES> counts{};
    for (int c : cards) counts[st.t().card_nationality[c]] += 1;
    return counts;
}

// _pair_picks: cards that keep "pairs of one nationality each" reachable, in ascending card-type order.
// Nationalities are contiguous in card-type order, so a nationality left behind must hold an even count.
std::vector<int> pair_picks(const State& st, int seat, const std::vector<int>& staged) {
    const auto& tables = st.t();
    const auto& hand = st.players[seat].hand;
    auto counts = nationality_counts(st, staged);
    int last = staged.empty() ? -1 : staged.back();
    std::vector<int> out;
    for (int card : slave_pool(st, seat, std::max(last, 0), pairable(st))) {
        if (std::find(out.begin(), out.end(), card) != out.end()) continue;
        int n = tables.card_nationality[card];
        bool odd_other = false;
        for (int m = 0; m < NUM_NATIONALITIES; m++)
            if (m != n && counts[m] % 2) odd_other = true;
        if (odd_other) continue;
        if ((counts[n] + 1) % 2) {
            int later = 0;
            for (int c : tables.slave_cards[n])
                if (c > card) later += hand[c];
            if (hand[card] - 1 + later < 1) continue;
        }
        out.push_back(card);
    }
    return out;
}

// _pairs_complete (R33): one or more pairs, each of one nationality.
bool pairs_complete(const State& st, const std::vector<int>& staged) {
    if (staged.empty()) return false;
    auto counts = nationality_counts(st, staged);
    for (int k : counts)
        if (k % 2) return false;
    return true;
}

// refugium_space (R33): the occupant chooses patron, pairs or nothing (E49: one option only).
void refugium_space(State& st, int slot) {
    int seat = occupant(st, REFUGIUM, slot);
    if (seat >= 0) {
        st.staged.clear();
        ask(st, Pending{REFUGIUM_OPTION, seat, -1, slot});
    }
}

// _legal_refugium_option
void legal_refugium_option(State& st, const Pending& pending, std::vector<Action>& out) {
    int seat = pending.seat;
    if (patron_offered(st, seat)) out.push_back(choose_option(PATRON));
    if (!pair_picks(st, seat, {}).empty()) out.push_back(choose_option(PAIRS));
    out.push_back(decline());
}

// _resolve_refugium_option
void resolve_refugium_option(State& st, const Pending& pending, const Action& action) {
    int seat = pending.seat;
    if (action.type == A_DECLINE) {
        LOG(st, seat, seat_name(seat), " uses no Refugium option");
        return;
    }
    int kind = action.a == PATRON ? REFUGIUM_PATRON : REFUGIUM_PAIRS;
    st.staged.clear();
    ask(st, Pending{kind, seat, -1, pending.index});
}

// _legal_patron
void legal_patron(State& st, const Pending& pending, std::vector<Action>& out) {
    Completions completions = patron_completions(st, pending.seat, st.staged);
    for (int c : completions.firsts) out.push_back(pick_card(c));
    if (completions.empty_run) out.push_back(commit());
    out.push_back(decline());
}

// _staged_choice: the staging part of a Refugium choice: a card is staged (asked again), a decline returns the staged
// cards (logged as ``declined``); on commit the staged cards, taken off the table (false: nothing to do now).
bool staged_choice(State& st, const Pending& pending, const Action& action, const char* declined,
                   std::vector<int>& cards) {
    if (action.type == A_PICK_CARD) {
        stage(st, pending, action.a);
        return false;
    }
    if (action.type == A_DECLINE) {
        unstage(st, pending.seat);
        LOG(st, pending.seat, seat_name(pending.seat), " ", declined);
        return false;
    }
    cards.swap(st.staged);
    st.staged.clear();
    return true;
}

// _resolve_patron (E47, R33): the total value goes to the stock, the slaves to the discard pile; +1 patron tile.
void resolve_patron(State& st, const Pending& pending, const Action& action) {
    int seat = pending.seat;
    std::vector<int> cards;
    if (!staged_choice(st, pending, action, "takes no patron tile at the Refugium", cards)) return;
    pay(st, seat, set_sum(st, cards), "Refugium patron, to the stock");
    st.discard.insert(st.discard.end(), cards.begin(), cards.end());
    st.players[seat].patrons += 1;
    touch(st, seat);
    LOG(st, seat, seat_name(seat), " discards ", card_names(st, cards), " and takes a patron tile (R33)");
}

// _legal_pairs
void legal_pairs(State& st, const Pending& pending, std::vector<Action>& out) {
    for (int c : pair_picks(st, pending.seat, st.staged)) out.push_back(pick_card(c));
    if (pairs_complete(st, st.staged)) out.push_back(commit());
    out.push_back(decline());
}

// _resolve_pairs (E48, R33): each pair gives its nationality's reward; the slaves go to the discard pile; nothing is
// paid.
void resolve_pairs(State& st, const Pending& pending, const Action& action) {
    int seat = pending.seat;
    std::vector<int> cards;
    if (!staged_choice(st, pending, action, "discards no pairs at the Refugium", cards)) return;
    st.discard.insert(st.discard.end(), cards.begin(), cards.end());
    LOG(st, seat, seat_name(seat), " discards the pairs ", card_names(st, cards), " at the Refugium");
    auto counts = nationality_counts(st, cards);
    for (const auto& [nationality, reward] : region_spec(st, REFUGIUM).pairs) {
        int pairs = counts[nationality] / 2;
        std::string why = cat(pairs, " ", NATIONALITY_KEYS[nationality], " pair(s) at the Refugium");
        give_laurels(st, seat, pairs * reward.laurels, why);
        give_legions(st, seat, pairs * reward.legions, why);
    }
}

// --- X: Basilica (R34, E50-E55) ------------------------------------------------------------------------

// _tile
const EmperorTile& tile_of(const State& st, int tile) {
    for (const auto& t : spec(st).emperor_tiles)
        if (t.id == tile) return t;
    throw std::logic_error(cat("no emperor tile ", tile));
}

// _MOST
int most_amount(const State& st, int requirement, int seat) {
    const Player& p = st.players[seat];
    switch (requirement) {
        case REQ_MOST_MARKERS: return p.num_markers();
        case REQ_MOST_LAURELS: return p.laurels;
        case REQ_MOST_LEGIONS: return p.legions;
        default: return p.money;  // REQ_MOST_DENARII
    }
}

// _meets (R34): one requirement of a favor of the emperor tile (E51, E52).
bool meets(const State& st, int seat, int requirement) {
    const Player& player = st.players[seat];
    if (requirement == REQ_FAVOR) return player.eternal_favor || player.temporary_favor;
    if (requirement == REQ_SCROLL) return player.tile != NO_TILE;  // the tile on either side: a tribune was a scroll
    if (requirement == REQ_PATRON) return player.patrons > 0;
    if (requirement == REQ_PAY) return player.money >= spec(st).emperor_pay;
    int mine = most_amount(st, requirement, seat);
    if (mine < 1) return false;
    for (int other = 0; other < st.num_players(); other++)  // E52: a tie is enough
        if (most_amount(st, requirement, other) > mine) return false;
    return true;
}

// _claimable (E54, E55; R50 amended, E100): the face-up tile (unclaimed this round), and the Matrona holder's own
// tiles, whose requirements the deciding seat meets, in that order; the Brutii through his card gets neither once
// the face-up tile is gone.
std::vector<int> claimable(const State& st, const Pending& pending) {
    int seat = pending.seat;
    std::vector<int> out;
    if (st.emperor_up < 0 && by_card(st, pending)) return out;
    std::vector<int> tiles;
    if (st.emperor_up >= 0) tiles.push_back(st.emperor_up);
    if (st.officials[MATRONA] == seat) {
        std::vector<int> mine = st.matrona_tiles;
        std::sort(mine.begin(), mine.end());
        tiles.insert(tiles.end(), mine.begin(), mine.end());
    }
    for (int t : tiles) {
        const EmperorTile& spec_tile = tile_of(st, t);
        if (meets(st, seat, spec_tile.requires_[0]) && meets(st, seat, spec_tile.requires_[1])) out.push_back(t);
    }
    return out;
}

// basilica_space (E50): "1" may claim a tile, then "2".
void basilica_space(State& st, int slot) {
    int seat = occupant(st, BASILICA, slot);
    if (seat >= 0) ask(st, Pending{BASILICA_CLAIM, seat, -1, slot});
}

// _legal_basilica
void legal_basilica(State& st, const Pending& pending, std::vector<Action>& out) {
    for (int t : claimable(st, pending)) out.push_back(choose_tile(t));
    out.push_back(decline());
}

// _resolve_basilica (R34): every requirement was checked (legal list); a "pay" requirement is then paid to the
// stock (E53).
void resolve_basilica(State& st, const Pending& pending, const Action& action) {
    int seat = pending.seat;
    if (action.type == A_DECLINE) {
        LOG(st, seat, seat_name(seat), " claims no emperor tile at the Basilica");
        return;
    }
    int tile = action.a;
    const EmperorTile& spec_tile = tile_of(st, tile);
    if (spec_tile.requires_[0] == REQ_PAY || spec_tile.requires_[1] == REQ_PAY)
        pay(st, seat, spec(st).emperor_pay, cat("emperor tile ", tile, ", to the stock"));
    const char* source;
    if (tile == st.emperor_up) {
        st.emperor_up = -1;  // E54: the next tile stays face down until phase 8
        source = "the face-up";
    } else {
        auto it = std::find(st.matrona_tiles.begin(), st.matrona_tiles.end(), tile);
        if (it == st.matrona_tiles.end()) throw std::logic_error("list.remove(x): x not in list");
        st.matrona_tiles.erase(it);
        source = "his Matrona";
    }
    st.players[seat].emperor_tiles.push_back(tile);
    touch(st, seat);
    LOG(st, seat, seat_name(seat), " claims ", source, " favor of the emperor tile ", tile, " (R34)");
}

// --- XI: Capitoleum (R36, E56-E60) ---------------------------------------------------------------------

// capitoleum_space (E56): "1", "2", "3" may each choose an official.
void capitoleum_space(State& st, int slot) {
    int seat = occupant(st, CAPITOLEUM, slot);
    if (seat >= 0) ask(st, Pending{OFFICIAL_CHOICE, seat, -1, slot});
}

// _legal_official (E57, R36): every official not chosen this round, wherever it is (his own included).
void legal_official(State& st, const Pending&, std::vector<Action>& out) {
    for (int o = 0; o < static_cast<int>(st.officials_chosen.size()); o++)
        if (!st.officials_chosen[o]) out.push_back(choose_official(o));
    out.push_back(decline());
}

// _resolve_official (R36, E58): the chooser's earlier official returns to the Capitoleum once he would hold more than
// allowed; one held by another player is taken from him.
void resolve_official(State& st, const Pending& pending, const Action& action) {
    int seat = pending.seat;
    if (action.type == A_DECLINE) {
        LOG(st, seat, seat_name(seat), " chooses no official");
        return;
    }
    int chosen = action.a;
    const std::string& name = spec(st).officials[chosen].name;
    int limit = region_spec(st, CAPITOLEUM).numbers.at("officials_per_player");
    std::vector<int> held;
    for (int o = 0; o < static_cast<int>(st.officials.size()); o++)
        if (st.officials[o] == seat && o != chosen) held.push_back(o);
    int drop = std::min(static_cast<int>(held.size()), std::max(0, static_cast<int>(held.size()) + 1 - limit));
    for (int k = 0; k < drop; k++) {
        int official = held[k];
        st.officials[official] = -1;
        LOG(st, seat, seat_name(seat), " returns the ", spec(st).officials[official].name, " (R36)");
    }
    int previous = st.officials[chosen];
    st.officials[chosen] = seat;
    st.officials_chosen[chosen] = true;
    touch(st, seat);
    if (previous >= 0 && previous != seat) {
        touch(st, previous);
        LOG(st, seat, seat_name(seat), " takes the ", name, " from ", seat_name(previous), " (R36)");
    } else {
        LOG(st, seat, seat_name(seat), " chooses the ", name);
    }
}

// _capitoleum_cleared
void capitoleum_cleared(State& st) { std::fill(st.officials_chosen.begin(), st.officials_chosen.end(), 0); }

// --- placement rules (E25-E28) -------------------------------------------------------------------------

// _refugium_spaces (E26, R33): any free space, one per player.
void refugium_spaces(State& st, int seat, std::vector<int>& out) {
    for (int s : st.t().region_spaces[REFUGIUM])
        if (st.spaces[s] == seat) return;
    auto spaces = free_spaces(st, REFUGIUM);
    out.insert(out.end(), spaces.begin(), spaces.end());
}

// the Basilica's placement rule (E27)
void basilica_spaces(State& st, int seat, std::vector<int>& out) {
    auto spaces = paired_spaces(st, st.t().region_spaces[BASILICA], seat);
    out.insert(out.end(), spaces.begin(), spaces.end());
}

// _ordered_spaces (E28): the spaces are filled "1", "2", "3" in order, one per player.
void ordered_spaces(const State& st, int region, int seat, std::vector<int>& out) {
    const auto& ids = st.t().region_spaces[region];
    for (int s : ids)
        if (st.spaces[s] == seat) return;
    for (int s : ids)
        if (st.spaces[s] < 0) {
            out.push_back(s);
            return;
        }
}

void capitoleum_spaces(State& st, int seat, std::vector<int>& out) { ordered_spaces(st, CAPITOLEUM, seat, out); }

bool never_visible(const State&, int, int) { return false; }

}  // namespace

void register_expansion_board() {
    STEPS[S_refugium_space] = [](State& st, const Task& t) { refugium_space(st, t.a[0]); };
    STEPS[S_basilica_space] = [](State& st, const Task& t) { basilica_space(st, t.a[0]); };
    STEPS[S_capitoleum_space] = [](State& st, const Task& t) { capitoleum_space(st, t.a[0]); };

    RegionRule& refugium = REGIONS[REFUGIUM];
    refugium.evaluate = occupants<REFUGIUM, S_refugium_space>;
    refugium.free_spaces = refugium_spaces;
    refugium.visible = never_visible;

    RegionRule& basilica = REGIONS[BASILICA];
    basilica.evaluate = occupants<BASILICA, S_basilica_space>;
    basilica.free_spaces = basilica_spaces;
    basilica.visible = never_visible;

    RegionRule& capitoleum = REGIONS[CAPITOLEUM];
    capitoleum.evaluate = occupants<CAPITOLEUM, S_capitoleum_space>;
    capitoleum.free_spaces = capitoleum_spaces;
    capitoleum.visible = never_visible;
    capitoleum.cleared = capitoleum_cleared;

    DECISIONS[REFUGIUM_OPTION] = {legal_refugium_option, resolve_refugium_option, false, false, false};
    DECISIONS[REFUGIUM_PATRON] = {legal_patron, resolve_patron, false, false, true};
    DECISIONS[REFUGIUM_PAIRS] = {legal_pairs, resolve_pairs, false, false, true};
    DECISIONS[BASILICA_CLAIM] = {legal_basilica, resolve_basilica, false, false, false};
    DECISIONS[OFFICIAL_CHOICE] = {legal_official, resolve_official, false, false, false};
}

}  // namespace tribune
