// tribune_env/codec/actions.py (ActionCodec), codec/observation.py (Scales, ObservationEncoder) and the helpers of
// engine/view.py they read (face_up, field_visible, public_hand_size). The API is described in codec.hpp.
#include "codec.hpp"

#include <algorithm>
#include <cstring>
#include <tuple>

namespace tribune {

namespace {

// Python's ``a % b`` for b > 0 (floors toward minus infinity).
inline int pymod(int a, int b) {
    int r = a % b;
    return r < 0 ? r + b : r;
}

// --- names of tribune_env.data and engine.state the layout is built from ---------------------------------------------

// data/schema.py OBJECTIVES
const std::vector<std::string> OBJECTIVES = {"tribune", "favor", "laurels", "legions", "denarii", "markers"};
// data/expansion.py EXPANSION_OBJECTIVES
const std::vector<std::string> EXPANSION_OBJECTIVES = {"tribune", "favor",         "laurels", "legions",
                                                       "markers", "emperor_tiles", "patrons"};
// engine/state.py TILE_NAMES
const std::vector<std::string> TILE_NAMES = {"none", "scroll", "tribune"};
// observation.py PLAYER_FLAGS
const std::vector<std::string> PLAYER_FLAGS = {"present",     "eternal_favor", "temporary_favor", "fulfils",
                                               "start_player", "proconsul",    "sacrificed",      "to_act"};
// observation.py AMOUNTS, EXPANSION_AMOUNTS
const std::vector<std::string> AMOUNTS = {"laurels", "legions", "denarii", "markers"};
std::vector<std::string> expansion_amounts() {
    std::vector<std::string> out = AMOUNTS;
    out.push_back("emperor_tiles");
    out.push_back("patrons");
    return out;
}
// observation.py ALL_OBJECTIVES: the base objectives, then the expansion ones not among them
std::vector<std::string> all_objectives() {
    std::vector<std::string> out = OBJECTIVES;
    for (const auto& o : EXPANSION_OBJECTIVES)
        if (std::find(OBJECTIVES.begin(), OBJECTIVES.end(), o) == OBJECTIVES.end()) out.push_back(o);
    return out;
}
// observation.py OPTION_CARDS: the Brutii's cards with two options (R46), in the order of State::brutii_options
constexpr int OPTION_CARDS = 2;
// decisions.py TakeoverRole: ALONE, SECOND_FIRST, FIRST_OVER_SECOND
constexpr int NUM_TAKEOVER_ROLES = FIRST_OVER_SECOND + 1;

// decisions.py Phase.expansion, DecisionKind.expansion, DecisionKind.brutii
inline bool phase_is_expansion(int p) { return p >= EXPANSION_EVALUATION; }
inline bool kind_is_expansion(int k) { return k >= REFUGIUM_OPTION; }
inline bool kind_is_brutii(int k) { return k >= BRUTII_CARD; }

// Components.player_counts: sorted(followers); the largest of them
int max_player_count(const Components& comps) {
    if (comps.followers.empty()) throw std::invalid_argument("components: no player count");
    return comps.followers.rbegin()->first;
}

// ExpansionComponents.seat_counts: the family counts and the seats with the Brutii (R42); the largest of them
int max_seat_count(const ExpansionSpec& extra) {
    int most = 0;
    for (auto& [seats, _] : extra.followers) most = std::max(most, seats);
    for (auto& [seats, _] : extra.point_variant) most = std::max(most, seats);
    for (const auto& card : extra.victory_cards)
        for (auto& [seats, _] : card.required_brutii) most = std::max(most, seats);
    if (extra.has_brutii)
        for (auto& [seats, _] : extra.brutii.followers) most = std::max(most, seats);
    return most;
}

// config.py victory_cards_of(components, expansion): the expansion cards first, then the base cards
std::vector<const VictoryCard*> victory_cards_of(const Components& comps, bool expansion) {
    std::vector<const VictoryCard*> out;
    if (expansion && comps.has_expansion)
        for (const auto& c : comps.expansion.victory_cards) out.push_back(&c);
    for (const auto& c : comps.victory_cards) out.push_back(&c);
    return out;
}

// scoring.py victory_card (without building the card list: the state's rules hold the cards): None in the
// point-value variant, else the first card of victory_cards_of(components, expansion) with the state's id
const VictoryCard* state_victory_card(const State& st) {
    if (st.config().point_variant) return nullptr;
    const Components& comps = st.comps();
    if (st.config().expansion && comps.has_expansion)
        for (const auto& c : comps.expansion.victory_cards)
            if (c.id == st.victory_card) return &c;
    for (const auto& c : comps.victory_cards)
        if (c.id == st.victory_card) return &c;
    throw std::invalid_argument("unknown victory card " + st.victory_card);
}

// Loads of a state's parts issued together, before the encoder reads them one after another: a state kept among
// thousands (a search tree, a batch, stored positions) is mostly out of cache, and misses taken one at a time cost
// more than the encoding itself; started together they overlap. Only a hint: nothing is read here.
void prefetch_bytes(const void* at, size_t bytes) {
    const char* p = static_cast<const char*>(at);
    for (size_t off = 0; off < bytes; off += 64) __builtin_prefetch(p + off);
}
template <class T>
void prefetch_vector(const std::vector<T>& v) {
    if (!v.empty()) prefetch_bytes(v.data(), v.size() * sizeof(T));
}
void prefetch_state(const State& st) {
    prefetch_bytes(&st, sizeof(State));
    prefetch_vector(st.players);
    prefetch_vector(st.fields);
    prefetch_vector(st.spaces);
    prefetch_vector(st.controller);
    prefetch_vector(st.fulfilled_since);
    prefetch_vector(st.first_laurel);
    prefetch_vector(st.bids);
    prefetch_vector(st.sacrificed);
    prefetch_vector(st.coin_bowl);
    prefetch_vector(st.contest);
    prefetch_vector(st.pairs);
    prefetch_vector(st.sets);
    prefetch_vector(st.staged);
    prefetch_vector(st.officials);
    for (const auto& p : st.players) {
        prefetch_vector(p.hand);
        prefetch_vector(p.markers);
        prefetch_vector(p.emperor_tiles);
    }
    for (const auto& region : st.fields) prefetch_vector(region);
    for (const auto& region : st.fields)
        for (const auto& field : region) prefetch_vector(field);
}

// tables.py _card_types: the copies of each distinct value of ``values``, ascending
void add_card_types(const std::vector<int>& values, std::vector<int>& copies) {
    std::vector<int> sorted(values);
    std::sort(sorted.begin(), sorted.end());
    for (size_t i = 0; i < sorted.size();) {
        size_t j = i;
        while (j < sorted.size() && sorted[j] == sorted[i]) j++;
        copies.push_back(static_cast<int>(j - i));
        i = j;
    }
}

}  // namespace

// --- engine/tables.py (the sizes the codec reads) --------------------------------------------------------------------

// tables_for(components, expansion): card types (_card_types), regions and follower spaces (_spaces)
CodecTables codec_tables(const Components& comps, bool expansion) {
    CodecTables t;
    for (const auto& spec : comps.factions) add_card_types(spec.values, t.card_copies);
    if (expansion && comps.has_expansion) {
        for (const auto& slave : comps.expansion.slaves) add_card_types(slave.values, t.card_copies);
        t.card_copies.push_back(comps.expansion.assassins.copies);
    }
    t.num_card_types = static_cast<int>(t.card_copies.size());
    for (int c : t.card_copies) t.deck_size += c;
    for (const auto& spec : comps.regions) t.regions.push_back(spec.region);
    if (expansion)
        for (int r = 0; r < NUM_REGIONS; r++)
            if (region_is_expansion(r)) t.regions.push_back(r);  // EXPANSION_REGIONS
    for (const auto& spec : comps.regions) t.num_spaces += spec.spaces;
    t.num_spaces += NUM_FACTIONS * comps.faction_field_spaces + 1;  // faction fields, the coin bowl
    if (comps.has_expansion)
        for (int r : t.regions)
            if (region_is_expansion(r)) t.num_spaces += comps.expansion.regions.at(static_cast<size_t>(r - REFUGIUM)).spaces;
    return t;
}

// --- engine/view.py ---------------------------------------------------------------------------------------------------

// face_up
bool face_up(int region) { return REGIONS[region].face_up; }

// field_visible (R1): the region record decides (a nullptr ``visible`` is the record's default, always)
bool field_visible(const State& st, int seat, int region, int i) {
    const RegionRule& rule = REGIONS[region];
    return rule.face_up || !rule.visible || rule.visible(st, seat, i);
}

// public_hand_size (R1, R2): staged cards and sealed, unrevealed Field of Mars pairs still count as held
int public_hand_size(const State& st, int seat) {
    int size = st.players[static_cast<size_t>(seat)].hand_size();
    for (const auto& pr : st.pairs)
        if (pr.seat == seat) size += 2;
    if (st.has_pending && st.pending.seat == seat) size += static_cast<int>(st.staged.size());
    return size;
}

// --- codec/actions.py -------------------------------------------------------------------------------------------------

// ActionCodec.__init__
ActionCodec::ActionCodec(const Components& comps, Space space_, int bid_cap_)
    : space(space_), bid_cap(bid_cap_), wide_(space_ == Space::EXPANSION) {
    if (wide_ && !comps.has_expansion)
        throw std::invalid_argument("an expansion action space needs a component file with [expansion] tables");
    CodecTables tables = codec_tables(comps, wide_);
    CodecTables base = codec_tables(comps, false);
    base_cards_ = base.num_card_types;
    cards_ = tables.num_card_types;
    base_spaces_ = base.num_spaces;
    spaces_ = tables.num_spaces;
    base_players = max_player_count(comps);
    max_players = wide_ ? max_seat_count(comps.expansion) : base_players;
    if (wide_) {
        for (const auto& tile : comps.expansion.emperor_tiles) tile_ids.push_back(tile.id);
        veto_regions = tables.regions;
    }
    std::vector<std::pair<std::string, int>> sizes = {
        {"card", base.num_card_types},
        {"place", base.num_spaces},
        {"bid", bid_cap + 1},
        {"commit", 1},
        {"decline", 1},
        {"option", OPTIONS},
        {"faction", num_factions},
        {"assassinate", base_players * num_factions},
    };
    if (wide_) {
        sizes.insert(sizes.end(), {
                                      {"card_x", tables.num_card_types - base.num_card_types},
                                      {"place_x", tables.num_spaces - base.num_spaces},
                                      {"assassinate_x", (max_players - base_players) * num_factions},
                                      {"tile", static_cast<int>(tile_ids.size())},
                                      {"official", NUM_OFFICIALS},
                                      {"brutii_card", NUM_BRUTII_CARDS},
                                      {"veto", static_cast<int>(veto_regions.size())},
                                  });
    }
    int start = 0;
    for (auto& [name, size] : sizes) {
        blocks.push_back(Block{name, start, size});
        start += size;
    }
    n = start;
    at_card_ = block("card").start;
    at_place_ = block("place").start;
    at_bid_ = block("bid").start;
    at_commit_ = block("commit").start;
    at_decline_ = block("decline").start;
    at_option_ = block("option").start;
    at_faction_ = block("faction").start;
    at_assassinate_ = block("assassinate").start;
    if (wide_) {
        at_card_x_ = block("card_x").start;
        at_place_x_ = block("place_x").start;
        at_assassinate_x_ = block("assassinate_x").start;
        at_tile_ = block("tile").start;
        at_official_ = block("official").start;
        at_brutii_card_ = block("brutii_card").start;
        at_veto_ = block("veto").start;
    }
    // _fixed_actions: the seat-independent action of every index (none in the seat-relative blocks)
    fixed_.reserve(static_cast<size_t>(n));
    auto add = [&](const Action& a) {
        fixed_.push_back(a);
        has_fixed_.push_back(1);
    };
    auto none = [&](int count) {
        for (int i = 0; i < count; i++) {
            fixed_.push_back(Action{});
            has_fixed_.push_back(0);
        }
    };
    for (int c = 0; c < base_cards_; c++) add(pick_card(c));
    for (int s = 0; s < base_spaces_; s++) add(place_follower(s));
    for (int b = 0; b <= bid_cap; b++) add(bid(b));
    add(commit());
    add(decline());
    for (int o = 0; o < OPTIONS; o++) add(choose_option(o));
    for (int f = 0; f < num_factions; f++) add(choose_faction(f));
    none(block("assassinate").size);
    if (wide_) {
        for (int c = base_cards_; c < cards_; c++) add(pick_card(c));
        for (int s = base_spaces_; s < spaces_; s++) add(place_follower(s));
        none(block("assassinate_x").size);
        for (int t : tile_ids) add(choose_tile(t));
        for (int o = 0; o < NUM_OFFICIALS; o++) add(choose_official(o));
        for (int c = 0; c < NUM_BRUTII_CARDS; c++) add(choose_action_card(c));
        for (int r : veto_regions) add(choose_region(r));
    }
}

// ActionCodec.block[name]
const Block& ActionCodec::block(const std::string& name) const {
    for (const auto& b : blocks)
        if (b.name == name) return b;
    throw std::out_of_range("action codec has no block " + name);
}

// ActionCodec.encode: the index of ``action`` for the player at ``seat``; -1 where the codec cannot express it.
// The look-up of Python's ``_index`` dict is arithmetic here: each fixed block holds one action family in order.
int ActionCodec::encode(const Action& action, int seat, int num_players) const {
    const int a = action.a;
    switch (action.type) {
        case A_PICK_CARD:
            if (a >= 0 && a < base_cards_) return at_card_ + a;
            if (wide_ && a >= base_cards_ && a < cards_) return at_card_x_ + a - base_cards_;
            return -1;
        case A_PLACE_FOLLOWER:
            if (a >= 0 && a < base_spaces_) return at_place_ + a;
            if (wide_ && a >= base_spaces_ && a < spaces_) return at_place_x_ + a - base_spaces_;
            return -1;
        case A_BID: return a >= 0 && a <= bid_cap ? at_bid_ + a : -1;
        case A_COMMIT: return at_commit_;
        case A_DECLINE: return at_decline_;
        case A_CHOOSE_OPTION: return a >= 0 && a < OPTIONS ? at_option_ + a : -1;
        case A_CHOOSE_FACTION: return a >= 0 && a < num_factions ? at_faction_ + a : -1;
        case A_CHOOSE_TILE:
            for (size_t k = tile_ids.size(); k-- > 0;)  // a dict keeps the last index of a repeated key
                if (tile_ids[k] == a) return at_tile_ + static_cast<int>(k);
            return -1;
        case A_CHOOSE_OFFICIAL: return wide_ && a >= 0 && a < NUM_OFFICIALS ? at_official_ + a : -1;
        case A_CHOOSE_ACTION_CARD: return wide_ && a >= 0 && a < NUM_BRUTII_CARDS ? at_brutii_card_ + a : -1;
        case A_CHOOSE_REGION:
            for (size_t k = veto_regions.size(); k-- > 0;)
                if (veto_regions[k] == a) return at_veto_ + static_cast<int>(k);
            return -1;
        case A_ASSASSINATE: {
            const int target = a, faction = action.b;
            if (target < 0 || target >= num_players || seat < 0 || seat >= num_players || faction < 0 ||
                faction >= num_factions)
                return -1;
            int relative = pymod(target - seat, num_players);
            if (relative < base_players) return at_assassinate_ + relative * num_factions + faction;
            if (at_assassinate_x_ >= 0 && relative < max_players)
                return at_assassinate_x_ + (relative - base_players) * num_factions + faction;
            return -1;
        }
        default: return -1;
    }
}

// ActionCodec.decode, without raising
bool ActionCodec::try_decode(int64_t index, int seat, int num_players, Action& out) const {
    if (index < 0 || index >= n) return false;
    const auto i = static_cast<size_t>(index);
    if (has_fixed_[i]) {
        out = fixed_[i];
        return true;
    }
    int relative, faction;
    const int at = static_cast<int>(index);
    if (at_assassinate_x_ >= 0 && at >= at_assassinate_x_) {
        relative = (at - at_assassinate_x_) / num_factions + base_players;
        faction = (at - at_assassinate_x_) % num_factions;
    } else {
        relative = (at - at_assassinate_) / num_factions;
        faction = (at - at_assassinate_) % num_factions;
    }
    if (relative >= num_players || num_players <= 0) return false;
    out = assassinate(pymod(seat + relative, num_players), faction);
    return true;
}

// ActionCodec.decode (ActionDecodeError with Python's message)
Action ActionCodec::decode(int64_t index, int seat, int num_players) const {
    if (index < 0 || index >= n)
        throw ActionDecodeError(cat("action ", static_cast<long long>(index), " is outside the action space 0..", n - 1));
    Action out;
    if (!try_decode(index, seat, num_players, out)) {
        const int at = static_cast<int>(index);
        int relative = at_assassinate_x_ >= 0 && at >= at_assassinate_x_
                           ? (at - at_assassinate_x_) / num_factions + base_players
                           : (at - at_assassinate_) / num_factions;
        throw ActionDecodeError(
            cat("action ", at, " names relative seat ", relative, ", but the game has ", num_players));
    }
    return out;
}

// ActionCodec.indices
int ActionCodec::indices(const Action* actions, int count, int seat, int num_players, int32_t* out) const {
    int written = 0;
    for (int k = 0; k < count; k++) {
        int i = encode(actions[k], seat, num_players);
        if (i >= 0) out[written++] = i;
    }
    return written;
}

// ActionCodec.mask (0/1 bytes; Python's is int8)
void ActionCodec::mask(const Action* actions, int count, int seat, int num_players, uint8_t* out) const {
    std::memset(out, 0, static_cast<size_t>(n));
    for (int k = 0; k < count; k++) {
        int i = encode(actions[k], seat, num_players);
        if (i >= 0) out[i] = 1;
    }
}

// Table.mask of the seat to act: the mask of the pending decision's legal choices for its deciding seat
void ActionCodec::seat_mask(State& st, int seat, uint8_t* out) const {
    if (legal_mask(st, out) != seat) std::memset(out, 0, static_cast<size_t>(n));
}

int ActionCodec::legal_mask(State& st, uint8_t* out) const {
    if (!st.has_pending) {
        std::memset(out, 0, static_cast<size_t>(n));
        return -1;
    }
    const auto& legal = legal_actions(st);
    const int seat = st.pending.seat;
    mask(legal.data(), static_cast<int>(legal.size()), seat, st.num_players(), out);
    return seat;
}

// --- codec/observation.py ---------------------------------------------------------------------------------------------

// Scales.of: each divisor twice the largest target any victory card sets for its amount
Scales Scales::of(const Components& comps, int round_limit, bool expansion) {
    auto cards = victory_cards_of(comps, expansion);
    auto most = [&](const char* key) {
        int best = 0;
        bool any = false;
        for (const VictoryCard* c : cards) {
            int v = c->thresholds.get(key, 0);
            best = any ? std::max(best, v) : v;
            any = true;
        }
        if (!any) throw std::invalid_argument("components: no victory card");
        return static_cast<double>(2 * best);
    };
    // top_score: every scoring item of table ``s`` at the scales above (Python's order of additions)
    auto top_score = [&](const ScoringSpec& s) {
        double total = static_cast<double>(s.tribune + s.eternal_favor + s.temporary_favor + s.first_bonus);
        total += s.laurel * most("laurels");
        total += s.legion * most("legions");
        total += most("denarii") / s.denarii_per_point;
        total += s.marker * NUM_FACTIONS;
        return total;
    };
    double score = top_score(comps.scoring);
    int followers = 0;
    for (auto& [_, f] : comps.followers) followers = std::max(followers, f);
    const bool extra = expansion && comps.has_expansion;
    if (extra) {
        const ScoringSpec& x = comps.expansion.scoring;
        score = std::max(score, top_score(x) + x.emperor_tile * most("emperor_tiles") + x.patron * most("patrons"));
        int f2 = 0;
        bool first = true;
        for (auto& [_, f] : comps.expansion.followers) {
            f2 = first ? f : std::max(f2, f);
            first = false;
        }
        followers = std::max(followers, f2);
    }
    Scales s;
    s.money = most("denarii");
    s.laurels = most("laurels");
    s.legions = most("legions");
    s.cards = static_cast<double>(2 * comps.hand_limit);
    s.followers = static_cast<double>(followers + 1);
    s.score = score;
    s.rounds = static_cast<double>(round_limit);
    s.tiles = extra ? most("emperor_tiles") : 1.0;
    s.patrons = extra ? most("patrons") : 1.0;
    return s;
}

// ObservationEncoder.__init__
ObservationEncoder::ObservationEncoder(const Components& comps, int round_limit, Space space_)
    : space(space_), wide_(space_ == Space::EXPANSION) {
    if (wide_ && !comps.has_expansion)
        throw std::invalid_argument("an expansion observation needs a component file with [expansion] tables");
    tables_ = codec_tables(comps, wide_);
    scales = Scales::of(comps, round_limit, wide_);
    max_players = wide_ ? max_seat_count(comps.expansion) : max_player_count(comps);
    for (const auto& c : comps.victory_cards) victory_ids.push_back(c.id);
    if (wide_)
        for (const auto& c : comps.expansion.victory_cards) victory_ids.push_back(c.id);
    objectives_ = wide_ ? all_objectives() : OBJECTIVES;
    amounts_ = wide_ ? expansion_amounts() : AMOUNTS;
    num_objectives_ = static_cast<int>(objectives_.size());
    num_amounts_ = static_cast<int>(amounts_.size());
    num_phases_ = 0;
    for (int p = 0; p < NUM_PHASES; p++)
        if (wide_ || !phase_is_expansion(p)) num_phases_++;
    num_kinds_ = 0;  // FAMILY_DECISION_KINDS or BASE_DECISION_KINDS (each a prefix of the kinds)
    for (int k = 0; k < NUM_KINDS; k++)
        if (wide_ ? !kind_is_brutii(k) : !kind_is_expansion(k)) num_kinds_++;
    if (wide_ && comps.expansion.has_brutii)
        for (int d = 0; d < NUM_BRUTII_DISCS; d++) disc_copies_.push_back(comps.expansion.brutii.discs.at(d));
    if (wide_) patron_supply_ = comps.expansion.patron_supply;
    for (auto& [players, markers] : comps.point_variant) {
        if (players >= static_cast<int>(base_point_variant_.size()))
            base_point_variant_.resize(static_cast<size_t>(players + 1), -1);
        base_point_variant_[static_cast<size_t>(players)] = markers;
    }
    for (size_t r = 0; r < comps.regions.size(); r++)
        for (int i = 0; i < comps.regions[r].fields; i++) fields_.emplace_back(static_cast<int>(r), i);
    deck_size_ = static_cast<double>(tables_.deck_size);
    for (const auto& key : amounts_) {
        if (key == "laurels") amount_scales_.push_back(scales.laurels);
        else if (key == "legions") amount_scales_.push_back(scales.legions);
        else if (key == "denarii") amount_scales_.push_back(scales.money);
        else if (key == "markers") amount_scales_.push_back(static_cast<double>(NUM_FACTIONS));
        else if (key == "emperor_tiles") amount_scales_.push_back(scales.tiles);
        else amount_scales_.push_back(scales.patrons);
    }
    if (wide_)
        for (const auto& tile : comps.expansion.emperor_tiles) tile_ids_.push_back(tile.id);
    // a card's objectives and thresholds by Objective (VictoryCard::need, obligatory_bits) to this space's entries
    for (int o = 0; o < NUM_OBJECTIVES; o++) {
        auto at = std::find(objectives_.begin(), objectives_.end(), OBJECTIVE_NAMES[o]);
        objective_slot_[o] = at == objectives_.end() ? -1 : static_cast<int>(at - objectives_.begin());
    }
    for (int k = 0; k < NUM_OBJECTIVES; k++) amount_objective_[k] = -1;
    for (int k = 0; k < num_amounts_; k++)
        for (int o = 0; o < NUM_OBJECTIVES; o++)
            if (amounts_[static_cast<size_t>(k)] == OBJECTIVE_NAMES[o]) amount_objective_[k] = o;
    build_layout(comps);
    // _highs: 1, card counts bounded by their copies
    high.assign(static_cast<size_t>(size), 1.0f);
    const int c = tables_.num_card_types;
    for (const auto& p : pieces)
        if (p.counts)
            for (int k = 0; k < p.size; k++)
                high[static_cast<size_t>(p.start + k)] = static_cast<float>(tables_.card_copies[static_cast<size_t>(k % c)]);
}

// _build_layout (and _per_player, _expansion_pieces): the pieces in order, the per-player block offsets
void ObservationEncoder::build_layout(const Components& comps) {
    const int c = tables_.num_card_types;
    const int f = NUM_FACTIONS;
    const int n = max_players;
    const int tiles = static_cast<int>(tile_ids_.size());
    int max_index = NUM_TAKEOVER_ROLES;
    for (const auto& spec : comps.regions) max_index = std::max({max_index, spec.fields, spec.spaces});
    if (wide_)
        for (const auto& spec : comps.expansion.regions) max_index = std::max(max_index, spec.spaces);
    int num_brutii_kinds = 0;
    if (wide_)
        for (int k = 0; k < NUM_KINDS; k++)
            if (kind_is_brutii(k)) num_brutii_kinds++;
    // _per_player
    player_fields.clear();
    std::vector<std::pair<std::string, int>> per = {
        {"flags", static_cast<int>(PLAYER_FLAGS.size())},
        {"money", 1},
        {"laurels", 1},
        {"legions", 1},
        {"hand_size", 1},
        {"followers", 1},
        {"score", 1},
        {"coin_bowl", 1},
        {"markers", f},
        {"tile", static_cast<int>(TILE_NAMES.size())},
        {"controls", f},
        {"first", 1},
        {"progress", num_objectives_},
    };
    if (wide_) {
        per.insert(per.end(), {{"patrons", 1}, {"emperor_tiles", tiles}, {"officials", NUM_OFFICIALS}, {"brutii", 1}});
    }
    int o = 0;
    for (auto& [name, sz] : per) {
        player_fields.push_back(Piece{name, o, sz, false});
        o += sz;
    }
    player_size = o;
    std::vector<std::tuple<std::string, int, bool>> spec = {
        {"round", 1, false},
        {"phase", num_phases_, false},
        {"victory_card", static_cast<int>(victory_ids.size()), false},
        {"point_variant", 1, false},
        {"thresholds", num_amounts_, false},
        {"obligatory", num_objectives_, false},
        {"required", 1, false},
        {"pending_kind", num_kinds_, false},
        {"pending_seat", n, false},
        {"pending_faction", f, false},
        {"pending_index", max_index, false},
        {"hand", c, true},
        {"staged", c, true},
        {"staged_size", 1, false},
        {"contest", c, true},
        {"my_pairs", c, true},
        {"my_bid", 2, false},
        {"sets", c, true},
        {"first_laurel", f, false},
        {"chariot", f + 1, false},
        {"colosseum", 1, false},
        {"piles", 2, false},
        {"spaces", tables_.num_spaces * n, false},
        {"board", static_cast<int>(fields_.size()) * c, true},
        {"board_hidden", static_cast<int>(fields_.size()), false},
    };
    if (wide_) {
        spec.insert(spec.end(), {
                                    {"emperor_up", tiles + 1, false},
                                    {"emperor_pile", 1, false},
                                    {"matrona_tiles", tiles, false},
                                    {"officials", NUM_OFFICIALS * (n + 1), false},
                                    {"officials_chosen", NUM_OFFICIALS, false},
                                    {"placed_this_turn", 1, false},
                                    {"benefit_blocked", f, false},
                                    {"augur_cards", c, true},
                                    {"augur_drawn", 1, false},
                                    {"patron_supply", 1, false},
                                    {"pending_brutii", num_brutii_kinds, false},
                                    {"brutii_played", NUM_BRUTII_CARDS, false},
                                    {"brutii_discs", NUM_BRUTII_DISCS, false},
                                    {"brutii_options", OPTION_CARDS * 2, false},
                                });
    }
    spec.emplace_back("players", n * player_size, false);
    pieces.clear();
    int start = 0;
    for (auto& [name, sz, counts] : spec) {
        pieces.push_back(Piece{name, start, sz, counts});
        start += sz;
    }
    size = start;
    const int base = pieces.back().start;
    player_offsets.clear();
    for (int k = 0; k < n; k++) player_offsets.push_back(base + k * player_size);

    auto at = [&](const char* name) { return piece(name).start; };
    at_round_ = at("round");
    at_phase_ = at("phase");
    at_victory_card_ = at("victory_card");
    at_point_variant_ = at("point_variant");
    at_thresholds_ = at("thresholds");
    at_obligatory_ = at("obligatory");
    at_required_ = at("required");
    at_pending_kind_ = at("pending_kind");
    at_pending_seat_ = at("pending_seat");
    at_pending_faction_ = at("pending_faction");
    at_pending_index_ = at("pending_index");
    at_hand_ = at("hand");
    at_staged_ = at("staged");
    at_staged_size_ = at("staged_size");
    at_contest_ = at("contest");
    at_my_pairs_ = at("my_pairs");
    at_my_bid_ = at("my_bid");
    at_sets_ = at("sets");
    at_first_laurel_ = at("first_laurel");
    at_chariot_ = at("chariot");
    at_colosseum_ = at("colosseum");
    at_piles_ = at("piles");
    at_spaces_ = at("spaces");
    at_board_ = at("board");
    at_board_hidden_ = at("board_hidden");
    if (wide_) {
        at_emperor_up_ = at("emperor_up");
        at_emperor_pile_ = at("emperor_pile");
        at_matrona_tiles_ = at("matrona_tiles");
        at_officials_ = at("officials");
        at_officials_chosen_ = at("officials_chosen");
        at_placed_this_turn_ = at("placed_this_turn");
        at_benefit_blocked_ = at("benefit_blocked");
        at_augur_cards_ = at("augur_cards");
        at_augur_drawn_ = at("augur_drawn");
        at_patron_supply_ = at("patron_supply");
        at_pending_brutii_ = at("pending_brutii");
        at_brutii_played_ = at("brutii_played");
        at_brutii_discs_ = at("brutii_discs");
        at_brutii_options_ = at("brutii_options");
    }
    auto off = [&](const char* name) {
        for (const auto& p : player_fields)
            if (p.name == name) return p.start;
        return -1;
    };
    o_flags_ = off("flags");
    o_money_ = off("money");
    o_laurels_ = off("laurels");
    o_legions_ = off("legions");
    o_hand_size_ = off("hand_size");
    o_followers_ = off("followers");
    o_score_ = off("score");
    o_coin_bowl_ = off("coin_bowl");
    o_markers_ = off("markers");
    o_tile_ = off("tile");
    o_controls_ = off("controls");
    o_first_ = off("first");
    o_progress_ = off("progress");
    o_patrons_ = off("patrons");
    o_emperor_tiles_ = off("emperor_tiles");
    o_officials_ = off("officials");
    o_brutii_ = off("brutii");
}

const Piece& ObservationEncoder::piece(const std::string& name) const {
    for (const auto& p : pieces)
        if (p.name == name) return p;
    throw std::out_of_range("observation has no piece " + name);
}

// _tile_slot[tile]
int ObservationEncoder::tile_slot(int tile) const {
    for (size_t k = tile_ids_.size(); k-- > 0;)
        if (tile_ids_[k] == tile) return static_cast<int>(k);
    throw std::out_of_range(cat("unknown emperor tile ", tile));
}

// _victory_slot[card_id] (a dict: the last of repeated ids)
int ObservationEncoder::victory_slot(const std::string& id) const {
    for (size_t k = victory_ids.size(); k-- > 0;)
        if (victory_ids[k] == id) return static_cast<int>(k);
    throw std::out_of_range("unknown victory card " + id);
}


// ObservationEncoder.encode (with _global, _goals, _cards, _board, _expansion, _brutii, _players, _progress,
// _expansion_holdings in Python's order). Python fills one-hots and counts into a byte buffer, then writes the
// scaled amounts, each clipped at 1, at their own entries (no one-hot shares an entry with an amount); here each
// amount is written where it is computed: ``amount(i, v)`` is ``obs[i] = min(v, 1.0)`` cast to float32.
void ObservationEncoder::encode(const State& st, int seat, float* out) const {
    if (st.config().expansion && !wide_)
        throw std::invalid_argument(
            "this observation encodes base games; an expansion game needs the expansion encoder");
    prefetch_state(st);
    std::fill(out, out + size, 0.0f);
    auto amount = [out](int i, double v) { out[i] = static_cast<float>(std::min(v, 1.0)); };
    const Scales& sc = scales;
    const int n = st.num_players();
    const int c = tables_.num_card_types;
    const Pending* pending = st.has_pending ? &st.pending : nullptr;
    auto rel = [n, seat](int s) { return pymod(s - seat, n); };
    const VictoryCard* card = state_victory_card(st);
    int goals[8] = {0, 0, 0, 0, 0, 0, 0, 0};  // the card's threshold of each amount (``goals`` of _players)

    // _global
    out[at_phase_ + st.phase] = 1;
    amount(at_round_, st.round / sc.rounds);
    // _goals
    if (card == nullptr) {
        out[at_point_variant_] = 1;
        int markers = wide_ ? st.t().point_variant_markers() : base_point_variant_.at(static_cast<size_t>(n));
        if (markers < 0) throw std::out_of_range(cat("no point-value variant for ", n, " players"));
        for (int k = 0; k < num_amounts_; k++)
            amount(at_thresholds_ + k, amounts_[static_cast<size_t>(k)] == "markers" ? markers / static_cast<double>(NUM_FACTIONS) : 0.0);
        amount(at_required_, 0.0);
    } else {
        out[at_victory_card_ + victory_slot(card->id)] = 1;
        for (int o = 0; o < NUM_OBJECTIVES; o++)
            if (card->obligatory_bits >> o & 1u) {
                if (objective_slot_[o] < 0) throw std::out_of_range(cat("unknown objective ", OBJECTIVE_NAMES[o]));
                out[at_obligatory_ + objective_slot_[o]] = 1;
            }
        for (int k = 0; k < num_amounts_; k++) {
            goals[k] = card->need[amount_objective_[k]];  // thresholds.get(amount, 0); also _players' goals
            amount(at_thresholds_ + k, goals[k] / amount_scales_[static_cast<size_t>(k)]);
        }
        auto req = card->required.find(n);
        amount(at_required_, (req == card->required.end() ? 0 : req->second) / static_cast<double>(num_objectives_));
    }
    if (pending) {
        const int kind = pending->kind;
        if (wide_ ? !kind_is_brutii(kind) : !kind_is_expansion(kind)) {
            out[at_pending_kind_ + kind] = 1;  // _kind_slot: the kinds are a prefix of DecisionKind
        } else {
            if (!wide_) throw std::out_of_range(cat("decision kind ", KIND_KEYS[kind], " has no base observation"));
            int slot = 0;  // _brutii_kind_slot
            for (int k = 0; k < kind; k++)
                if (kind_is_brutii(k)) slot++;
            out[at_pending_brutii_ + slot] = 1;
        }
        out[at_pending_seat_ + rel(pending->seat)] = 1;
        if (pending->faction >= 0) out[at_pending_faction_ + pending->faction] = 1;
        if (pending->index >= 0) out[at_pending_index_ + pending->index] = 1;
    }
    out[at_chariot_ + (st.chariot >= 0 ? st.chariot : NUM_FACTIONS)] = 1;
    for (size_t f = 0; f < st.first_laurel.size(); f++)
        if (st.first_laurel[f]) out[at_first_laurel_ + static_cast<int>(f)] = 1;
    const int own_bid = st.bids[static_cast<size_t>(seat)];
    if (own_bid >= 0 || own_bid == OPTED_OUT) out[at_my_bid_] = 1;  // the Brutii's sealed opt-out (R49): a bid of 0
    amount(at_colosseum_, st.colosseum / sc.money);
    amount(at_piles_, static_cast<double>(st.draw.size()) / deck_size_);
    amount(at_piles_ + 1, static_cast<double>(st.discard.size()) / deck_size_);
    const bool own_staging = pending != nullptr && pending->seat == seat;
    amount(at_staged_size_, static_cast<double>(own_staging ? st.staged.size() : 0) / sc.cards);
    amount(at_my_bid_ + 1, std::max(own_bid, 0) / sc.money);

    // _cards
    const auto& own = st.players[static_cast<size_t>(seat)].hand;  // shorter than the piece in a base game here
    for (size_t k = 0; k < own.size(); k++) out[at_hand_ + static_cast<int>(k)] = static_cast<float>(own[k]);
    if (!st.staged.empty() && own_staging)
        for (int k : st.staged) out[at_staged_ + k] += 1;
    for (int k : st.contest) out[at_contest_ + k] += 1;
    for (const auto& pr : st.pairs)
        if (pr.seat == seat) {
            out[at_my_pairs_ + pr.a] += 1;
            out[at_my_pairs_ + pr.b] += 1;
        }
    for (const auto& cards : st.sets)
        for (int k : cards) out[at_sets_ + k] += 1;

    // _board: face-up cards as counts per field; face-down fields only as their size
    for (size_t slot = 0; slot < fields_.size(); slot++) {
        const auto [region, i] = fields_[slot];
        const int base = at_board_ + static_cast<int>(slot) * c;
        const auto& cards = st.fields[static_cast<size_t>(region)][static_cast<size_t>(i)];
        if (face_up(region)) {
            for (int k : cards) out[base + k] += 1;
            continue;
        }
        const int hidden = at_board_hidden_ + static_cast<int>(slot);
        if (!cards.empty() && field_visible(st, seat, region, i)) {
            for (int k : cards) out[base + k] += 1;
            amount(hidden, 0.0);
        } else {
            amount(hidden, static_cast<double>(cards.size()) / sc.cards);
        }
    }
    for (size_t space = 0; space < st.spaces.size(); space++) {
        const int occupant = st.spaces[space];
        if (occupant >= 0) out[at_spaces_ + static_cast<int>(space) * max_players + rel(occupant)] = 1;
    }

    // _expansion (R33-R40)
    if (wide_) {
        const int tiles = static_cast<int>(tile_ids_.size());
        if (!st.config().expansion) {  // base rules through the expansion ids: no expansion piece is in play
            out[at_emperor_up_ + tiles] = 1;
            for (int official = 0; official < NUM_OFFICIALS; official++)
                out[at_officials_ + official * (max_players + 1) + max_players] = 1;
            amount(at_emperor_pile_, 0.0);
            amount(at_placed_this_turn_, 0.0);
            amount(at_augur_drawn_, 0.0);
            amount(at_patron_supply_, 0.0);
            for (int d = 0; d < NUM_BRUTII_DISCS; d++) amount(at_brutii_discs_ + d, 0.0);
        } else {
            out[at_emperor_up_ + (st.emperor_up >= 0 ? tile_slot(st.emperor_up) : tiles)] = 1;
            for (int tile : st.matrona_tiles) out[at_matrona_tiles_ + tile_slot(tile)] = 1;
            for (size_t official = 0; official < st.officials.size(); official++) {
                const int holder = st.officials[official];
                out[at_officials_ + static_cast<int>(official) * (max_players + 1) +
                    (holder >= 0 ? rel(holder) : max_players)] = 1;
            }
            for (size_t official = 0; official < st.officials_chosen.size(); official++)
                if (st.officials_chosen[official]) out[at_officials_chosen_ + static_cast<int>(official)] = 1;
            for (size_t f = 0; f < st.benefit_blocked.size(); f++)
                if (st.benefit_blocked[f]) out[at_benefit_blocked_ + static_cast<int>(f)] = 1;
            if (st.officials[AUGUR] == seat)  // R39: only the Augur sees what he drew
                for (int k : st.augur_cards) out[at_augur_cards_ + k] += 1;
            int patrons = 0;
            for (const auto& p : st.players) patrons += p.patrons;
            const int supply = patron_supply_;
            amount(at_emperor_pile_, static_cast<double>(st.emperor_pile.size()) / std::max(1, tiles));
            amount(at_placed_this_turn_, st.placed_this_turn / sc.followers);
            amount(at_augur_drawn_, static_cast<double>(st.augur_cards.size()) / sc.cards);
            amount(at_patron_supply_, supply ? static_cast<double>(supply - patrons) / supply : 0.0);
            // _brutii: his public state (R45); zero without him
            if (st.brutii < 0) {
                for (int d = 0; d < NUM_BRUTII_DISCS; d++) amount(at_brutii_discs_ + d, 0.0);
            } else {
                for (int k : st.brutii_played) out[at_brutii_played_ + k] = 1;
                for (int k = 0; k < OPTION_CARDS; k++)
                    if (st.brutii_options[k] >= 0) out[at_brutii_options_ + 2 * k + st.brutii_options[k]] = 1;
                for (int d = 0; d < NUM_BRUTII_DISCS; d++) {
                    const auto count = std::count(st.brutii_revealed.begin(), st.brutii_revealed.end(), d);
                    amount(at_brutii_discs_ + d,
                           static_cast<double>(count) / disc_copies_.at(static_cast<size_t>(d)));
                }
            }
        }
    }

    // _players: flags, markers, tile, controls, first bonus; the amounts of each seat
    const int pending_seat = pending ? pending->seat : -1;
    // cards out of the hand that still count as held (public_hand_size): sealed pairs, the decider's staged cards
    constexpr int MAX_SEATS = 32;
    if (n > MAX_SEATS) throw std::out_of_range("too many seats");
    int total[MAX_SEATS];
    scores_into(st, total);
    int held_back[MAX_SEATS] = {};
    for (const auto& pr : st.pairs) held_back[pr.seat] += 2;
    if (pending) held_back[pending->seat] += static_cast<int>(st.staged.size());
    const auto& bowl = st.coin_bowl;
    for (int s = 0; s < n; s++) {
        const Player& p = st.players[static_cast<size_t>(s)];
        const int base = player_offsets[static_cast<size_t>(rel(s))];
        float* flags = out + base + o_flags_;
        flags[0] = 1;
        flags[1] = p.eternal_favor;
        flags[2] = p.temporary_favor;
        flags[3] = st.fulfilled_since[static_cast<size_t>(s)] >= 0;
        flags[4] = st.start_seat == s;
        flags[5] = st.proconsul == s;
        flags[6] = st.sacrificed[static_cast<size_t>(s)] != 0;
        flags[7] = pending_seat == s;
        for (size_t f = 0; f < p.markers.size(); f++) out[base + o_markers_ + static_cast<int>(f)] = p.markers[f];
        out[base + o_tile_ + p.tile] = 1;
        if (p.tile == TRIBUNE) out[base + o_progress_] = 1;
        if (p.eternal_favor || p.temporary_favor) out[base + o_progress_ + 1] = 1;
        amount(base + o_money_, p.money / sc.money);
        amount(base + o_laurels_, p.laurels / sc.laurels);
        amount(base + o_legions_, p.legions / sc.legions);
        amount(base + o_hand_size_, (p.hand_size() + held_back[s]) / sc.cards);
        amount(base + o_followers_, p.followers / sc.followers);
        amount(base + o_score_, std::max(total[s], 0) / sc.score);
        amount(base + o_coin_bowl_,
               bowl.empty() ? 0.0 : static_cast<double>(std::count(bowl.begin(), bowl.end(), s)) / sc.followers);
        if (wide_) amount(base + o_patrons_, p.patrons / sc.patrons);
        // _progress: towards each amount objective of the card (unclipped before the final clip)
        const int progress = base + o_progress_ + 2;
        if (card) {
            if (!wide_) {  // no goal: 1 (met)
                const int held[4] = {p.laurels, p.legions, p.money, p.num_markers()};
                for (int k = 0; k < 4; k++)
                    amount(progress + k, goals[k] ? static_cast<double>(held[k]) / goals[k] : 1.0);
            } else {  // an objective missing from the card shows no progress
                const int held[6] = {p.laurels, p.legions, p.money, p.num_markers(),
                                     static_cast<int>(p.emperor_tiles.size()), p.patrons};
                for (int k = 0; k < 6; k++)
                    amount(progress + k, goals[k] ? static_cast<double>(held[k]) / goals[k] : 0.0);
            }
        } else {
            for (int k = 0; k < num_amounts_; k++) amount(progress + k, 0.0);
        }
    }
    for (size_t f = 0; f < st.controller.size(); f++) {
        const int owner = st.controller[f];
        if (owner >= 0) out[player_offsets[static_cast<size_t>(rel(owner))] + o_controls_ + static_cast<int>(f)] = 1;
    }
    if (!st.config().point_variant) {
        int first[MAX_SEATS];
        const int count = first_fulfillers(st, first);
        for (int k = 0; k < count; k++) out[player_offsets[static_cast<size_t>(rel(first[k]))] + o_first_] = 1;
    }
    // _expansion_holdings: claimed emperor tiles and held officials (both public, R35, R36), the Brutii's seat
    if (wide_ && st.config().expansion) {
        for (int s = 0; s < n; s++) {
            const int base = player_offsets[static_cast<size_t>(rel(s))] + o_emperor_tiles_;
            for (int tile : st.players[static_cast<size_t>(s)].emperor_tiles) out[base + tile_slot(tile)] = 1;
        }
        for (size_t official = 0; official < st.officials.size(); official++) {
            const int holder = st.officials[official];
            if (holder >= 0)
                out[player_offsets[static_cast<size_t>(rel(holder))] + o_officials_ + static_cast<int>(official)] = 1;
        }
        if (st.brutii >= 0) out[player_offsets[static_cast<size_t>(rel(st.brutii))] + o_brutii_] = 1;
    }
}

}  // namespace tribune
