// What one player may know, read straight from the core: engine/view.py view_data without a Python copy of the
// position. The Python side (PlayerView on a native game, tribune_env/engine/view.py) turns the tuple into a
// ViewData; tests/engine/test_view_native.py checks that the two engines give equal views of every seat.
#include <pybind11/pybind11.h>

#include <initializer_list>

#include "codec.hpp"

namespace py = pybind11;

namespace tribune {

namespace {

// New references built with the C API (a view is read once per decision: pybind11's casts cost more than the
// values); each helper returns a new reference, stolen by the tuple or list it is put in.
PyObject* int_(long v) { return PyLong_FromLong(v); }
PyObject* bool_(bool v) { return PyBool_FromLong(v ? 1 : 0); }

PyObject* ints(const std::vector<int>& v) {
    PyObject* out = PyTuple_New(static_cast<Py_ssize_t>(v.size()));
    for (size_t i = 0; i < v.size(); i++) PyTuple_SET_ITEM(out, static_cast<Py_ssize_t>(i), int_(v[i]));
    return out;
}

PyObject* bools(const std::vector<uint8_t>& v) {
    PyObject* out = PyTuple_New(static_cast<Py_ssize_t>(v.size()));
    for (size_t i = 0; i < v.size(); i++) PyTuple_SET_ITEM(out, static_cast<Py_ssize_t>(i), bool_(v[i] != 0));
    return out;
}

PyObject* hidden(size_t n) {  // (HIDDEN,) * n
    PyObject* out = PyTuple_New(static_cast<Py_ssize_t>(n));
    for (size_t i = 0; i < n; i++) PyTuple_SET_ITEM(out, static_cast<Py_ssize_t>(i), int_(-1));
    return out;
}

PyObject* tuple_of(std::initializer_list<PyObject*> items) {
    PyObject* out = PyTuple_New(static_cast<Py_ssize_t>(items.size()));
    Py_ssize_t i = 0;
    for (PyObject* item : items) PyTuple_SET_ITEM(out, i++, item);
    return out;
}

// PublicPlayer's fields, in their order (view.py view_data's ``players``)
PyObject* public_player(const State& st, int s) {
    const Player& p = st.players[static_cast<size_t>(s)];
    const auto since = st.fulfilled_since[static_cast<size_t>(s)];
    return tuple_of({int_(p.money), int_(p.laurels), int_(p.legions), bools(p.markers), int_(p.tile),
                     bool_(p.eternal_favor), bool_(p.temporary_favor), int_(public_hand_size(st, s)),
                     int_(p.followers), PyLong_FromLongLong(since), int_(p.patrons), ints(p.emperor_tiles)});
}

// the board as ``seat`` sees it: [region][field] -> cards, HIDDEN per card of a field it may not see (R1)
PyObject* board_of(const State& st, int seat) {
    PyObject* board = PyTuple_New(static_cast<Py_ssize_t>(st.fields.size()));
    for (size_t r = 0; r < st.fields.size(); r++) {
        const auto& region = st.fields[r];
        PyObject* out = PyTuple_New(static_cast<Py_ssize_t>(region.size()));
        for (size_t i = 0; i < region.size(); i++) {
            const auto& cards = region[i];
            bool seen = field_visible(st, seat, static_cast<int>(r), static_cast<int>(i));
            PyTuple_SET_ITEM(out, static_cast<Py_ssize_t>(i), seen ? ints(cards) : hidden(cards.size()));
        }
        PyTuple_SET_ITEM(board, static_cast<Py_ssize_t>(r), out);
    }
    return board;
}

void append(PyObject* list, PyObject* item) {  // steals ``item``
    PyList_Append(list, item);
    Py_DECREF(item);
}

// the expansion fields of ViewData (view.py _expansion_view), its defaults in a base game
void expansion_fields(const State& st, int seat, PyObject* out) {
    if (!st.config().expansion) {
        for (PyObject* item : {bool_(false), PyTuple_New(0), PyTuple_New(0), int_(-1), int_(0), PyTuple_New(0),
                               PyTuple_New(0), int_(0), PyTuple_New(0), int_(-1), int_(0), PyTuple_New(0),
                               PyTuple_New(0), PyTuple_New(0), int_(-1)})
            append(out, item);
        return;
    }
    bool augur = st.officials.size() > AUGUR && st.officials[AUGUR] == seat;
    append(out, bool_(true));
    append(out, ints(st.officials));
    append(out, bools(st.officials_chosen));
    append(out, int_(st.emperor_up));
    append(out, int_(static_cast<long>(st.emperor_pile.size())));
    append(out, ints(st.matrona_tiles));
    append(out, augur ? ints(st.augur_cards) : hidden(st.augur_cards.size()));
    append(out, int_(st.placed_this_turn));
    append(out, bools(st.benefit_blocked));
    append(out, int_(st.brutii));
    append(out, int_(st.brutii_turns));
    append(out, ints(st.brutii_revealed));
    append(out, ints(st.brutii_played));
    append(out, tuple_of({int_(st.brutii_options[0]), int_(st.brutii_options[1])}));
    append(out, int_(st.veto));
}

}  // namespace

// view.py view_data(state, seat): ViewData's fields in their order, as a list (the Python side replaces three of
// them), with ``phase`` an int, ``pending`` a (kind, seat, faction, index) tuple or None and each player a tuple
// of PublicPlayer's fields.
py::list view_fields(const State& st, int seat) {
    if (seat < 0 || seat >= st.num_players())
        throw std::invalid_argument(cat("seat must be in 0..", st.num_players() - 1, ", got ", seat));
    const int n = st.num_players();
    const int my_bid = st.bids.at(static_cast<size_t>(seat));  // before anything is allocated: it may throw
    PyObject* out = PyList_New(0);
    PyObject* players = PyTuple_New(n);
    for (int s = 0; s < n; s++) PyTuple_SET_ITEM(players, s, public_player(st, s));
    PyObject* pending = Py_None;
    Py_INCREF(pending);
    if (st.has_pending) {
        Py_DECREF(pending);
        pending = tuple_of({int_(st.pending.kind), int_(st.pending.seat), int_(st.pending.faction),
                            int_(st.pending.index)});
    }
    PyObject* sets = PyTuple_New(static_cast<Py_ssize_t>(st.sets.size()));
    for (size_t f = 0; f < st.sets.size(); f++) PyTuple_SET_ITEM(sets, static_cast<Py_ssize_t>(f), ints(st.sets[f]));
    const bool own_staging = st.has_pending && st.pending.seat == seat;
    PyObject* pairs = PyList_New(0);
    for (const auto& p : st.pairs)
        if (p.seat == seat) append(pairs, tuple_of({int_(p.a), int_(p.b)}));
    append(out, int_(seat));
    append(out, int_(n));
    append(out, int_(st.round));
    append(out, int_(st.phase));
    append(out, int_(st.start_seat));
    append(out, int_(st.turn_seat));
    append(out, pending);
    append(out, PyUnicode_FromStringAndSize(st.victory_card.data(), static_cast<Py_ssize_t>(st.victory_card.size())));
    append(out, bool_(st.config().point_variant));
    append(out, players);
    append(out, ints(st.players[static_cast<size_t>(seat)].hand));
    append(out, ints(st.controller));
    append(out, sets);
    append(out, bools(st.first_laurel));
    append(out, board_of(st, seat));
    append(out, ints(st.spaces));
    append(out, ints(st.coin_bowl));
    append(out, int_(st.colosseum));
    append(out, int_(st.chariot));
    append(out, int_(st.proconsul));
    append(out, int_(static_cast<long>(st.draw.size())));
    append(out, int_(static_cast<long>(st.discard.size())));
    append(out, own_staging ? ints(st.staged) : hidden(st.staged.size()));
    append(out, ints(st.contest));
    append(out, PyList_AsTuple(pairs));
    Py_DECREF(pairs);
    append(out, int_(my_bid));
    append(out, bools(st.sacrificed));
    append(out, bool_(st.truncated));
    append(out, ints(st.winners));
    expansion_fields(st, seat, out);
    return py::reinterpret_steal<py::list>(out);
}

}  // namespace tribune
