// tribune_env/engine/registry.py: the records of every agenda step, decision kind and region, and their names.
#include <string>

#include "core.hpp"

namespace tribune {

const char* const FACTION_KEYS[NUM_FACTIONS] = {"gladiators", "legates",    "praetorians", "plebeians",
                                                "patricians", "vestals",    "senators"};
const char* const REGION_KEYS[NUM_REGIONS] = {"thermae",  "forum",     "latrine",       "curia",
                                              "atrium",   "catacombs", "pantheon",      "field_of_mars",
                                              "refugium", "basilica",  "capitoleum"};
const char* const NATIONALITY_KEYS[NUM_NATIONALITIES] = {"nubian", "germanian", "greek"};
const char* const OFFICIAL_KEYS[NUM_OFFICIALS] = {"princeps", "matrona", "augur", "quaestor", "tribunus_plebis"};
const char* const BRUTII_CARD_KEYS[NUM_BRUTII_CARDS] = {
    "patron", "faction_takeover", "eternal_favor", "favor_of_the_emperor", "official", "cards",
    "denarii", "laurels",         "buy_a_legion",  "slave_cards",          "mass_murder", "veto"};
const char* const BRUTII_DISC_KEYS[NUM_BRUTII_DISCS] = {"cross", "arrow", "arrow_follower"};
const char* const REQUIREMENT_KEYS[NUM_REQUIREMENTS] = {"favor",       "scroll",      "patron",       "most_markers",
                                                        "most_laurels", "most_legions", "most_denarii", "pay"};
const char* const PHASE_KEYS[NUM_PHASES] = {"setup",     "card_placement",   "follower_placement", "region_evaluation",
                                            "takeovers", "faction_benefits", "chariot_auction",    "game_over",
                                            "expansion_evaluation", "preparation"};
const char* const KIND_KEYS[NUM_KINDS] = {
    "setup_discard",      "place_follower",     "latrine_choice",   "curia_discard",       "atrium_bid",
    "catacombs_purchase", "pantheon_sacrifice", "field_of_mars_pair", "takeover_set",      "takeover_penalty",
    "assassin_target",    "tigellinus_discard", "agrippa_choice",   "cato_marker",         "benefit_option",
    "legion_purchase",    "chariot_bid",        "chariot_placement", "cesura_discard",     "refugium_option",
    "refugium_patron",    "refugium_pairs",     "basilica_claim",   "official_choice",     "tribunus_plebis",
    "augur_discard",      "brutii_card",        "brutii_cards_option", "brutii_takeover_option", "brutii_veto",
    "brutii_slaves",      "brutii_legion"};
const char* const ACTION_TYPE_NAMES[NUM_ACTION_TYPES] = {
    "PlaceFollower", "PickCard",   "Commit",         "Decline",          "Bid",          "ChooseOption",
    "ChooseFaction", "Assassinate", "ChooseTile",    "ChooseOfficial",   "ChooseActionCard", "ChooseRegion"};
const char* const STEP_NAMES[NUM_STEPS] = {
#define STEP(name, module) #name,
#include "steps.def"
#undef STEP
};

StepFn STEPS[NUM_STEPS] = {};
DecisionRule DECISIONS[NUM_KINDS] = {};
RegionRule REGIONS[NUM_REGIONS] = {};

void register_all() {
    static bool done = false;
    if (done) return;
    register_setup();
    register_card_placement();
    register_drawing();
    register_follower_placement();
    register_regions();
    register_takeovers();
    register_rewards();
    register_benefits();
    register_chariot();
    register_expansion_board();
    register_officials();
    register_brutii();
    std::string missing;
    for (int s = 0; s < NUM_STEPS; s++)
        if (!STEPS[s]) missing += std::string(" step:") + STEP_NAMES[s];
    for (int k = 0; k < NUM_KINDS; k++)
        if (!DECISIONS[k].legal || !DECISIONS[k].resolve) missing += std::string(" decision:") + KIND_KEYS[k];
    for (int r = 0; r < NUM_REGIONS; r++)
        if (!REGIONS[r].evaluate || !REGIONS[r].free_spaces) missing += std::string(" region:") + REGION_KEYS[r];
    if (!missing.empty()) throw std::logic_error("native engine records missing for:" + missing);
    done = true;
}

}  // namespace tribune

// Until every module is ported, a missing module leaves its records empty (register_all then names them).
namespace tribune {
#define WEAK __attribute__((weak))
WEAK void register_regions() {}
WEAK void register_takeovers() {}
WEAK void register_rewards() {}
WEAK void register_benefits() {}
WEAK void register_chariot() {}
WEAK void register_expansion_board() {}
WEAK void register_officials() {}
WEAK void register_brutii() {}
#undef WEAK
}  // namespace tribune

// The same for the functions engine.hpp declares (each throws until its module is there).
#include "engine.hpp"
namespace tribune {
#define WEAK __attribute__((weak))
WEAK std::vector<int> free_spaces(const State&, int) { throw std::logic_error("regions.cpp not built"); }
WEAK std::vector<int> paired_spaces(const State&, const std::vector<int>&, int) {
    throw std::logic_error("regions.cpp not built");
}
WEAK std::string cards_text(int) { throw std::logic_error("rewards.cpp not built"); }
WEAK void gain_scroll(State&, int, std::string_view) { throw std::logic_error("rewards.cpp not built"); }
WEAK void brutii_turn(State&) { throw std::logic_error("brutii.cpp not built"); }
#undef WEAK
}  // namespace tribune
