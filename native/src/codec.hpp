// tribune_env/codec (actions.py, observation.py, space.py) and the visibility helpers of engine/view.py: integers
// and float32 rows for learning code, identical to the Python codec for every Space and rule set.
//
// API (built once per component set and Space, immutable afterwards, so one object serves every thread):
//
//   ActionCodec codec(components, space, bid_cap);          // ActionCodec(components, bid_cap, space)
//     codec.n                                                // size of the action space
//     int  codec.encode(action, seat, num_players)           // ActionCodec.encode: the id, -1 if not expressible
//     bool codec.try_decode(index, seat, num_players, &act)  // ActionCodec.decode without raising: false when
//                                                            //   ``index`` is outside 0..n-1 or names a seat
//                                                            //   beyond num_players
//     Action codec.decode(index, seat, num_players)          // the same; throws ActionDecodeError (Python's text)
//     int  codec.indices(actions, count, seat, players, out) // ActionCodec.indices into out[count]: returns how
//                                                            //   many were written (bids above the cap dropped)
//     void codec.mask(actions, count, seat, players, out)    // ActionCodec.mask into out[n] (0/1 bytes; zeroed)
//     int  codec.legal_mask(state, out)                      // mask of the pending decision of ``state`` for its
//                                                            //   deciding seat (all zero when the game is over);
//                                                            //   returns that seat, -1 when nobody is to act
//
//   ObservationEncoder enc(components, round_limit, space);  // ObservationEncoder(components, round_limit, space)
//     enc.size                                               // length of the row
//     void enc.encode(state, seat, out)                      // ObservationEncoder.encode into out[size] (float32;
//                                                            //   every entry written); throws std::invalid_argument
//                                                            //   for an expansion game in the base encoder
//     enc.pieces, enc.player_fields, enc.player_offsets      // the layout (ObservationEncoder.pieces, per_player,
//                                                            //   _player_offsets) for tests and debugging
//
// Nothing is allocated per call except in ``encode``'s call of scoring's ``scores`` (one small vector); raw pointers
// in and out, so a batched stepper calls these without Python objects. The layout needs no registered records; the
// encoding reads the region records (REGIONS: face_up, visible), so register_all() must have run.
// Every size comes from the components through the same derivation as tables.py / the Python constructors.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "core.hpp"

namespace tribune {

// codec/space.py Space
enum class Space : int { BASE = 0, EXPANSION = 1 };

// engine/actions.py OPTIONS: the options of a two-option choice
constexpr int OPTIONS = 2;

// codec/actions.py ActionDecodeError
struct ActionDecodeError : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

// The sizes tables.py's tables_for(components, expansion) derives, as far as the codec reads them.
struct CodecTables {
    int num_card_types = 0;
    std::vector<int> card_copies;  // per card type (Tables.card_copies)
    int deck_size = 0;             // Tables.deck_size
    int num_spaces = 0;            // len(Tables.spaces)
    std::vector<int> regions;      // Tables.regions (evaluation order)
};
CodecTables codec_tables(const Components& comps, bool expansion);

// codec/actions.py Block
struct Block {
    std::string name;
    int start = 0, size = 0;
    int stop() const { return start + size; }
};

// codec/actions.py ActionCodec
class ActionCodec {
public:
    ActionCodec(const Components& comps, Space space, int bid_cap);

    Space space;
    int bid_cap;
    int n = 0;
    int num_factions = NUM_FACTIONS;
    int base_players = 0, max_players = 0;
    std::vector<int> tile_ids;     // emperor tile ids (component order), expansion space only
    std::vector<int> veto_regions; // the regions a Veto may name, expansion space only
    std::vector<Block> blocks;

