// The functions one phase module of the core calls in another (the Python engine's cross-module imports).
// Each is defined in the .cpp file of the module named beside it.
#pragma once

#include <functional>
#include <string_view>

#include "brutii_ops.hpp"
#include "pyrandom.hpp"

namespace tribune {

// regions.cpp (regions.py)
std::vector<int> free_spaces(const State& st, int region);
std::vector<int> paired_spaces(const State& st, const std::vector<int>& ids, int seat);

// rewards.cpp (rewards.py)
std::string cards_text(int n);
void gain_scroll(State& st, int seat, std::string_view why);

// drawing.cpp (drawing.py): draw ``n`` cards for ``seat``, handing each to ``put``.
void draw_into(State& st, int seat, int n, int after_cesura, Step retry, const std::function<void(int)>& put,
               std::string_view note = "");

// brutii.cpp (brutii.py)
void brutii_turn(State& st);

// setup.cpp (rounds.py)
std::vector<Task> round_tasks(State& st);

// regions.cpp (regions.py): the Field of Mars' pair offer, which brutii.cpp (brutii_mars) calls too
void mars_offer(State& st, int seat, int slot);

// determinize.cpp (determinize.py resample): a copy of ``st`` with everything hidden from ``seat`` dealt again from
// ``rng``, drawing as the Python function draws (the same generator gives the same state)
State resample(const State& st, int seat, PyRandom& rng);

}  // namespace tribune
