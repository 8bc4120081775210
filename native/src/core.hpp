// The native core's data and state: a field-for-field mirror of the Python engine (tribune_env/engine), which stays
// the specification. Every struct here names the Python class it mirrors; every field keeps the Python name, so a
// reader can put the two side by side. The component numbers are not typed here: they are read from the Python
// Components object (tribune_env/data) when a game is made (bind.cpp), so every printed number keeps one home.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pyrandom.hpp"

namespace tribune {

// --- enums of tribune_env.data and tribune_env.engine.decisions (same members, same values) ----------------------

enum Faction : int { GLADIATORS, LEGATES, PRAETORIANS, PLEBEIANS, PATRICIANS, VESTALS, SENATORS, NUM_FACTIONS };
extern const char* const FACTION_KEYS[NUM_FACTIONS];

enum Region : int {
    THERMAE,
    FORUM,
    LATRINE,
    CURIA,
    ATRIUM,
    CATACOMBS,
    PANTHEON,
    FIELD_OF_MARS,
    REFUGIUM,
    BASILICA,
    CAPITOLEUM,
    NUM_REGIONS
};
extern const char* const REGION_KEYS[NUM_REGIONS];
inline bool region_is_expansion(int r) { return r >= REFUGIUM; }
constexpr int NUM_BASE_REGIONS = REFUGIUM;

enum Nationality : int { NUBIAN, GERMANIAN, GREEK, NUM_NATIONALITIES };
extern const char* const NATIONALITY_KEYS[NUM_NATIONALITIES];
enum Official : int { PRINCEPS, MATRONA, AUGUR, QUAESTOR, TRIBUNUS_PLEBIS, NUM_OFFICIALS };
extern const char* const OFFICIAL_KEYS[NUM_OFFICIALS];
enum BrutiiCard : int {
    BC_PATRON,
    BC_FACTION_TAKEOVER,
    BC_ETERNAL_FAVOR,
    BC_FAVOR_OF_THE_EMPEROR,
    BC_OFFICIAL,
    BC_CARDS,
    BC_DENARII,
    BC_LAURELS,
    BC_BUY_A_LEGION,
    BC_SLAVE_CARDS,
    BC_MASS_MURDER,
    BC_VETO,
    NUM_BRUTII_CARDS
};
extern const char* const BRUTII_CARD_KEYS[NUM_BRUTII_CARDS];
enum BrutiiDisc : int { CROSS, ARROW, ARROW_FOLLOWER, NUM_BRUTII_DISCS };
extern const char* const BRUTII_DISC_KEYS[NUM_BRUTII_DISCS];
enum Requirement : int {
    REQ_FAVOR,
    REQ_SCROLL,
    REQ_PATRON,
    REQ_MOST_MARKERS,
    REQ_MOST_LAURELS,
    REQ_MOST_LEGIONS,
    REQ_MOST_DENARII,
    REQ_PAY,
    NUM_REQUIREMENTS
};
extern const char* const REQUIREMENT_KEYS[NUM_REQUIREMENTS];

enum Phase : int {
    SETUP,
    CARD_PLACEMENT,
    FOLLOWER_PLACEMENT,
    REGION_EVALUATION,
    TAKEOVERS,
    FACTION_BENEFITS,
    CHARIOT_AUCTION,
    GAME_OVER,
    EXPANSION_EVALUATION,
    PREPARATION,
    NUM_PHASES
};
extern const char* const PHASE_KEYS[NUM_PHASES];

enum Kind : int {
    SETUP_DISCARD,
    PLACE_FOLLOWER,
    LATRINE_CHOICE,
    CURIA_DISCARD,
    ATRIUM_BID,
    CATACOMBS_PURCHASE,
    PANTHEON_SACRIFICE,
    FIELD_OF_MARS_PAIR,
    TAKEOVER_SET,
    TAKEOVER_PENALTY,
    ASSASSIN_TARGET,
    TIGELLINUS_DISCARD,
    AGRIPPA_CHOICE,
    CATO_MARKER,
    BENEFIT_OPTION,
    LEGION_PURCHASE,
    CHARIOT_BID,
    CHARIOT_PLACEMENT,
    CESURA_DISCARD,
    REFUGIUM_OPTION,
    REFUGIUM_PATRON,
    REFUGIUM_PAIRS,
    BASILICA_CLAIM,
    OFFICIAL_CHOICE,
    TRIBUNUS_PLEBIS_CHOICE,  // DecisionKind.TRIBUNUS_PLEBIS (renamed here: Official::TRIBUNUS_PLEBIS has the name)
    AUGUR_DISCARD,
    BRUTII_CARD,
    BRUTII_CARDS_OPTION,
    BRUTII_TAKEOVER_OPTION,
    BRUTII_VETO,
    BRUTII_SLAVES,
    BRUTII_LEGION,
    NUM_KINDS
};
extern const char* const KIND_KEYS[NUM_KINDS];

enum TakeoverRole : int { ALONE, SECOND_FIRST, FIRST_OVER_SECOND };
enum CardKind : int { CK_FACTION, CK_SLAVE, CK_ASSASSIN };
enum SpaceKind : int { SK_REGION, SK_FACTION, SK_COIN_BOWL };

constexpr int NO_TILE = 0, SCROLL = 1, TRIBUNE = 2;  // PlayerState.tile
constexpr int OPTED_OUT = -2;                        // state.py OPTED_OUT (R49)

// --- the component data (tribune_env/data/schema.py and expansion.py), filled from Python ---------------------------

// A ``numbers`` dict of the component file (str -> int). ``at`` throws naming the key when it is missing.
struct Numbers {
    std::map<std::string, int> m;
    int at(const std::string& key) const {
        auto it = m.find(key);
        if (it == m.end()) throw std::out_of_range("component number missing: " + key);
        return it->second;
    }
    int get(const std::string& key, int fallback) const {
        auto it = m.find(key);
        return it == m.end() ? fallback : it->second;
    }
    bool has(const std::string& key) const { return m.count(key) != 0; }
};

struct FactionSpec {
    int faction;
    std::string name, leader;
    std::vector<int> values;
    Numbers numbers;
};

struct RegionSpec {
    int region;
    int fields, spaces;
    Numbers numbers;
    std::vector<int> prices;
};

// VictoryCard and ExpansionVictoryCard in one struct (``expansion`` says which; ``card`` is the id for the latter).
// The objectives of the victory cards (scoring.objectives), as bits of VictoryCard::obligatory_bits.
enum Objective : int { OBJ_TRIBUNE, OBJ_FAVOR, OBJ_LAURELS, OBJ_LEGIONS, OBJ_MARKERS, OBJ_DENARII, OBJ_EMPEROR_TILES, OBJ_PATRONS };
constexpr int NUM_OBJECTIVES = 8;
// the component files' names of the objectives, in the order of Objective
inline constexpr const char* OBJECTIVE_NAMES[NUM_OBJECTIVES] = {"tribune", "favor",   "laurels",       "legions",
                                                                "markers", "denarii", "emperor_tiles", "patrons"};

struct VictoryCard {
    std::string id, card, title, length;
    Numbers thresholds;
    std::vector<std::string> obligatory;
    std::map<int, int> required, required_brutii;
    bool expansion = false;
    // derived once when the card is read (bind.cpp): thresholds by objective, obligatory objectives as bits
    int need[NUM_OBJECTIVES] = {0, 0, 0, 0, 0, 0, 0, 0};
    uint32_t obligatory_bits = 0;
};

// ScoringSpec and ExpansionScoring in one struct (patron and emperor_tile are 0 in the base game's).
struct ScoringSpec {
    int tribune = 0, scroll = 0, eternal_favor = 0, temporary_favor = 0, legion = 0, laurel = 0;
    int denarii_per_point = 1, marker = 0, first_bonus = 0, patron = 0, emperor_tile = 0;
};

struct SlaveSpec {
    int nationality;
    std::vector<int> values;
};
struct AssassinSpec {
    int copies = 0, value = 0, protected_ = 0;  // ``protected`` in Python
};
struct OfficialSpec {
    int official;
    std::string name;
    Numbers numbers;
    std::map<int, int> payment;
};
struct EmperorTile {
    int id;
    int requires_[2];  // ``requires`` in Python: two Requirement values
};
struct PairReward {
    int laurels = 0, legions = 0;
};
struct ExpansionRegionSpec {
    int region;  // ExpansionRegion value (0..2); the board Region is REFUGIUM + region
    int spaces;
    Numbers numbers;
    std::map<int, PairReward> pairs;  // Nationality -> reward
};
struct BrutiiSpec {
    std::map<int, int> followers;  // seats -> followers per family
    std::map<int, int> discs;      // BrutiiDisc -> copies (in the file's order of keys: Python dict order)
    std::vector<std::pair<int, int>> discs_in_order;  // (disc, copies) in the Python dict's iteration order
    int legion_price = 0, slave_lay = 0, mass_murder_set = 0;
};
struct ExpansionSpec {
    std::vector<SlaveSpec> slaves;
    AssassinSpec assassins;
    int patron_supply = 0, patrons_per_player = 0;
    std::vector<OfficialSpec> officials;
    std::vector<EmperorTile> emperor_tiles;
    int emperor_pay = 0;
    std::vector<ExpansionRegionSpec> regions;
    std::map<int, int> followers, point_variant;
    ScoringSpec scoring;
    std::vector<VictoryCard> victory_cards;
    bool has_brutii = false;
    BrutiiSpec brutii;
};

struct Components {
    std::string name;
    std::vector<FactionSpec> factions;
    std::vector<RegionSpec> regions;  // base regions I..VIII
    int faction_field_spaces = 0, starting_laurels = 0, min_set_size = 0, coin_bowl_first = 0, coin_bowl_later = 0;
    int deal = 0, setup_discard = 0, starting_money = 0, starting_money_step = 0, hand_limit = 0;
    std::map<int, int> followers;
    std::vector<std::pair<int, int>> set_losses;  // (min size, cards lost), ascending size
    ScoringSpec scoring;
    std::map<int, int> point_variant;
    std::vector<VictoryCard> victory_cards;
    bool has_expansion = false;
    ExpansionSpec expansion;

