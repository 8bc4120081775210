// The Python module tribune_env._core: the native core's rules, games and their exchange with the Python engine.
//
// Boundary: plain Python values only (ints, bools, strings, lists, tuples, dicts). The Python side
// (tribune_env/engine/native.py) turns them into the engine's objects (GameState, Pending, Event, typed actions).
#include <cstring>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/numpy.h>

#include <mutex>
#include <optional>

#include "codec.hpp"
#include "batch.hpp"
#include "bind.hpp"
#include "engine.hpp"

namespace py = pybind11;
using namespace tribune;

namespace tribune {
py::list view_fields(const State& st, int seat);  // view.cpp: engine/view.py view_data, read from the core
}

namespace {

// --- reading the Python Components / Tables / GameConfig ---------------------------------------------------------------

int as_int(const py::handle& h) { return py::cast<int>(h); }
std::string as_str(const py::handle& h) { return py::cast<std::string>(py::str(h)); }

std::vector<int> int_list(const py::handle& h) {
    std::vector<int> out;
    for (auto item : h) out.push_back(as_int(item));
    return out;
}

Numbers numbers_of(const py::handle& d) {
    Numbers n;
    for (auto item : py::reinterpret_borrow<py::dict>(d)) n.m[as_str(item.first)] = as_int(item.second);
    return n;
}

std::map<int, int> int_map(const py::handle& d) {
    std::map<int, int> m;
    for (auto item : py::reinterpret_borrow<py::dict>(d)) m[as_int(item.first)] = as_int(item.second);
    return m;
}

ScoringSpec scoring_of(const py::handle& s, bool expansion) {
    ScoringSpec out;
    out.tribune = as_int(s.attr("tribune"));
    out.scroll = as_int(s.attr("scroll"));
    out.eternal_favor = as_int(s.attr("eternal_favor"));
    out.temporary_favor = as_int(s.attr("temporary_favor"));
    out.legion = as_int(s.attr("legion"));
    out.laurel = as_int(s.attr("laurel"));
    out.denarii_per_point = as_int(s.attr("denarii_per_point"));
    out.marker = as_int(s.attr("marker"));
    out.first_bonus = as_int(s.attr("first_bonus"));
    if (expansion) {
        out.patron = as_int(s.attr("patron"));
        out.emperor_tile = as_int(s.attr("emperor_tile"));
    }
    return out;
}

VictoryCard victory_card_of(const py::handle& c, bool expansion) {
    VictoryCard v;
    v.expansion = expansion;
    v.id = as_str(c.attr("id"));
    v.card = expansion ? v.id : as_str(c.attr("card"));
    v.title = as_str(c.attr("title"));
    v.length = as_str(c.attr("length"));
    v.thresholds = numbers_of(c.attr("thresholds"));
    for (auto o : c.attr("obligatory")) v.obligatory.push_back(as_str(o));
    v.required = int_map(c.attr("required"));
    if (expansion) v.required_brutii = int_map(c.attr("required_brutii"));
    for (int o = 0; o < NUM_OBJECTIVES; o++) {
        v.need[o] = v.thresholds.get(OBJECTIVE_NAMES[o], 0);
        for (const auto& name : v.obligatory)
            if (name == OBJECTIVE_NAMES[o]) v.obligatory_bits |= 1u << o;
    }
    for (const auto& name : v.obligatory) {
        bool known = false;
        for (const char* n : OBJECTIVE_NAMES) known = known || name == n;
        if (!known) throw std::invalid_argument("victory card " + v.id + ": unknown obligatory objective " + name);
    }
    return v;
}

void read_expansion(const py::handle& e, ExpansionSpec& x) {
    for (auto s : e.attr("slaves")) x.slaves.push_back(SlaveSpec{as_int(s.attr("nationality")), int_list(s.attr("values"))});
    auto a = e.attr("assassins");
    x.assassins = AssassinSpec{as_int(a.attr("copies")), as_int(a.attr("value")), as_int(a.attr("protected"))};
    x.patron_supply = as_int(e.attr("patron_supply"));
    x.patrons_per_player = as_int(e.attr("patrons_per_player"));
    for (auto o : e.attr("officials"))
        x.officials.push_back(OfficialSpec{as_int(o.attr("official")), as_str(o.attr("name")),
                                           numbers_of(o.attr("numbers")), int_map(o.attr("payment"))});
    for (auto t : e.attr("emperor_tiles")) {
        EmperorTile tile{as_int(t.attr("id")), {0, 0}};
        auto req = t.attr("requires");
        tile.requires_[0] = as_int(req[py::int_(0)]);
        tile.requires_[1] = as_int(req[py::int_(1)]);
        x.emperor_tiles.push_back(tile);
    }
    x.emperor_pay = as_int(e.attr("emperor_pay"));
    for (auto r : e.attr("regions")) {
        ExpansionRegionSpec spec{as_int(r.attr("region")), as_int(r.attr("spaces")), numbers_of(r.attr("numbers")), {}};
        for (auto item : py::reinterpret_borrow<py::dict>(r.attr("pairs")))
            spec.pairs[as_int(item.first)] =
                PairReward{as_int(item.second.attr("laurels")), as_int(item.second.attr("legions"))};
        x.regions.push_back(spec);
    }
    x.followers = int_map(e.attr("followers"));
    x.point_variant = int_map(e.attr("point_variant"));
    x.scoring = scoring_of(e.attr("scoring"), true);
    for (auto c : e.attr("victory_cards")) x.victory_cards.push_back(victory_card_of(c, true));
    auto b = e.attr("brutii");
    x.has_brutii = !b.is_none();
    if (x.has_brutii) {
        x.brutii.followers = int_map(b.attr("followers"));
        for (auto item : py::reinterpret_borrow<py::dict>(b.attr("discs"))) {
            x.brutii.discs[as_int(item.first)] = as_int(item.second);
            x.brutii.discs_in_order.emplace_back(as_int(item.first), as_int(item.second));
        }
        x.brutii.legion_price = as_int(b.attr("legion_price"));
        x.brutii.slave_lay = as_int(b.attr("slave_lay"));
        x.brutii.mass_murder_set = as_int(b.attr("mass_murder_set"));
    }
}

Components components_of(const py::handle& c) {
    Components x;
    x.name = as_str(c.attr("name"));
    for (auto f : c.attr("factions"))
        x.factions.push_back(FactionSpec{as_int(f.attr("faction")), as_str(f.attr("name")), as_str(f.attr("leader")),
                                         int_list(f.attr("values")), numbers_of(f.attr("numbers"))});
    for (auto r : c.attr("regions"))
        x.regions.push_back(RegionSpec{as_int(r.attr("region")), as_int(r.attr("fields")), as_int(r.attr("spaces")),
                                       numbers_of(r.attr("numbers")), int_list(r.attr("prices"))});
    x.faction_field_spaces = as_int(c.attr("faction_field_spaces"));
    x.starting_laurels = as_int(c.attr("starting_laurels"));
    x.min_set_size = as_int(c.attr("min_set_size"));
    x.coin_bowl_first = as_int(c.attr("coin_bowl_first"));
    x.coin_bowl_later = as_int(c.attr("coin_bowl_later"));
    x.deal = as_int(c.attr("deal"));
    x.setup_discard = as_int(c.attr("setup_discard"));
    x.starting_money = as_int(c.attr("starting_money"));
    x.starting_money_step = as_int(c.attr("starting_money_step"));
    x.followers = int_map(c.attr("followers"));
    x.hand_limit = as_int(c.attr("hand_limit"));
    for (auto pair : c.attr("set_losses")) x.set_losses.emplace_back(as_int(pair[py::int_(0)]), as_int(pair[py::int_(1)]));
    x.scoring = scoring_of(c.attr("scoring"), false);
    x.point_variant = int_map(c.attr("point_variant"));
    for (auto v : c.attr("victory_cards")) x.victory_cards.push_back(victory_card_of(v, false));
    auto e = c.attr("expansion");
    x.has_expansion = !e.is_none();
    if (x.has_expansion) read_expansion(e, x.expansion);
    return x;
}

int opt_int(const py::handle& h) { return h.is_none() ? -1 : as_int(h); }

// make_rules(config, tables): the shared Rules of every game of ``config`` (a GameConfig) with ``tables``
// (tables_for(config.components, config.expansion)).
std::shared_ptr<const Rules> make_rules(const py::object& config, const py::object& tables) {
    auto r = std::make_shared<Rules>();
    Config& c = r->config;
    c.players = as_int(config.attr("players"));
    auto vc = config.attr("victory_card");
    c.has_victory_card = !vc.is_none();
    if (c.has_victory_card) c.victory_card = as_str(vc);
    c.point_variant = py::cast<bool>(config.attr("point_variant"));
    c.round_limit = as_int(config.attr("round_limit"));
    c.auto_forced = py::cast<bool>(config.attr("auto_forced"));
    c.start_seat = opt_int(config.attr("start_seat"));
    c.expansion = py::cast<bool>(config.attr("expansion"));
    c.brutii = py::cast<bool>(config.attr("brutii"));
    c.brutii_seat = opt_int(config.attr("brutii_seat"));
    r->comps = components_of(config.attr("components"));
    r->expansion = py::cast<bool>(tables.attr("expansion"));
    r->card_faction = int_list(tables.attr("card_faction"));
    r->card_kind = int_list(tables.attr("card_kind"));
    r->card_nationality = int_list(tables.attr("card_nationality"));
    r->card_value = int_list(tables.attr("card_value"));
    r->card_copies = int_list(tables.attr("card_copies"));
    for (auto l : tables.attr("card_label")) r->card_label.push_back(as_str(l));
    for (auto f : tables.attr("faction_cards")) r->faction_cards.push_back(int_list(f));
    r->leader_card = int_list(tables.attr("leader_card"));
    for (auto s : tables.attr("slave_cards")) r->slave_cards.push_back(int_list(s));
    r->assassin_card = as_int(tables.attr("assassin_card"));
    r->regions = int_list(tables.attr("regions"));
    for (auto s : tables.attr("spaces"))
        r->spaces.push_back(SpaceSpec{as_int(s.attr("id")), as_int(s.attr("kind")), opt_int(s.attr("region")),
                                      opt_int(s.attr("faction")), as_int(s.attr("slot")), as_str(s.attr("label"))});
    for (auto s : tables.attr("region_spaces")) r->region_spaces.push_back(int_list(s));
    for (auto s : tables.attr("faction_spaces")) r->faction_spaces.push_back(int_list(s));
    r->coin_bowl = as_int(tables.attr("coin_bowl"));
    register_all();
    return r;
}

// --- the state as plain values (the fields of GameState, by their names) --------------------------------------------

// lists of ints and bools built with the C API: Core.fields() is read at every native position the Python side
// looks at (Game.position(), the greedy agent's trial moves), and pybind11's casts cost more than the values
template <class T>
py::list list_of(const std::vector<T>& v) {
    static_assert(std::is_integral_v<T>, "list_of: a list of integers");
    PyObject* out = PyList_New(static_cast<Py_ssize_t>(v.size()));
    if (out == nullptr) throw py::error_already_set();
    for (size_t i = 0; i < v.size(); i++)
        PyList_SET_ITEM(out, static_cast<Py_ssize_t>(i), PyLong_FromLongLong(static_cast<long long>(v[i])));
    return py::reinterpret_steal<py::list>(out);
}
py::list bool_list(const std::vector<uint8_t>& v) {
    PyObject* out = PyList_New(static_cast<Py_ssize_t>(v.size()));
    if (out == nullptr) throw py::error_already_set();
    for (size_t i = 0; i < v.size(); i++) PyList_SET_ITEM(out, static_cast<Py_ssize_t>(i), PyBool_FromLong(v[i] != 0));
    return py::reinterpret_steal<py::list>(out);
}
py::tuple task_tuple(const Task& t) {
    py::tuple out(1 + t.n);
    out[0] = py::str(STEP_NAMES[t.step]);
    for (int i = 0; i < t.n; i++) out[static_cast<size_t>(i + 1)] = py::int_(t.a[i]);
    return out;
}

py::dict export_state(const State& st) {
    py::dict d;
    d["victory_card"] = st.victory_card;
    d["round"] = st.round;
    d["phase"] = st.phase;
    d["start_seat"] = st.start_seat;
    d["turn_seat"] = st.turn_seat;
    py::list players;
    for (const auto& p : st.players) {
        py::dict q;
        q["money"] = p.money;
        q["laurels"] = p.laurels;
        q["legions"] = p.legions;
        q["markers"] = bool_list(p.markers);
        q["tile"] = p.tile;
        q["eternal_favor"] = p.eternal_favor;
        q["temporary_favor"] = p.temporary_favor;
        q["hand"] = list_of(p.hand);
        q["followers"] = p.followers;
        q["pantheon_seen"] = p.pantheon_seen;
        q["patrons"] = p.patrons;
        q["emperor_tiles"] = list_of(p.emperor_tiles);
        players.append(q);
    }
    d["players"] = players;
    d["controller"] = list_of(st.controller);
    py::list sets;
    for (const auto& s : st.sets) sets.append(list_of(s));
    d["sets"] = sets;
    d["first_laurel"] = bool_list(st.first_laurel);
    py::list fields;
    for (const auto& region : st.fields) {
        py::list r;
        for (const auto& f : region) r.append(list_of(f));
        fields.append(r);
    }
    d["fields"] = fields;
    d["atrium_up"] = bool_list(st.atrium_up);
    d["spaces"] = list_of(st.spaces);
    d["coin_bowl"] = list_of(st.coin_bowl);
    d["colosseum"] = st.colosseum;
    d["chariot"] = st.chariot;
    d["proconsul"] = st.proconsul;
    d["draw"] = list_of(st.draw);
    d["discard"] = list_of(st.discard);
    d["staged"] = list_of(st.staged);
    d["contest"] = list_of(st.contest);
    py::list pairs;
    for (const auto& p : st.pairs) pairs.append(py::make_tuple(p.seat, p.a, p.b));
    d["pairs"] = pairs;
    d["bids"] = list_of(st.bids);
    d["sacrificed"] = bool_list(st.sacrificed);
    if (st.has_pending)
        d["pending"] = py::make_tuple(st.pending.kind, st.pending.seat, st.pending.faction, st.pending.index);
    else
        d["pending"] = py::none();
    py::list agenda;
    for (const auto& t : st.agenda) agenda.append(task_tuple(t));
    d["agenda"] = agenda;
    d["chance"] = st.chance;
    d["clock"] = st.clock;
    d["fulfilled_since"] = list_of(st.fulfilled_since);
    py::list winners;
    for (int w : st.winners) winners.append(w);
    d["winners"] = py::tuple(winners);
    d["truncated"] = st.truncated;
    d["officials"] = list_of(st.officials);
    d["officials_chosen"] = bool_list(st.officials_chosen);
    d["emperor_pile"] = list_of(st.emperor_pile);
    d["emperor_up"] = st.emperor_up;
    d["matrona_tiles"] = list_of(st.matrona_tiles);
    d["augur_cards"] = list_of(st.augur_cards);
    d["placed_this_turn"] = st.placed_this_turn;
    d["benefit_blocked"] = bool_list(st.benefit_blocked);
    d["brutii"] = st.brutii;
    d["brutii_turns"] = st.brutii_turns;
    d["brutii_revealed"] = list_of(st.brutii_revealed);
    d["brutii_played"] = list_of(st.brutii_played);
    d["brutii_options"] = py::make_tuple(st.brutii_options[0], st.brutii_options[1]);
    d["veto"] = st.veto;
    return d;
}

py::list export_events(const State& st, size_t start) {
    py::list out;
    for (size_t i = start; i < st.events.size(); i++) {
        const Event& e = st.events[i];
        out.append(py::make_tuple(e.round, e.phase, e.seat, e.text, e.private_to));
    }
    return out;
}

std::vector<uint8_t> u8_list(const py::handle& h) {
    std::vector<uint8_t> out;
    for (auto x : h) out.push_back(py::cast<bool>(x) ? 1 : 0);
    return out;
}

int step_id(const std::string& name) {
    for (int s = 0; s < NUM_STEPS; s++)
        if (name == STEP_NAMES[s]) return s;
    throw std::invalid_argument("unknown agenda step " + name);
}

// ValueError unless ``got`` has ``want`` entries: the last guard of import_state (Python checked the values first)
template <class T>
void expect_size(const std::vector<T>& got, size_t want, const char* name) {
    if (got.size() != want)
        throw std::invalid_argument(cat(name, ": expected ", want, " entries, got ", got.size()));
}

// ValueError unless every card of ``cards`` is a card type of the game
void expect_cards(const State& st, const std::vector<int>& cards, const char* name) {
    for (int c : cards)
        if (c < 0 || c >= st.t().num_card_types()) throw std::invalid_argument(cat(name, ": no card type ", c));
}

// The shapes import_state relies on, against a new state of the same rules (a guard, not the rules' checks:
// tribune_env.engine.native.check_fields checks everything before this is reached).
void expect_shapes(const State& st) {
    const State blank(st.rules);
    expect_size(st.players, blank.players.size(), "players");
    for (const auto& p : st.players) {
        expect_size(p.hand, blank.players[0].hand.size(), "players[].hand");
        expect_size(p.markers, blank.players[0].markers.size(), "players[].markers");
    }
    expect_size(st.controller, blank.controller.size(), "controller");
    expect_size(st.sets, blank.sets.size(), "sets");
    expect_size(st.first_laurel, blank.first_laurel.size(), "first_laurel");
    expect_size(st.fields, blank.fields.size(), "fields");
    for (size_t r = 0; r < st.fields.size(); r++) {
        expect_size(st.fields[r], blank.fields[r].size(), "fields[]");
        for (const auto& f : st.fields[r]) expect_cards(st, f, "fields");
    }
    expect_size(st.atrium_up, blank.atrium_up.size(), "atrium_up");
    expect_size(st.spaces, blank.spaces.size(), "spaces");
    expect_size(st.bids, blank.bids.size(), "bids");
    expect_size(st.sacrificed, blank.sacrificed.size(), "sacrificed");
    expect_size(st.fulfilled_since, blank.fulfilled_since.size(), "fulfilled_since");
    expect_size(st.officials, blank.officials.size(), "officials");
    expect_size(st.officials_chosen, blank.officials_chosen.size(), "officials_chosen");
    expect_size(st.benefit_blocked, blank.benefit_blocked.size(), "benefit_blocked");
    for (const auto& s : st.sets) expect_cards(st, s, "sets");
    for (const auto* pile : {&st.draw, &st.discard, &st.staged, &st.contest, &st.augur_cards})
        expect_cards(st, *pile, "piles");
    for (const auto& p : st.pairs) expect_cards(st, {p.a, p.b}, "pairs");
    const int n = st.num_players();
    if (st.has_pending && (st.pending.seat < 0 || st.pending.seat >= n))
        throw std::invalid_argument(cat("pending.seat: must be in 0..", n - 1, ", got ", st.pending.seat));
}

// import_state(rules, d): the state of the plain values ``d`` (as export_state writes them, with "events").
State import_state(std::shared_ptr<const Rules> rules, const py::dict& d) {
    State st(rules);
    st.victory_card = as_str(d["victory_card"]);
    st.round = as_int(d["round"]);
    st.phase = as_int(d["phase"]);
    st.start_seat = as_int(d["start_seat"]);
    st.turn_seat = as_int(d["turn_seat"]);
    size_t i = 0;
    if (py::len(d["players"]) != st.players.size())
        throw std::invalid_argument(cat("players: expected ", st.players.size(), " entries, got ", py::len(d["players"])));
    for (auto q : d["players"]) {
        Player& p = st.players.at(i++);
        p.money = as_int(q["money"]);
        p.laurels = as_int(q["laurels"]);
        p.legions = as_int(q["legions"]);
        p.markers = u8_list(q["markers"]);
        p.tile = as_int(q["tile"]);
        p.eternal_favor = py::cast<bool>(q["eternal_favor"]);
        p.temporary_favor = py::cast<bool>(q["temporary_favor"]);
        p.hand = int_list(q["hand"]);
        p.followers = as_int(q["followers"]);
        p.pantheon_seen = py::cast<bool>(q["pantheon_seen"]);
        p.patrons = as_int(q["patrons"]);
        p.emperor_tiles = int_list(q["emperor_tiles"]);
    }
    st.controller = int_list(d["controller"]);
    st.sets.clear();
    for (auto s : d["sets"]) st.sets.push_back(int_list(s));
    st.first_laurel = u8_list(d["first_laurel"]);
    st.fields.clear();
    for (auto region : d["fields"]) {
        std::vector<std::vector<int>> r;
        for (auto f : region) r.push_back(int_list(f));
        st.fields.push_back(r);
    }
    st.atrium_up = u8_list(d["atrium_up"]);
    st.spaces = int_list(d["spaces"]);
    st.coin_bowl = int_list(d["coin_bowl"]);
    st.colosseum = as_int(d["colosseum"]);
    st.chariot = as_int(d["chariot"]);
    st.proconsul = as_int(d["proconsul"]);
    st.draw = int_list(d["draw"]);
    st.discard = int_list(d["discard"]);
    st.staged = int_list(d["staged"]);
    st.contest = int_list(d["contest"]);
    for (auto p : d["pairs"]) st.pairs.push_back(PairCards{as_int(p[py::int_(0)]), as_int(p[py::int_(1)]), as_int(p[py::int_(2)])});
    st.bids = int_list(d["bids"]);
    st.sacrificed = u8_list(d["sacrificed"]);
    auto pending = d["pending"];
    st.has_pending = !pending.is_none();
    if (st.has_pending)
        st.pending = Pending{as_int(pending[py::int_(0)]), as_int(pending[py::int_(1)]), as_int(pending[py::int_(2)]),
                             as_int(pending[py::int_(3)])};
    for (auto t : d["agenda"]) {
        auto items = py::reinterpret_borrow<py::tuple>(t);
        Task task;
        task.step = static_cast<int16_t>(step_id(as_str(items[0])));
        task.n = static_cast<int8_t>(items.size() - 1);
        if (task.n > 3) throw std::invalid_argument("agenda step with more than 3 arguments");
        for (int k = 0; k < task.n; k++) task.a[k] = as_int(items[static_cast<size_t>(k + 1)]);
        st.agenda.push_back(task);
    }
    st.chance = py::cast<uint64_t>(d["chance"]);
    st.clock = py::cast<int64_t>(d["clock"]);
    st.fulfilled_since.clear();
    for (auto x : d["fulfilled_since"]) st.fulfilled_since.push_back(py::cast<int64_t>(x));
    st.winners = int_list(d["winners"]);
    st.truncated = py::cast<bool>(d["truncated"]);
    st.officials = int_list(d["officials"]);
    st.officials_chosen = u8_list(d["officials_chosen"]);
    st.emperor_pile = int_list(d["emperor_pile"]);
    st.emperor_up = as_int(d["emperor_up"]);
    st.matrona_tiles = int_list(d["matrona_tiles"]);
    st.augur_cards = int_list(d["augur_cards"]);
    st.placed_this_turn = as_int(d["placed_this_turn"]);
    st.benefit_blocked = u8_list(d["benefit_blocked"]);
    st.brutii = as_int(d["brutii"]);
    st.brutii_turns = as_int(d["brutii_turns"]);
    st.brutii_revealed = int_list(d["brutii_revealed"]);
    st.brutii_played = int_list(d["brutii_played"]);
    auto options = int_list(d["brutii_options"]);
    st.brutii_options[0] = options.at(0);
    st.brutii_options[1] = options.at(1);
    st.veto = as_int(d["veto"]);
    if (d.contains("events"))
        for (auto e : d["events"])
            st.events.push_back(Event{as_int(e[py::int_(0)]), as_int(e[py::int_(1)]), as_int(e[py::int_(2)]),
                                      as_str(e[py::int_(3)]), as_int(e[py::int_(4)])});
    expect_shapes(st);
    return st;
}

// --- the game handle: Core (bind.hpp) -------------------------------------------------------------------------

// ValueError unless ``seat`` sits at the game
void check_seat(const Core& core, int seat) {
    if (seat < 0 || seat >= core.st.num_players())
        throw std::invalid_argument(cat("seat must be in 0..", core.st.num_players() - 1, ", got ", seat));
}

// _core.resample(core, seat, rng): determinize.py resample on a native game, drawing from the Python random.Random
// ``rng`` (its state is read, used by the core's twin of the generator and written back: the same draws in the same
// order as the Python function, so ``rng`` ends where it would have)
Core resample_core(const Core& core, int seat, const py::object& rng) {
    check_seat(core, seat);
    py::object state = rng.attr("getstate")();
    PyObject* internal = PyTuple_Check(state.ptr()) && PyTuple_GET_SIZE(state.ptr()) == 3
                             ? PyTuple_GET_ITEM(state.ptr(), 1)
                             : nullptr;
    if (internal == nullptr || !PyTuple_Check(internal) || PyTuple_GET_SIZE(internal) != PyRandom::WORDS + 1)
        throw std::invalid_argument("rng: expected a random.Random (version 3 state)");
    uint32_t words[PyRandom::WORDS];
    for (int i = 0; i < PyRandom::WORDS; i++) {  // the words as CPython keeps them (each below 2**32)
        words[i] = static_cast<uint32_t>(PyLong_AsUnsignedLong(PyTuple_GET_ITEM(internal, i)));
        if (PyErr_Occurred()) throw py::error_already_set();
    }
    const long position = PyLong_AsLong(PyTuple_GET_ITEM(internal, PyRandom::WORDS));
    if (PyErr_Occurred()) throw py::error_already_set();
    PyRandom generator(words, static_cast<int>(position));
    Core out;
    out.config = core.config;
    out.st = resample(core.st, seat, generator);
    const int index = generator.state(words);
    py::tuple next(PyRandom::WORDS + 1);
    for (int i = 0; i < PyRandom::WORDS; i++) PyTuple_SET_ITEM(next.ptr(), i, PyLong_FromUnsignedLong(words[i]));
    PyTuple_SET_ITEM(next.ptr(), PyRandom::WORDS, PyLong_FromLong(index));
    rng.attr("setstate")(py::make_tuple(py::reinterpret_borrow<py::object>(PyTuple_GET_ITEM(state.ptr(), 0)), next,
                                        py::reinterpret_borrow<py::object>(PyTuple_GET_ITEM(state.ptr(), 2))));
    return out;
}

// --- the codec (codec.cpp: tribune_env.codec's ActionCodec and ObservationEncoder); written by the codec porter ------
//
// _core.ActionCodec(components, space, bid_cap) and _core.ObservationEncoder(components, round_limit, space): built
// from the Python Components, a Space (or its name) and the Python codec's bid_cap / the config's round_limit. They
// read a Core's state directly and write into the caller's numpy buffers (no Python object per decision).

Space space_of(const py::handle& space) {
    std::string name = as_str(space);  // Space is a StrEnum: str() is its value
    if (name == "base") return Space::BASE;
    if (name == "expansion") return Space::EXPANSION;
    throw std::invalid_argument("space: expected a Space (base, expansion), got " + name);
}

py::list rows_of(const std::vector<std::tuple<std::string, int, int>>& rows) {
    py::list out;
    for (const auto& [name, start, size] : rows) out.append(py::make_tuple(name, start, size));
    return out;
}

// The caller's buffer, written in place: 1-d, C-contiguous, writeable, ``size`` entries of the given item kind
// (float32, or any one-byte integer or bool for masks). Anything else raises, never a silent converted copy.
void* buffer_of(py::array& out, py::ssize_t size, bool bytes, const char* what) {
    const auto dtype = out.dtype();
    const bool kind_ok = bytes ? dtype.itemsize() == 1 && (dtype.kind() == 'i' || dtype.kind() == 'u' || dtype.kind() == 'b')
                               : dtype.is(py::dtype::of<float>());
    if (!kind_ok || out.ndim() != 1 || out.shape(0) != size || !(out.flags() & py::array::c_style) || !out.writeable())
        throw std::invalid_argument(cat(what, ": expected a writeable contiguous 1-d array of ", static_cast<long long>(size),
                                        bytes ? " int8/uint8/bool entries" : " float32 entries"));
    return out.mutable_data();
}

void bind_codec(py::module_& m) {
    // one exception type for both codecs: the core's decoding errors are tribune_env.codec's ActionDecodeError
    py::register_exception_translator([](std::exception_ptr error) {
        try {
            if (error) std::rethrow_exception(error);
        } catch (const ActionDecodeError& e) {
            py::object cls = py::module_::import("tribune_env.codec.actions").attr("ActionDecodeError");
            PyErr_SetString(cls.ptr(), e.what());
        }
    });
    py::class_<ActionCodec, std::shared_ptr<ActionCodec>>(m, "ActionCodec")
        .def(py::init([](const py::object& components, const py::object& space, int bid_cap) {
                 return ActionCodec(components_of(components), space_of(space), bid_cap);
             }),
             py::arg("components"), py::arg("space"), py::arg("bid_cap"))
        .def_readonly("n", &ActionCodec::n)
        .def("blocks",
             [](const ActionCodec& c) {
                 std::vector<std::tuple<std::string, int, int>> rows;
                 for (const auto& b : c.blocks) rows.emplace_back(b.name, b.start, b.size);
                 return rows_of(rows);
             })
        .def("encode",
             [](const ActionCodec& c, int type, int a, int b, int seat, int num_players) {
                 return c.encode(Action{static_cast<int8_t>(type), a, b}, seat, num_players);
             })
        .def("decode",
             [](const ActionCodec& c, long long index, int seat, int num_players) {
                 Action a = c.decode(index, seat, num_players);
                 return py::make_tuple(static_cast<int>(a.type), a.a, a.b);
             })
        // the mask of ``actions`` ((type, a, b) tuples) for ``seat`` into ``out`` (int8, uint8 or bool, length n)
        .def("mask_of",
             [](const ActionCodec& c, const py::iterable& actions, int seat, int num_players,
                py::array& out) {
                 std::vector<Action> list;
                 for (auto t : actions)
                     list.push_back(Action{static_cast<int8_t>(as_int(t[py::int_(0)])), as_int(t[py::int_(1)]),
                                           as_int(t[py::int_(2)])});
                 c.mask(list.data(), static_cast<int>(list.size()), seat, num_players,
                        static_cast<uint8_t*>(buffer_of(out, c.n, true, "out")));
             },
             py::arg("actions"), py::arg("seat"), py::arg("num_players"), py::arg("out").noconvert())
        // ActionCodec.mask_game of a native game: a new int8 array, the legal mask when ``seat`` is to act, else zeros
        .def("mask_of_seat",
             [](const ActionCodec& c, Core& core, int seat) {
                 py::array_t<int8_t> row(c.n);
                 auto* out = reinterpret_cast<uint8_t*>(row.mutable_data());
                 c.seat_mask(core.st, seat, out);
                 return row;
             },
             py::arg("core"), py::arg("seat"))
        // the mask of the pending decision of ``core`` for its deciding seat into ``out``; returns that seat (-1: none)
        .def("mask",
             [](const ActionCodec& c, Core& core, py::array& out) {
                 return c.legal_mask(core.st, static_cast<uint8_t*>(buffer_of(out, c.n, true, "out")));
             },
             py::arg("core"), py::arg("out").noconvert())
        .def("legal_indices", [](const ActionCodec& c, Core& core) {
            const auto& legal = legal_actions(core.st);
            std::vector<int32_t> out(legal.size());
            int seat = core.st.has_pending ? core.st.pending.seat : 0;
            out.resize(static_cast<size_t>(
                c.indices(legal.data(), static_cast<int>(legal.size()), seat, core.st.num_players(), out.data())));
            return out;
        });
    py::class_<ObservationEncoder, std::shared_ptr<ObservationEncoder>>(m, "ObservationEncoder")
        .def(py::init([](const py::object& components, int round_limit, const py::object& space) {
                 return ObservationEncoder(components_of(components), round_limit, space_of(space));
             }),
             py::arg("components"), py::arg("round_limit"), py::arg("space"))
        .def_readonly("size", &ObservationEncoder::size)
        // (name, start, size) of every piece, then of every per-player field of slot 0 (layout_rows without meanings)
        .def("layout",
             [](const ObservationEncoder& e) {
                 std::vector<std::tuple<std::string, int, int>> rows;
                 for (const auto& p : e.pieces) rows.emplace_back(p.name, p.start, p.size);
                 for (const auto& p : e.player_fields)
                     rows.emplace_back("players[0]." + p.name, e.player_offsets[0] + p.start, p.size);
                 return rows_of(rows);
             })
        .def("high", [](const ObservationEncoder& e) {
            return py::array_t<float>(static_cast<py::ssize_t>(e.high.size()), e.high.data());
        })
        // the observation of ``seat`` into ``out`` (float32, length size), or a new array without ``out``
        .def("encode",
             [](const ObservationEncoder& e, const Core& core, int seat, std::optional<py::array> out) {
                 check_seat(core, seat);
                 py::array row = out ? *out : py::array(py::array_t<float>(e.size));
                 e.encode(core.st, seat, static_cast<float*>(buffer_of(row, e.size, false, "out")));
                 return row;
             },
             py::arg("core"), py::arg("seat"), py::arg("out").noconvert() = py::none())
        .def("encode_into",
             [](const ObservationEncoder& e, const Core& core, int seat, py::array& out) {
                 check_seat(core, seat);
                 e.encode(core.st, seat, static_cast<float*>(buffer_of(out, e.size, false, "out")));
             });
    // tribune_env.codec.observe_game on a native game: the observation of ``seat`` and the legal mask when ``seat``
    // is to act (else zeros), written into ``obs`` and ``mask`` where given, new arrays where not; (obs, mask)
    m.def(
        "observe",
        [](const ObservationEncoder& e, const ActionCodec& c, Core& core, int seat, std::optional<py::array> obs,
           std::optional<py::array> mask) {
            check_seat(core, seat);
            py::array o = obs ? *obs : py::array(py::array_t<float>(e.size));
            py::array m = mask ? *mask : py::array(py::array_t<int8_t>(c.n));
            e.encode(core.st, seat, static_cast<float*>(buffer_of(o, e.size, false, "obs")));
            c.seat_mask(core.st, seat, static_cast<uint8_t*>(buffer_of(m, c.n, true, "mask")));
            return py::make_tuple(std::move(o), std::move(m));
        },
        py::arg("encoder"), py::arg("codec"), py::arg("core"), py::arg("seat"), py::arg("obs").noconvert() = py::none(),
        py::arg("mask").noconvert() = py::none());
}

// --- the batch (batch.hpp): many games in one call, rows written into numpy arrays ---------------------------------

// A pool is shared safely: every call that reads or writes the games holds ``mutex`` (taken with the GIL released,
// so a thread waiting for it never blocks the one running); stepping before the first reset raises.
struct PyBatch {
    Batch batch;
    std::mutex mutex;
    bool dealt = false;  // reset has run: the games exist
    py::array_t<float, py::array::c_style> obs;
    py::array_t<uint8_t, py::array::c_style> mask;
    py::array_t<int32_t, py::array::c_style> seat;
    py::array_t<float, py::array::c_style> reward;
    py::array_t<uint8_t, py::array::c_style> done, illegal;

