// What one player may know, read straight from the core: engine/view.py view_data without a Python copy of the
// position. The Python side (PlayerView on a native game, tribune_env/engine/view.py) turns the tuple into a
// ViewData; tests/engine/test_view_native.py checks that the two engines give equal views of every seat.
#include <pybind11/pybind11.h>

#include "codec.hpp"

namespace py = pybind11;

namespace tribune {

namespace {

py::tuple ints(const std::vector<int>& v) {
    py::tuple out(v.size());
    for (size_t i = 0; i < v.size(); i++) out[i] = py::int_(v[i]);
    return out;
}

py::tuple bools(const std::vector<uint8_t>& v) {
    py::tuple out(v.size());
    for (size_t i = 0; i < v.size(); i++) out[i] = py::bool_(v[i] != 0);
    return out;
}

py::tuple hidden(size_t n) {  // (HIDDEN,) * n
    py::tuple out(n);
    for (size_t i = 0; i < n; i++) out[i] = py::int_(-1);
    return out;
}

// PublicPlayer's fields, in their order (view.py view_data's ``players``)
py::tuple public_player(const State& st, int s) {
    const Player& p = st.players[static_cast<size_t>(s)];
    const auto since = st.fulfilled_since[static_cast<size_t>(s)];
    return py::make_tuple(p.money, p.laurels, p.legions, bools(p.markers), p.tile, p.eternal_favor,
                          p.temporary_favor, public_hand_size(st, s), p.followers, py::int_(since), p.patrons,
                          ints(p.emperor_tiles));
}

// the board as ``seat`` sees it: [region][field] -> cards, HIDDEN per card of a field it may not see (R1)
py::tuple board_of(const State& st, int seat) {
    py::tuple board(st.fields.size());
    for (size_t r = 0; r < st.fields.size(); r++) {
        const auto& region = st.fields[r];
        py::tuple out(region.size());
        for (size_t i = 0; i < region.size(); i++) {
            const auto& cards = region[i];
            bool seen = field_visible(st, seat, static_cast<int>(r), static_cast<int>(i));
            out[i] = seen ? ints(cards) : hidden(cards.size());
        }
        board[r] = out;
    }
    return board;
}

// the expansion fields of ViewData (view.py _expansion_view), its defaults in a base game
void expansion_fields(const State& st, int seat, py::list& out) {
    if (!st.config().expansion) {
        for (auto item : {py::object(py::bool_(false)), py::object(py::tuple()), py::object(py::tuple()),
                          py::object(py::int_(-1)), py::object(py::int_(0)), py::object(py::tuple()),
                          py::object(py::tuple()), py::object(py::int_(0)), py::object(py::tuple()),
                          py::object(py::int_(-1)), py::object(py::int_(0)), py::object(py::tuple()),
                          py::object(py::tuple()), py::object(py::tuple()), py::object(py::int_(-1))})
            out.append(item);
        return;
    }
    bool augur = st.officials.size() > AUGUR && st.officials[AUGUR] == seat;
    out.append(py::bool_(true));
    out.append(ints(st.officials));
    out.append(bools(st.officials_chosen));
    out.append(st.emperor_up);
    out.append(st.emperor_pile.size());
    out.append(ints(st.matrona_tiles));
    out.append(augur ? ints(st.augur_cards) : hidden(st.augur_cards.size()));
    out.append(st.placed_this_turn);
    out.append(bools(st.benefit_blocked));
    out.append(st.brutii);
    out.append(st.brutii_turns);
    out.append(ints(st.brutii_revealed));
    out.append(ints(st.brutii_played));
    out.append(py::make_tuple(st.brutii_options[0], st.brutii_options[1]));
    out.append(st.veto);
}

}  // namespace

// view.py view_data(state, seat): ViewData's fields in their order, with ``phase`` an int, ``pending`` a
// (kind, seat, faction, index) tuple or None and each player a tuple of PublicPlayer's fields.
py::tuple view_fields(const State& st, int seat) {
    if (seat < 0 || seat >= st.num_players())
        throw std::invalid_argument(cat("seat must be in 0..", st.num_players() - 1, ", got ", seat));
    const int n = st.num_players();
    py::tuple players(static_cast<size_t>(n));
    for (int s = 0; s < n; s++) players[static_cast<size_t>(s)] = public_player(st, s);
    py::object pending = py::none();
    if (st.has_pending)
        pending = py::make_tuple(st.pending.kind, st.pending.seat, st.pending.faction, st.pending.index);
    py::tuple sets(st.sets.size());
    for (size_t f = 0; f < st.sets.size(); f++) sets[f] = ints(st.sets[f]);
    const bool own_staging = st.has_pending && st.pending.seat == seat;
    py::list pairs;
    for (const auto& p : st.pairs)
        if (p.seat == seat) pairs.append(py::make_tuple(p.a, p.b));
    py::list out;
    out.append(seat);
    out.append(n);
    out.append(st.round);
    out.append(st.phase);
    out.append(st.start_seat);
    out.append(st.turn_seat);
    out.append(pending);
    out.append(py::str(st.victory_card));
    out.append(py::bool_(st.config().point_variant));
    out.append(players);
    out.append(ints(st.players[static_cast<size_t>(seat)].hand));
    out.append(ints(st.controller));
    out.append(sets);
    out.append(bools(st.first_laurel));
    out.append(board_of(st, seat));
    out.append(ints(st.spaces));
    out.append(ints(st.coin_bowl));
    out.append(st.colosseum);
    out.append(st.chariot);
    out.append(st.proconsul);
    out.append(st.draw.size());
    out.append(st.discard.size());
    out.append(own_staging ? ints(st.staged) : hidden(st.staged.size()));
    out.append(ints(st.contest));
    out.append(py::tuple(pairs));
    out.append(st.bids.at(static_cast<size_t>(seat)));
    out.append(bools(st.sacrificed));
    out.append(py::bool_(st.truncated));
    out.append(ints(st.winners));
    expansion_fields(st, seat, out);
    return py::tuple(out);
}

}  // namespace tribune