    const Block& block(const std::string& name) const;  // ActionCodec.block[name]
    int encode(const Action& action, int seat, int num_players) const;
    bool try_decode(int64_t index, int seat, int num_players, Action& out) const;
    Action decode(int64_t index, int seat, int num_players) const;
    int indices(const Action* actions, int count, int seat, int num_players, int32_t* out) const;
    void mask(const Action* actions, int count, int seat, int num_players, uint8_t* out) const;
    int legal_mask(State& st, uint8_t* out) const;
    void seat_mask(State& st, int seat, uint8_t* out) const;  // legal_mask when ``seat`` is to act, else zeros

private:
    bool wide_;
    int base_cards_ = 0, cards_ = 0, base_spaces_ = 0, spaces_ = 0;
    int at_card_ = 0, at_place_ = 0, at_bid_ = 0, at_commit_ = 0, at_decline_ = 0, at_option_ = 0, at_faction_ = 0;
    int at_assassinate_ = 0, at_card_x_ = -1, at_place_x_ = -1, at_assassinate_x_ = -1, at_tile_ = -1;
    int at_official_ = -1, at_brutii_card_ = -1, at_veto_ = -1;
    std::vector<Action> fixed_;        // _fixed: the seat-independent action of every index
    std::vector<uint8_t> has_fixed_;   // 0 where _fixed is None (the assassin blocks)
};

// codec/observation.py Piece
struct Piece {
    std::string name;
    int start = 0, size = 0;
    bool counts = false;
    int stop() const { return start + size; }
};

// codec/observation.py Scales
struct Scales {
    double money = 1, laurels = 1, legions = 1, cards = 1, followers = 1, score = 1, rounds = 1;
    double tiles = 1.0, patrons = 1.0;
    static Scales of(const Components& comps, int round_limit, bool expansion);
};

// codec/observation.py ObservationEncoder
class ObservationEncoder {
public:
    ObservationEncoder(const Components& comps, int round_limit, Space space);

    Space space;
    Scales scales;
    int size = 0;
    int max_players = 0;
    int player_size = 0;
    std::vector<Piece> pieces;
    std::vector<Piece> player_fields;  // per_player: (name, offset in the block, size)
    std::vector<int> player_offsets;   // _player_offsets
    std::vector<std::string> victory_ids;
    std::vector<float> high;           // ObservationEncoder.high

    const Piece& piece(const std::string& name) const;
    void encode(const State& st, int seat, float* out) const;

private:
    bool wide_;
    CodecTables tables_;
    std::vector<int> tile_ids_;  // emperor tile ids (component order), expansion space only
    int num_objectives_ = 0, num_amounts_ = 0, num_phases_ = 0, num_kinds_ = 0;
    std::vector<std::string> objectives_, amounts_;
    std::vector<double> amount_scales_;
    std::vector<int> disc_copies_;
    int patron_supply_ = 0;
    std::vector<int> base_point_variant_;  // components.point_variant by player count (-1: none)
    std::vector<std::pair<int, int>> fields_;  // (region, field) of each board slot
    double deck_size_ = 1;
    int objective_slot_[NUM_OBJECTIVES];  // by Objective: its entry among objectives_ (-1: none in this space)
    int amount_objective_[NUM_OBJECTIVES];  // by entry of amounts_: its Objective (VictoryCard::need's index)
    // piece starts
    int at_round_, at_phase_, at_victory_card_, at_point_variant_, at_thresholds_, at_obligatory_, at_required_;
    int at_pending_kind_, at_pending_seat_, at_pending_faction_, at_pending_index_, at_hand_, at_staged_;
    int at_staged_size_, at_contest_, at_my_pairs_, at_my_bid_, at_sets_, at_first_laurel_, at_chariot_;
    int at_colosseum_, at_piles_, at_spaces_, at_board_, at_board_hidden_;
    int at_emperor_up_ = -1, at_emperor_pile_ = -1, at_matrona_tiles_ = -1, at_officials_ = -1;
    int at_officials_chosen_ = -1, at_placed_this_turn_ = -1, at_benefit_blocked_ = -1, at_augur_cards_ = -1;
    int at_augur_drawn_ = -1, at_patron_supply_ = -1, at_pending_brutii_ = -1, at_brutii_played_ = -1;
    int at_brutii_discs_ = -1, at_brutii_options_ = -1;
    // per-player field offsets
    int o_flags_, o_money_, o_laurels_, o_legions_, o_hand_size_, o_followers_, o_score_, o_coin_bowl_;
    int o_markers_, o_tile_, o_controls_, o_first_, o_progress_;
    int o_patrons_ = -1, o_emperor_tiles_ = -1, o_officials_ = -1, o_brutii_ = -1;

    void build_layout(const Components& comps);
    int tile_slot(int tile) const;
    int victory_slot(const std::string& id) const;
};

// engine/view.py face_up and field_visible (R1): whether everybody sees ``region``'s cards all the time, and
// whether ``seat`` may see the cards of its field ``i`` now (the region records of REGIONS decide).
bool face_up(int region);
bool field_visible(const State& st, int seat, int region, int i);
// engine/view.py public_hand_size: a hand's size as everybody sees it (R1, R2).
int public_hand_size(const State& st, int seat);

}  // namespace tribune