    PyBatch(std::shared_ptr<const Rules> rules, std::shared_ptr<ActionCodec> codec,
            std::shared_ptr<ObservationEncoder> encoder, int n, int threads)
        : batch(std::move(rules), std::move(codec), std::move(encoder), n, threads),
          obs({static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(batch.encoder->size)}),
          mask({static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(batch.codec->n)}),
          seat(static_cast<py::ssize_t>(n)),
          reward({static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(batch.reward_width())}),
          done(static_cast<py::ssize_t>(n)),
          illegal(static_cast<py::ssize_t>(n)) {
        // zeros until the first reset (the rows of no game)
        std::memset(obs.mutable_data(), 0, static_cast<size_t>(obs.nbytes()));
        std::memset(mask.mutable_data(), 0, static_cast<size_t>(mask.nbytes()));
        std::memset(reward.mutable_data(), 0, static_cast<size_t>(reward.nbytes()));
        std::memset(done.mutable_data(), 0, static_cast<size_t>(done.nbytes()));
        std::memset(illegal.mutable_data(), 0, static_cast<size_t>(illegal.nbytes()));
        std::fill(seat.mutable_data(), seat.mutable_data() + n, -1);
    }

    BatchOut out() {
        return BatchOut{obs.mutable_data(), mask.mutable_data(), seat.mutable_data(), reward.mutable_data(),
                        done.mutable_data(), illegal.mutable_data()};
    }
};

void bind_batch(py::module_& m) {
    py::class_<PyBatch>(m, "Batch")
        .def(py::init([](std::shared_ptr<Rules> rules, std::shared_ptr<ActionCodec> codec,
                         std::shared_ptr<ObservationEncoder> encoder, int n, int threads) {
                 return std::make_unique<PyBatch>(rules, codec, encoder, n, threads);
             }),
             py::arg("rules"), py::arg("codec"), py::arg("encoder"), py::arg("n"), py::arg("threads") = 1)
        .def_property_readonly("n", [](const PyBatch& b) { return b.batch.size(); })
        .def_readonly("obs", &PyBatch::obs)
        .def_readonly("mask", &PyBatch::mask)
        .def_readonly("seat", &PyBatch::seat)
        .def_readonly("reward", &PyBatch::reward)
        .def_readonly("done", &PyBatch::done)
        .def_readonly("illegal", &PyBatch::illegal)
        .def("reset",
             [](PyBatch& b, py::array_t<uint64_t, py::array::c_style | py::array::forcecast> seeds) {
                 const uint64_t* data = rows_of_array(seeds, b.batch.size(), 0, "seeds");
                 BatchOut out = b.out();
                 py::gil_scoped_release release;
                 std::lock_guard<std::mutex> lock(b.mutex);
                 b.batch.reset(data, out);
                 b.dealt = true;
             })
        .def("step",
             [](PyBatch& b, py::array_t<int32_t, py::array::c_style | py::array::forcecast> actions) {
                 const int32_t* data = rows_of_array(actions, b.batch.size(), 0, "actions");
                 BatchOut out = b.out();
                 py::gil_scoped_release release;
                 std::lock_guard<std::mutex> lock(b.mutex);
                 if (!b.dealt) throw std::logic_error("Batch.step: no games yet; call reset first");
                 b.batch.step(data, out);
             })
        .def("step_random",
             [](PyBatch& b, int steps) {
                 BatchOut out = b.out();
                 py::gil_scoped_release release;
                 std::lock_guard<std::mutex> lock(b.mutex);
                 if (!b.dealt) throw std::logic_error("Batch.step_random: no games yet; call reset first");
                 for (int k = 0; k < steps; k++) b.batch.step_random(out);
             },
             py::arg("steps") = 1)
        .def_property_readonly("dealt", [](const PyBatch& b) { return b.dealt; })
        .def("episode_seeds",
             [](PyBatch& b) {
                 std::vector<uint64_t> out;
                 {
                     py::gil_scoped_release release;
                     std::lock_guard<std::mutex> lock(b.mutex);
                     out = b.batch.seeds;
                 }
                 return out;
             })
        .def("episodes",
             [](PyBatch& b) {
                 std::vector<uint64_t> out;
                 {
                     py::gil_scoped_release release;
                     std::lock_guard<std::mutex> lock(b.mutex);
                     out = b.batch.episodes;
                 }
                 return out;
             })
        .def("core",
             [](PyBatch& b, int i, py::object config) {
                 if (i < 0 || i >= b.batch.size())
                     throw py::index_error(cat("game index must be in 0..", b.batch.size() - 1, ", got ", i));
                 Core c;
                 c.config = config;
                 {
                     py::gil_scoped_release release;
                     std::lock_guard<std::mutex> lock(b.mutex);
                     if (!b.dealt) throw std::logic_error("Batch.core: no games yet; call reset first");
                     c.st = b.batch.games[static_cast<size_t>(i)];
                 }
                 return c;
             });
}


// zero's playouts: bind_playouts (zero_kernels.cpp)

}  // namespace

