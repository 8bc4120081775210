// zero's playout kernels (agents/zero.py play_out and leaf_values), bound as tribune_env._core.playout_first_layer,
// playout_step and playout_forced: many games' network inputs and steps per call, on the native games (Core) the
// Python module holds. Moved out of bind.cpp unchanged (issue 41).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <vector>

#include "bind.hpp"
#include "codec.hpp"

namespace tribune {

namespace {

// --- zero's playouts (agents/zero.py play_out and leaf_values): many games' network inputs and steps per call ------
//
// playout_first_layer(encoder, cores, seats, weight_t, out): the observation of seats[i] (the seat to act when seats
// is None) in cores[i], times the network's first weight matrix, into out[i]: out[i] = sum over the nonzero entries
// j of the observation, in increasing j, of obs[j] * weight_t[j] (float32 products and sums, the first product
// written, the next ones added; zeros for an all-zero row). The bias and the activation are the caller's.
// agents/zero.py first_layer is the same sum in numpy, bit for bit (tests/native/test_zero_native.py).
// playout_step(codec, cores, logits): in every unfinished game, the legal action with the highest logits[i] entry
// (the first of equals in legal order; the first legal action when the codec expresses none), then every decision
// with a single legal choice; returns the finished flags (uint8).
// playout_forced(cores): the forced decisions of every game; returns the finished flags.

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__GLIBC__)  // ifunc: glibc
#define TRIBUNE_NO_CONTRACT __attribute__((optimize("O3", "fp-contract=off"), target_clones("avx2", "default")))
#elif defined(__GNUC__) && !defined(__clang__)
#define TRIBUNE_NO_CONTRACT __attribute__((optimize("O3", "fp-contract=off")))
#else
#define TRIBUNE_NO_CONTRACT
#endif

// Vectorised over the hidden units (each unit's sum keeps its order, so the width changes nothing); no fused
// multiply-add, so every product is rounded to float32 before it is added, as numpy does.
TRIBUNE_NO_CONTRACT
void sparse_rows_sum(const float* __restrict x, int size, const float* __restrict weight_t, int hidden,
                     float* __restrict out) {
#if defined(__clang__)
#pragma clang fp contract(off)
#endif
    bool first = true;
    for (int j = 0; j < size; j++) {
        const float v = x[j];
        if (v == 0.0f) continue;
        const float* __restrict w = weight_t + static_cast<size_t>(j) * static_cast<size_t>(hidden);
        if (first) {
            for (int k = 0; k < hidden; k++) out[k] = v * w[k];
            first = false;
        } else {
            for (int k = 0; k < hidden; k++) out[k] += v * w[k];
        }
    }
    if (first)
        for (int k = 0; k < hidden; k++) out[k] = 0.0f;
}

void advance_forced(State& st) {
    while (st.has_pending) {
        const auto& legal = legal_actions(st);
        if (legal.size() != 1) break;
        Action only = legal[0];
        apply_action(st, only);
    }
}

std::vector<Core*> cores_of(const py::list& cores) {
    std::vector<Core*> out;
    out.reserve(cores.size());
    for (auto item : cores) out.push_back(&py::cast<Core&>(item));
    return out;
}

py::array_t<uint8_t> finished_flags(const std::vector<Core*>& cores) {
    py::array_t<uint8_t> flags(static_cast<py::ssize_t>(cores.size()));
    auto* f = flags.mutable_data();
    for (size_t i = 0; i < cores.size(); i++) f[i] = cores[i]->st.finished() ? 1 : 0;
    return flags;
}

}  // namespace

void bind_playouts(py::module_& m) {
    m.def(
        "playout_first_layer",
        [](const ObservationEncoder& e, const py::list& cores, std::optional<std::vector<int>> seats,
           py::array_t<float, py::array::c_style>& weight_t, py::array_t<float, py::array::c_style>& out) {
            auto list = cores_of(cores);
            const auto rows = static_cast<py::ssize_t>(list.size());
            if (seats && seats->size() != list.size())
                throw std::invalid_argument("seats: expected one seat per core");
            if (weight_t.ndim() != 2 || weight_t.shape(0) != e.size)
                throw std::invalid_argument(cat("weight_t: expected shape (", e.size, ", hidden)"));
            const int hidden = static_cast<int>(weight_t.shape(1));
            float* dst = rows_of_array(out, rows, hidden, "out");
            const float* w = weight_t.data();
            std::vector<float> obs(static_cast<size_t>(e.size));
            for (py::ssize_t i = 0; i < rows; i++) {
                const State& st = list[static_cast<size_t>(i)]->st;
                int seat = seats ? (*seats)[static_cast<size_t>(i)] : (st.has_pending ? st.pending.seat : -1);
                if (seat < 0 || seat >= st.num_players())
                    throw std::invalid_argument(cat("seat must be in 0..", st.num_players() - 1, ", got ", seat));
                e.encode(st, seat, obs.data());
                sparse_rows_sum(obs.data(), e.size, w, hidden, dst + i * hidden);
            }
        },
        py::arg("encoder"), py::arg("cores"), py::arg("seats"), py::arg("weight_t").noconvert(),
        py::arg("out").noconvert());
    m.def(
        "playout_step",
        [](const ActionCodec& c, const py::list& cores, py::array_t<float, py::array::c_style>& logits) {
            auto list = cores_of(cores);
            const auto rows = static_cast<py::ssize_t>(list.size());
            if (logits.ndim() != 2 || logits.shape(0) != rows || logits.shape(1) != c.n)
                throw std::invalid_argument(cat("logits: expected shape (", static_cast<long long>(rows), ", ", c.n, ")"));
            const float* l = logits.data();
            std::vector<int32_t> indices;
            for (py::ssize_t i = 0; i < rows; i++) {
                State& st = list[static_cast<size_t>(i)]->st;
                if (st.finished() || !st.has_pending) continue;
                const auto& legal = legal_actions(st);
                const int seat = st.pending.seat, players = st.num_players();
                indices.resize(legal.size());
                const int count = c.indices(legal.data(), static_cast<int>(legal.size()), seat, players, indices.data());
                Action chosen;
                if (count > 0) {
                    const float* row = l + i * c.n;
                    int32_t best = indices[0];
                    for (int k = 1; k < count; k++)
                        if (row[indices[static_cast<size_t>(k)]] > row[best]) best = indices[static_cast<size_t>(k)];
                    chosen = c.decode(best, seat, players);
                } else {
                    chosen = legal.at(0);  // only bids above the codec's cap: the smallest of them
                }
                if (!apply_action(st, chosen))
                    throw std::runtime_error("playout_step: the native core refused its own legal action");
                advance_forced(st);
            }
            return finished_flags(list);
        },
        py::arg("codec"), py::arg("cores"), py::arg("logits").noconvert());
    m.def(
        "playout_forced",
        [](const py::list& cores) {
            auto list = cores_of(cores);
            for (Core* core : list)
                if (!core->st.finished()) advance_forced(core->st);
            return finished_flags(list);
        },
        py::arg("cores"));
}

}  // namespace tribune
