// Batch: many games stepped in one call (batch.hpp).
#include "batch.hpp"

#include <algorithm>
#include <cstring>
#include <thread>

namespace tribune {

uint64_t next_seed(uint64_t seed) {
    uint64_t z = seed + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (z ^ (z >> 31)) & ((uint64_t{1} << 63) - 1);
}

void win_loss(const State& st, float* out) {
    int n = st.num_players();
    int k = static_cast<int>(st.winners.size());
    for (int s = 0; s < n; s++) out[s] = 0.0f;
    if (k == 0 || k == n) return;
    double share = static_cast<double>(n - k) / (static_cast<double>(k) * (n - 1));
    double loss = -1.0 / (n - 1);
    for (int s = 0; s < n; s++) out[s] = static_cast<float>(loss);
    for (int w : st.winners) out[w] = static_cast<float>(share);
}

Batch::Batch(std::shared_ptr<const Rules> r, std::shared_ptr<const ActionCodec> c,
             std::shared_ptr<const ObservationEncoder> e, int n, int threads)
    : rules(std::move(r)), codec(std::move(c)), encoder(std::move(e)), threads_(std::max(1, threads)) {
    if (n < 1) throw std::invalid_argument("a batch needs at least one game");
    games.resize(static_cast<size_t>(n));
    seeds.assign(static_cast<size_t>(n), 0);
    episodes.assign(static_cast<size_t>(n), 0);
    rng.assign(static_cast<size_t>(n), 0);
    reward_width_ = rules->config.players;
}

void Batch::parallel(const std::function<void(int, int)>& chunk) {
    int n = size();
    int workers = std::min(threads_, n);
    if (workers <= 1) {
        chunk(0, n);
        return;
    }
    std::vector<std::thread> pool;
    int per = (n + workers - 1) / workers;
    for (int w = 0; w < workers; w++) {
        int lo = w * per, hi = std::min(n, lo + per);
        if (lo < hi) pool.emplace_back(chunk, lo, hi);
    }
    for (auto& t : pool) t.join();
}

void Batch::new_episode(int i, uint64_t seed) {
    State st = new_state(rules, seed);
    st.logging = false;
    advance(st);
    games[static_cast<size_t>(i)] = std::move(st);
    seeds[static_cast<size_t>(i)] = seed;
    rng[static_cast<size_t>(i)] = next_seed(seed ^ 0x5DEECE66Dull);
}

void Batch::write_row(int i, const BatchOut& out) {
    State& st = games[static_cast<size_t>(i)];
    int seat = st.has_pending ? st.pending.seat : -1;
    out.seat[i] = seat;
    float* obs = out.obs + static_cast<size_t>(i) * static_cast<size_t>(encoder->size);
    if (seat >= 0) {
        encoder->encode(st, seat, obs);
    } else {
        std::fill(obs, obs + encoder->size, 0.0f);
    }
    codec->legal_mask(st, out.mask + static_cast<size_t>(i) * static_cast<size_t>(codec->n));
}

void Batch::finish_row(int i, const BatchOut& out) {
    State& st = games[static_cast<size_t>(i)];
    float* reward = out.reward + static_cast<size_t>(i) * static_cast<size_t>(reward_width_);
    if (st.finished()) {
        win_loss(st, reward);
        out.done[i] = 1;
        episodes[static_cast<size_t>(i)] += 1;
        new_episode(i, next_seed(seeds[static_cast<size_t>(i)]));
    } else {
        std::fill(reward, reward + reward_width_, 0.0f);
        out.done[i] = 0;
    }
    write_row(i, out);
}

void Batch::reset(const uint64_t* seeds_in, const BatchOut& out) {
    parallel([&](int lo, int hi) {
        for (int i = lo; i < hi; i++) {
            new_episode(i, seeds_in[i] & ((uint64_t{1} << 63) - 1));
            episodes[static_cast<size_t>(i)] = 0;
            float* reward = out.reward + static_cast<size_t>(i) * static_cast<size_t>(reward_width_);
            std::fill(reward, reward + reward_width_, 0.0f);
            out.done[i] = 0;
            out.illegal[i] = 0;
            write_row(i, out);
        }
    });
}

void Batch::step(const int32_t* actions, const BatchOut& out) {
    parallel([&](int lo, int hi) {
        for (int i = lo; i < hi; i++) {
            State& st = games[static_cast<size_t>(i)];
            Action action;
            int seat = st.has_pending ? st.pending.seat : 0;
            bool ok = codec->try_decode(actions[i], seat, st.num_players(), action) && apply_action(st, action);
            out.illegal[i] = ok ? 0 : 1;
            if (!ok) {
                float* reward = out.reward + static_cast<size_t>(i) * static_cast<size_t>(reward_width_);
                std::fill(reward, reward + reward_width_, 0.0f);
                out.done[i] = 0;
                write_row(i, out);
                continue;
            }
            finish_row(i, out);
        }
    });
}

void Batch::step_random(const BatchOut& out) {
    parallel([&](int lo, int hi) {
        for (int i = lo; i < hi; i++) {
            State& st = games[static_cast<size_t>(i)];
            const auto& legal = legal_actions(st);
            if (legal.empty()) {  // no decision (never after a reset: a finished game is dealt again at once)
                out.illegal[i] = 1;
                write_row(i, out);
                continue;
            }
            uint64_t& r = rng[static_cast<size_t>(i)];
            r = next_seed(r);
            Action action = legal[r % legal.size()];
            apply_action(st, action);
            out.illegal[i] = 0;
            finish_row(i, out);
        }
    });
}

}  // namespace tribune