    const RegionSpec& region(int r) const { return regions.at(static_cast<size_t>(r)); }
    int cards_lost_in_cesura(int set_size) const {
        int lost = 0;
        for (auto& [size, lose] : set_losses)
            if (set_size >= size) lost = lose;
        return lost;
    }
};

// tribune_env.engine.config.GameConfig (the fields the engine reads).
struct Config {
    int players = 4;
    bool has_victory_card = false;
    std::string victory_card;
    bool point_variant = false;
    int round_limit = 60;
    bool auto_forced = true;
    int start_seat = -1;  // -1: None
    bool expansion = false;
    bool brutii = false;
    int brutii_seat = -1;  // -1: None
};

struct SpaceSpec {
    int id, kind, region, faction, slot;  // region / faction -1 where None
    std::string label;
};

// tribune_env.engine.tables.Tables, plus the game's config and components: everything a state shares.
struct Rules {
    Config config;
    Components comps;
    // Tables
    bool expansion = false;
    std::vector<int> card_faction, card_kind, card_nationality, card_value, card_copies;
    std::vector<std::string> card_label;
    std::vector<std::vector<int>> faction_cards;  // per faction, ascending value
    std::vector<int> leader_card;                 // per faction
    std::vector<std::vector<int>> slave_cards;    // per nationality
    int assassin_card = -1;
    std::vector<int> regions;  // in evaluation order
    std::vector<SpaceSpec> spaces;
    std::vector<std::vector<int>> region_spaces;   // per Region (all 11; empty where not on the board)
    std::vector<std::vector<int>> faction_spaces;  // per faction
    int coin_bowl = -1;

