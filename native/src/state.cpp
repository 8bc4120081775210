// tribune_env/engine/state.py (GameState.__init__, card_counts) and the Rules helpers of tables.py and config.py.
#include <algorithm>

#include "core.hpp"

namespace tribune {

State::State(std::shared_ptr<const Rules> r) : rules(std::move(r)) {
    const Rules& t = *rules;
    int n_factions = static_cast<int>(t.faction_cards.size());
    int n = t.config.players;
    Player blank;
    blank.markers.assign(static_cast<size_t>(n_factions), 0);
    blank.hand.assign(static_cast<size_t>(t.num_card_types()), 0);
    players.assign(static_cast<size_t>(n), blank);
    fields.resize(t.regions.size());
    for (size_t i = 0; i < t.regions.size(); i++) {
        int region = t.regions[i];
        int count = region_is_expansion(region) ? 0 : t.comps.region(region).fields;
        fields[i].assign(static_cast<size_t>(count), {});
    }
    atrium_up.assign(fields[ATRIUM].size(), 0);
    spaces.assign(t.spaces.size(), -1);
    controller.assign(static_cast<size_t>(n_factions), -1);
    sets.assign(static_cast<size_t>(n_factions), {});
    first_laurel.assign(static_cast<size_t>(n_factions), 1);
    bids.assign(static_cast<size_t>(n), -1);
    sacrificed.assign(static_cast<size_t>(n), 0);
    fulfilled_since.assign(static_cast<size_t>(n), -1);
    size_t n_officials = t.config.expansion ? t.comps.expansion.officials.size() : 0;
    officials.assign(n_officials, -1);
    officials_chosen.assign(n_officials, 0);
    benefit_blocked.assign(static_cast<size_t>(n_factions), 0);
}

std::vector<int> State::card_counts() const {
    std::vector<int> counts(static_cast<size_t>(t().num_card_types()), 0);
    for (const auto& p : players)
        for (size_t c = 0; c < p.hand.size(); c++) counts[c] += p.hand[c];
    auto add = [&](const std::vector<int>& pile) {
        for (int c : pile) counts[static_cast<size_t>(c)] += 1;
    };
    add(draw);
    add(discard);
    add(staged);
    add(contest);
    add(augur_cards);
    for (const auto& s : sets) add(s);
    for (const auto& region : fields)
        for (const auto& f : region) add(f);
    for (const auto& pr : pairs) {
        counts[static_cast<size_t>(pr.a)] += 1;
        counts[static_cast<size_t>(pr.b)] += 1;
    }
    return counts;
}

std::string Rules::card_name(int card) const {
    int kind = card_kind[static_cast<size_t>(card)];
    int value = card_value[static_cast<size_t>(card)];
    if (kind == CK_SLAVE) {
        std::string key = NATIONALITY_KEYS[card_nationality[static_cast<size_t>(card)]];
        key[0] = static_cast<char>(key[0] - 'a' + 'A');  // str.capitalize() of a lower-case key
        return cat(key, " slave ", value);
    }
    if (kind == CK_ASSASSIN) return "Assassin";
    const FactionSpec& spec = comps.factions[static_cast<size_t>(card_faction[static_cast<size_t>(card)])];
    if (value == 0) return cat(spec.name, " 0 (", spec.leader, ")");
    return cat(spec.name, " ", value);
}

int Rules::followers() const {
    const Config& c = config;
    if (c.brutii && comps.has_expansion && comps.expansion.has_brutii)
        return comps.expansion.brutii.followers.at(c.players);
    if (c.expansion && comps.has_expansion) return comps.expansion.followers.at(c.players);
    return comps.followers.at(c.players);
}

int Rules::point_variant_markers() const {
    if (config.expansion && comps.has_expansion) return comps.expansion.point_variant.at(config.players);
    return comps.point_variant.at(config.players);
}

const VictoryCard& Rules::find_victory_card(const std::string& id) const {
    if (config.expansion && comps.has_expansion)
        for (const auto& c : comps.expansion.victory_cards)
            if (c.id == id) return c;
    for (const auto& c : comps.victory_cards)
        if (c.id == id) return c;
    throw std::invalid_argument("unknown victory card " + id);
}

int Rules::required(const VictoryCard& card) const {
    if (config.brutii && card.expansion) return card.required_brutii.at(config.players);
    return card.required.at(config.players);
}

std::vector<const VictoryCard*> Rules::default_victory_cards() const {
    std::vector<const VictoryCard*> cards;
    if (config.expansion && comps.has_expansion)
        for (const auto& c : comps.expansion.victory_cards) cards.push_back(&c);
    if (cards.empty())
        for (const auto& c : comps.victory_cards) cards.push_back(&c);
    std::vector<const VictoryCard*> out;
    for (const VictoryCard* c : cards) {
        const auto& rows = (config.brutii && c->expansion) ? c->required_brutii : c->required;
        if (rows.count(config.players)) out.push_back(c);
    }
    return out;
}

}  // namespace tribune
