// Many games stepped in one call, EnvPool-style (issue 34, item 3): the games' observations, masks, seats, rewards
// and done flags are written into the caller's preallocated arrays; a game that ends is reset at once (same-step
// auto-reset) with its next seed. The games keep no log (search and learning never read it); otherwise they play
// exactly as Game.new(config, seed) does (tests/native).
//
//   Batch b(rules, codec, encoder, n, threads);
//   b.reset(seeds, out)            game i: seed seeds[i]; writes every row of ``out``
//   b.step(actions, out)           actions[i]: a codec index for game i's deciding seat; writes every row
//   b.step_random(out)             a uniformly random legal action in every game (benchmarks)
//
// Rows of ``out`` (row i is game i): obs[size] float32 of the deciding seat, mask[n] 0/1, seat (the deciding seat),
// reward[max_players] (win_loss of an episode that ended in this step, else 0), done (the episode ended in this step
// and the row already shows the next episode), illegal (actions[i] was not legal: the game is unchanged).
// Seeds of later episodes: episode k+1 of game i is seeded next_seed(seed of episode k) (splitmix64).
#pragma once

#include <functional>

#include "codec.hpp"

namespace tribune {

struct BatchOut {
    float* obs = nullptr;        // [n, encoder.size]
    uint8_t* mask = nullptr;     // [n, codec.n]
    int32_t* seat = nullptr;     // [n]
    float* reward = nullptr;     // [n, reward_width]
    uint8_t* done = nullptr;     // [n]
    uint8_t* illegal = nullptr;  // [n]
};

uint64_t next_seed(uint64_t seed);                        // splitmix64: the seed of a game's next episode
void win_loss(const State& st, float* out);                // tribune_env.envs.rewards.win_loss, per seat

class Batch {
   public:
    Batch(std::shared_ptr<const Rules> rules, std::shared_ptr<const ActionCodec> codec,
          std::shared_ptr<const ObservationEncoder> encoder, int n, int threads);

    int size() const { return static_cast<int>(games.size()); }
    int reward_width() const { return reward_width_; }
    void reset(const uint64_t* seeds, const BatchOut& out);
    void step(const int32_t* actions, const BatchOut& out);
    void step_random(const BatchOut& out);

    std::vector<State> games;
    std::vector<uint64_t> seeds;     // the seed of each game's running episode
    std::vector<uint64_t> episodes;  // episodes finished per game
    std::vector<uint64_t> rng;       // per game, for step_random

    std::shared_ptr<const Rules> rules;
    std::shared_ptr<const ActionCodec> codec;
    std::shared_ptr<const ObservationEncoder> encoder;

   private:
    int threads_;
    int reward_width_;
    void new_episode(int i, uint64_t seed);
    void write_row(int i, const BatchOut& out);
    void finish_row(int i, const BatchOut& out);  // after a step: reward / done / auto-reset, then the row
    void parallel(const std::function<void(int, int)>& chunk);
};

}  // namespace tribune