    int num_card_types() const { return static_cast<int>(card_faction.size()); }
    int deck_size() const {
        int n = 0;
        for (int c : card_copies) n += c;
        return n;
    }
    bool is_slave(int card) const { return card_kind[static_cast<size_t>(card)] == CK_SLAVE; }
    std::string card_name(int card) const;  // Tables.card_name
    // GameConfig helpers
    int followers() const;                                  // GameConfig.followers
    int point_variant_markers() const;                      // GameConfig.point_variant_markers
    const VictoryCard& find_victory_card(const std::string& id) const;  // among victory_cards_of(...)
    int required(const VictoryCard& card) const;            // GameConfig.required
    std::vector<const VictoryCard*> default_victory_cards() const;
};

// --- typed actions (tribune_env/engine/actions.py) ------------------------------------------------------------------

enum ActionType : int8_t {
    A_PLACE_FOLLOWER,     // a = space
    A_PICK_CARD,          // a = card
    A_COMMIT,             //
    A_DECLINE,            //
    A_BID,                // a = amount
    A_CHOOSE_OPTION,      // a = option
    A_CHOOSE_FACTION,     // a = faction
    A_ASSASSINATE,        // a = seat, b = faction
    A_CHOOSE_TILE,        // a = tile
    A_CHOOSE_OFFICIAL,    // a = official
    A_CHOOSE_ACTION_CARD, // a = card
    A_CHOOSE_REGION,      // a = region
    NUM_ACTION_TYPES
};
extern const char* const ACTION_TYPE_NAMES[NUM_ACTION_TYPES];  // the Python class names

struct Action {
    int8_t type = A_COMMIT;
    int32_t a = 0, b = 0;
    bool operator==(const Action& o) const { return type == o.type && a == o.a && b == o.b; }
};
inline Action place_follower(int space) { return {A_PLACE_FOLLOWER, space, 0}; }
inline Action pick_card(int card) { return {A_PICK_CARD, card, 0}; }
inline Action commit() { return {A_COMMIT, 0, 0}; }
inline Action decline() { return {A_DECLINE, 0, 0}; }
inline Action bid(int amount) { return {A_BID, amount, 0}; }
inline Action choose_option(int option) { return {A_CHOOSE_OPTION, option, 0}; }
inline Action choose_faction(int faction) { return {A_CHOOSE_FACTION, faction, 0}; }
inline Action assassinate(int seat, int faction) { return {A_ASSASSINATE, seat, faction}; }
inline Action choose_tile(int tile) { return {A_CHOOSE_TILE, tile, 0}; }
inline Action choose_official(int official) { return {A_CHOOSE_OFFICIAL, official, 0}; }
inline Action choose_action_card(int card) { return {A_CHOOSE_ACTION_CARD, card, 0}; }
inline Action choose_region(int region) { return {A_CHOOSE_REGION, region, 0}; }

// --- the decision, the agenda, the log -------------------------------------------------------------------------------

// decisions.Pending
struct Pending {
    int kind = 0, seat = 0, faction = -1, index = -1;
    bool operator==(const Pending& o) const {
        return kind == o.kind && seat == o.seat && faction == o.faction && index == o.index;
    }
};

enum Step : int16_t {
#define STEP(name, module) S_##name,
#include "steps.def"
#undef STEP
    NUM_STEPS
};
extern const char* const STEP_NAMES[NUM_STEPS];

// One agenda entry: (step name, integer arguments...) of the Python agenda.
struct Task {
    int16_t step = 0;
    int8_t n = 0;  // number of arguments
    int32_t a[3] = {0, 0, 0};
    bool operator==(const Task& o) const {
        if (step != o.step || n != o.n) return false;
        for (int i = 0; i < n; i++)
            if (a[i] != o.a[i]) return false;
        return true;
    }
};
inline Task task(Step s) { return Task{s, 0, {0, 0, 0}}; }
inline Task task(Step s, int x) { return Task{s, 1, {x, 0, 0}}; }
inline Task task(Step s, int x, int y) { return Task{s, 2, {x, y, 0}}; }
inline Task task(Step s, int x, int y, int z) { return Task{s, 3, {x, y, z}}; }

// state.Event
struct Event {
    int round, phase, seat;
    std::string text;
    int private_to;
};

// state.PlayerState
struct Player {
    int money = 0, laurels = 0, legions = 0;
    std::vector<uint8_t> markers;  // per faction
    int tile = NO_TILE;
    bool eternal_favor = false, temporary_favor = false;
    std::vector<int> hand;  // count per card type
    int followers = 0;
    bool pantheon_seen = false;
    int patrons = 0;
    std::vector<int> emperor_tiles;

