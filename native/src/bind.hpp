// The pieces the Python module's sources share (bind.cpp, zero_kernels.cpp): the game handle ``Core`` that
// tribune_env._core.Core wraps, the check of a caller's numpy rows, and the binding functions of the other sources.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>

#include "engine.hpp"

namespace tribune {

namespace py = pybind11;

// One game: its state and the Python GameConfig it was made from (tribune_env._core.Core).
class Core {
   public:
    State st;
    py::object config;  // the Python GameConfig of the game

    py::object pending() const {
        if (!st.has_pending) return py::none();
        return py::make_tuple(st.pending.kind, st.pending.seat, st.pending.faction, st.pending.index);
    }
    py::list legal() {
        py::list out;
        for (const auto& a : legal_actions(st)) out.append(py::make_tuple(a.type, a.a, a.b));
        return out;
    }
    bool apply(int type, int a, int b) {
        Action action{static_cast<int8_t>(type), a, b};
        return apply_action(st, action);
    }
};

// The data of ``a`` if it has ``rows`` rows (of ``cols`` entries; 0: a 1-d array), else ValueError naming ``what``.
template <class T, int F>
T* rows_of_array(py::array_t<T, F>& a, py::ssize_t rows, py::ssize_t cols, const char* what) {
    bool ok = cols ? (a.ndim() == 2 && a.shape(0) == rows && a.shape(1) == cols) : (a.ndim() == 1 && a.shape(0) == rows);
    if (!ok)
        throw std::invalid_argument(cat(what, ": expected a contiguous array of shape (", static_cast<long long>(rows),
                                        cols ? cat(", ", static_cast<long long>(cols)) : std::string(","), ")"));
    return a.mutable_data();
}

// zero's playout kernels: playout_first_layer, playout_step, playout_forced (zero_kernels.cpp)
void bind_playouts(py::module_& m);

}  // namespace tribune