// random_games(rules, games, seed, logging): play ``games`` games with uniformly random legal choices entirely in
// C++ (game g: seed + g; choices from PyRandom(seed)); returns the number of decisions taken (the engine's speed).
int64_t random_games(std::shared_ptr<const Rules> rules, int games, uint64_t seed, bool logging) {
    PyRandom rng(seed);
    int64_t decisions = 0;
    for (int g = 0; g < games; g++) {
        State st = new_state(rules, seed + static_cast<uint64_t>(g));
        st.logging = logging;
        advance(st);
        while (st.has_pending) {
            const auto& legal = legal_actions(st);
            Action a = legal[rng.randbelow(legal.size())];
            apply_action(st, a);
            decisions++;
        }
    }
    return decisions;
}

PYBIND11_MODULE(_core, m) {
    m.doc() = "The native core of the Tribune engine (C++); tribune_env.engine.native is its Python side.";
    py::class_<Rules, std::shared_ptr<Rules>>(m, "Rules");
    m.def("make_rules", [](const py::object& config, const py::object& tables) {
        return std::const_pointer_cast<Rules>(make_rules(config, tables));
    });
    bind_batch(m);
    // CPython's random.Random as the core draws it (pyrandom.hpp), for the tests: the seed's generator's
    // getrandbits(63), a shuffle of range(n), sample(range(n), k) and randrange(n), in this order.
    m.def("random_draws", [](uint64_t seed, int n, int k) {
        PyRandom rng(seed);
        uint64_t bits = rng.getrandbits(63);
        std::vector<int> deck(static_cast<size_t>(n));
        for (int i = 0; i < n; i++) deck[static_cast<size_t>(i)] = i;
        rng.shuffle(deck);
        std::vector<int> pool(static_cast<size_t>(n));
        for (int i = 0; i < n; i++) pool[static_cast<size_t>(i)] = i;
        auto picked = rng.sample(pool, static_cast<size_t>(k));
        int64_t below = rng.randrange(n);
        return py::make_tuple(bits, deck, picked, below);
    });
    m.def(
        "random_games",
        [](std::shared_ptr<Rules> rules, int games, uint64_t seed, bool logging) {
            py::gil_scoped_release release;
            return random_games(rules, games, seed, logging);
        },
        py::arg("rules"), py::arg("games"), py::arg("seed") = 0, py::arg("logging") = false);
    m.attr("STEP_NAMES") = [] {
        py::list names;
        for (int s = 0; s < NUM_STEPS; s++) names.append(STEP_NAMES[s]);
        return names;
    }();
    // the core's enums by their Python names, each the keys of its members in value order (core.hpp, registry.cpp):
    // tests/native/test_seam_lists.py compares them, STEP_NAMES and fields() with the Python engine's
    m.attr("ENUMS") = [] {
        py::dict enums;
        auto add = [&](const char* name, const char* const* keys, int n) {
            py::list out;
            for (int i = 0; i < n; i++) out.append(keys[i]);
            enums[name] = out;
        };
        add("Faction", FACTION_KEYS, NUM_FACTIONS);
        add("Region", REGION_KEYS, NUM_REGIONS);
        add("Nationality", NATIONALITY_KEYS, NUM_NATIONALITIES);
        add("Official", OFFICIAL_KEYS, NUM_OFFICIALS);
        add("BrutiiCard", BRUTII_CARD_KEYS, NUM_BRUTII_CARDS);
        add("BrutiiDisc", BRUTII_DISC_KEYS, NUM_BRUTII_DISCS);
        add("Requirement", REQUIREMENT_KEYS, NUM_REQUIREMENTS);
        add("Phase", PHASE_KEYS, NUM_PHASES);
        add("DecisionKind", KIND_KEYS, NUM_KINDS);
        add("ActionType", ACTION_TYPE_NAMES, NUM_ACTION_TYPES);
        return enums;
    }();
    py::class_<Core>(m, "Core")
        .def_static("new",
                    [](std::shared_ptr<Rules> rules, py::object config, uint64_t seed) {
                        Core c;
                        c.config = config;
                        c.st = new_state(rules, seed);
                        advance(c.st);
                        return c;
                    })
        .def_static("new_unadvanced",
                    [](std::shared_ptr<Rules> rules, py::object config, uint64_t seed) {
                        Core c;
                        c.config = config;
                        c.st = new_state(rules, seed);
                        return c;
                    })
        // the game of plain values ``d`` (as fields() writes them, with "events"); checked first by
        // tribune_env.engine.native.check_fields (InvalidStateError names a bad field) unless ``check`` is false
        // (the caller checked the state it came from: native.core_of)
        .def_static("from_fields",
                    [](std::shared_ptr<Rules> rules, py::object config, const py::dict& d, bool check) {
                        if (check) py::module_::import("tribune_env.engine.native").attr("check_fields")(config, d);
                        Core c;
                        c.config = config;
                        c.st = import_state(rules, d);
                        return c;
                    },
                    py::arg("rules"), py::arg("config"), py::arg("fields"), py::kw_only(), py::arg("check") = true)
        .def("resample", &resample_core, py::arg("seat"), py::arg("rng"))
        .def("clone",
             [](const Core& self, bool events) {
                 Core c;
                 c.config = self.config;
                 if (events) {
                     c.st = self.st;
                 } else {  // the copy's log is empty; the original log is put back at once
                     State& source = const_cast<State&>(self.st);
                     std::vector<Event> log;
                     log.swap(source.events);
                     c.st = source;
                     source.events.swap(log);
                 }
                 return c;
             },
             py::arg("events") = true)
        .def_readonly("config", &Core::config)
        .def("pending", &Core::pending)
        .def("legal", &Core::legal)
        .def("apply", &Core::apply)
        .def("advance", [](Core& self) { advance(self.st); })
        // apply every decision that has a single legal choice (those the engine asks anyway), up to a real choice
        .def("advance_forced",
             [](Core& self) {
                 while (self.st.has_pending) {
                     const auto& legal = legal_actions(self.st);
                     if (legal.size() != 1) break;
                     Action only = legal[0];
                     apply_action(self.st, only);
                 }
             })
        .def("num_legal", [](Core& self) { return legal_actions(self.st).size(); })
        .def("fields", [](const Core& self) { return export_state(self.st); })
        .def("events", [](const Core& self, size_t start) { return export_events(self.st, start); },
             py::arg("start") = 0)
        .def_property_readonly("num_events", [](const Core& self) { return self.st.events.size(); })
        .def_property("logging", [](const Core& self) { return self.st.logging; },
                      [](Core& self, bool on) { self.st.logging = on; })
        .def_property_readonly("round", [](const Core& self) { return self.st.round; })
        .def_property_readonly("phase", [](const Core& self) { return self.st.phase; })
        .def_property_readonly("finished", [](const Core& self) { return self.st.finished(); })
        .def_property_readonly("truncated", [](const Core& self) { return self.st.truncated; })
        .def_property_readonly("brutii", [](const Core& self) { return self.st.brutii; })
        .def_property_readonly("winners", [](const Core& self) { return self.st.winners; })
        .def_property_readonly("current_seat",
                               [](const Core& self) { return self.st.has_pending ? self.st.pending.seat : -1; })
        .def("scores", [](const Core& self) { return scores(self.st); })
        .def("ranks", [](const Core& self) { return ranks(self.st); })
        .def("card_counts", [](const Core& self) { return self.st.card_counts(); })
        // what one seat may know (view.cpp), and the state's clock (moves on with every engine step)
        .def("view", [](const Core& self, int seat) { return view_fields(self.st, seat); }, py::arg("seat"))
        .def_property_readonly("clock", [](const Core& self) { return self.st.clock; });
    bind_codec(m);  // the codec block (codec.cpp) above
    bind_playouts(m);  // zero's playouts (zero_kernels.cpp)
}