    int hand_size() const {
        int n = 0;
        for (int c : hand) n += c;
        return n;
    }
    int num_markers() const {
        int n = 0;
        for (auto m : markers) n += m;
        return n;
    }
};

struct PairCards {  // one sealed Field of Mars pair: (seat, card, card)
    int seat, a, b;
    bool operator==(const PairCards& o) const { return seat == o.seat && a == o.a && b == o.b; }
};

// state.GameState: every field, same names (``legal_cache`` is ``legal`` + ``legal_valid``).
struct State {
    std::shared_ptr<const Rules> rules;  // config, components, tables (state.config / state.tables)
    std::string victory_card;
    int round = 0, phase = SETUP, start_seat = 0, turn_seat = 0;
    std::vector<Player> players;
    std::vector<int> controller;
    std::vector<std::vector<int>> sets;
    std::vector<uint8_t> first_laurel;
    std::vector<std::vector<std::vector<int>>> fields;  // [region][field] -> cards
    std::vector<uint8_t> atrium_up;
    std::vector<int> spaces;
    std::vector<int> coin_bowl;
    int colosseum = 0, chariot = -1, proconsul = -1;
    std::vector<int> draw, discard, staged, contest;
    std::vector<PairCards> pairs;
    std::vector<int> bids;
    std::vector<uint8_t> sacrificed;
    bool has_pending = false;
    Pending pending;
    bool legal_valid = false;
    std::vector<Action> legal;
    std::vector<Task> agenda;
    uint64_t chance = 0;
    int64_t clock = 0;
    uint32_t touched = 0;
    std::vector<int64_t> fulfilled_since;
    std::vector<int> winners;
    bool truncated = false;
    // the expansion
    std::vector<int> officials;
    std::vector<uint8_t> officials_chosen;
    std::vector<int> emperor_pile;
    int emperor_up = -1;
    std::vector<int> matrona_tiles;
    std::vector<int> augur_cards;
    int placed_this_turn = 0;
    std::vector<uint8_t> benefit_blocked;
    // the Brutii
    int brutii = -1, brutii_turns = 0;
    std::vector<int> brutii_revealed, brutii_played;
    int brutii_options[2] = {-1, -1};
    int veto = -1;
    // the log
    std::vector<Event> events;
    bool logging = true;  // false: no event is formatted or kept (search copies; plays on identically)

    State() = default;
    explicit State(std::shared_ptr<const Rules> r);  // GameState(config): a new state at setup

    const Rules& t() const { return *rules; }  // state.tables
    const Config& config() const { return rules->config; }
    const Components& comps() const { return rules->comps; }
    int num_players() const { return static_cast<int>(players.size()); }
    bool finished() const { return phase == GAME_OVER; }
    void log(int seat, std::string text, int private_to = -1) {
        events.push_back(Event{round, phase, seat, std::move(text), private_to});
    }
    std::vector<int> card_counts() const;
};

// LOG(state, seat, parts...): state.log(seat, f"...") with the text built only when the state keeps a log.
// LOG_PRIVATE(state, seat, private_to, parts...): the same with ``private_to``.
template <class... Parts>
std::string cat(const Parts&... parts);
#define LOG(st, seat, ...)                                   \
    do {                                                     \
        if ((st).logging) (st).log((seat), ::tribune::cat(__VA_ARGS__)); \
    } while (0)
#define LOG_PRIVATE(st, seat, private_to, ...)                                 \
    do {                                                                       \
        if ((st).logging) (st).log((seat), ::tribune::cat(__VA_ARGS__), (private_to)); \
    } while (0)

namespace detail {
inline void append(std::string& out, const std::string& s) { out += s; }
inline void append(std::string& out, const char* s) { out += s; }
inline void append(std::string& out, std::string_view s) { out += s; }
inline void append(std::string& out, char c) { out += c; }
inline void append(std::string& out, int v) { out += std::to_string(v); }
inline void append(std::string& out, long v) { out += std::to_string(v); }
inline void append(std::string& out, long long v) { out += std::to_string(v); }
inline void append(std::string& out, unsigned v) { out += std::to_string(v); }
inline void append(std::string& out, unsigned long v) { out += std::to_string(v); }
inline void append(std::string& out, unsigned long long v) { out += std::to_string(v); }
}  // namespace detail

template <class... Parts>
std::string cat(const Parts&... parts) {
    std::string out;
    (detail::append(out, parts), ...);
    return out;
}

// --- the records of tribune_env/engine/registry.py --------------------------------------------------------------------

using StepFn = void (*)(State&, const Task&);
using LegalFn = void (*)(State&, const Pending&, std::vector<Action>&);
using ResolveFn = void (*)(State&, const Pending&, const Action&);

struct DecisionRule {
    LegalFn legal = nullptr;
    ResolveFn resolve = nullptr;
    bool always_asked = false;
    bool bid = false;
    bool stages = false;
};

struct RegionRule {
    void (*evaluate)(State&, std::vector<Task>&) = nullptr;             // the region's evaluation steps
    void (*free_spaces)(State&, int seat, std::vector<int>&) = nullptr;  // spaces ``seat`` may take now
    bool (*needs_card)(const State&, const std::vector<int>& field) = nullptr;  // nullptr: ``not field``
    bool (*visible)(const State&, int seat, int field) = nullptr;       // nullptr: always
    void (*placed)(State&, int seat, int slot) = nullptr;
    void (*cleared)(State&) = nullptr;
    bool face_up = false;
};

extern StepFn STEPS[NUM_STEPS];
extern DecisionRule DECISIONS[NUM_KINDS];
extern RegionRule REGIONS[NUM_REGIONS];

// Each module of the core registers its records (one function per Python engine module).
void register_setup();
void register_card_placement();
void register_drawing();
void register_follower_placement();
void register_regions();
void register_takeovers();
void register_rewards();
void register_benefits();
void register_chariot();
void register_expansion_board();
void register_officials();
void register_brutii();
// All of them, once; throws naming what is missing (registry.check_complete).
void register_all();

// --- flow.py ---------------------------------------------------------------------------------------------------------

const std::vector<Action>& legal_actions(State& st);  // the pending decision's choices (empty when over)
void advance(State& st);
// Apply a legal choice and advance; returns false (state unchanged) when ``action`` is not legal or the game is over.
bool apply_action(State& st, const Action& action);

// --- setup.py --------------------------------------------------------------------------------------------------------

State new_state(std::shared_ptr<const Rules> rules, uint64_t seed);  // set-up, not yet advanced

// --- scoring.py ------------------------------------------------------------------------------------------------------

void end_step(State& st);
std::vector<int> scores(const State& st);
void scores_into(const State& st, int* out);  // scores(st) written into out[0..num_players)
// scoring.py first_fulfillers: the seats whose fulfilment began earliest (R23) into ``out``; returns their count
int first_fulfillers(const State& st, int* out);
std::vector<int> ranks(const State& st);
std::vector<int> decide_winners(State& st);
bool game_ends(State& st);
void track_fulfilment(State& st);
const VictoryCard* victory_card(const State& st);  // nullptr in the point-value variant

}  // namespace tribune
