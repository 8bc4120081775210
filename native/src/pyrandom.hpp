// CPython's random.Random, bit for bit (Mersenne Twister MT19937 as Modules/_randommodule.c and Lib/random.py
// use it in CPython 3.11-3.13): integer seeding by init_by_array, getrandbits, _randbelow, randrange, shuffle,
// sample. The Python engine seeds one generator per chance event (tribune_env/engine/ops.py:chance); the native
// core does the same with this class, so both engines draw the same numbers.
#pragma once

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

namespace tribune {

class PyRandom {
   public:
    // random.Random(seed) for a non-negative integer seed below 2**64 (the engine's chance keys are 63-bit).
    explicit PyRandom(uint64_t seed) {
        uint32_t key[2] = {static_cast<uint32_t>(seed & 0xffffffffu), static_cast<uint32_t>(seed >> 32)};
        init_by_array(key, key[1] ? 2 : 1);
    }

    // a generator in the state random.Random.getstate() gives: its 624 words and position (0..624)
    PyRandom(const uint32_t* words, int index) : index_(index) {
        if (index < 0 || index > N) throw std::invalid_argument("random state: position must be in 0..624");
        for (int i = 0; i < N; i++) mt_[i] = words[i];
    }
    // the state for random.Random.setstate(): the 624 words into ``words`` and the position
    int state(uint32_t* words) const {
        for (int i = 0; i < N; i++) words[i] = mt_[i];
        return index_;
    }
    static constexpr int WORDS = 624;

    uint32_t genrand_uint32() {
        static const uint32_t mag01[2] = {0x0u, 0x9908b0dfu};
        uint32_t y;
        if (index_ >= N) {
            int kk;
            for (kk = 0; kk < N - M; kk++) {
                y = (mt_[kk] & UPPER) | (mt_[kk + 1] & LOWER);
                mt_[kk] = mt_[kk + M] ^ (y >> 1) ^ mag01[y & 0x1u];
            }
            for (; kk < N - 1; kk++) {
                y = (mt_[kk] & UPPER) | (mt_[kk + 1] & LOWER);
                mt_[kk] = mt_[kk + (M - N)] ^ (y >> 1) ^ mag01[y & 0x1u];
            }
            y = (mt_[N - 1] & UPPER) | (mt_[0] & LOWER);
            mt_[N - 1] = mt_[M - 1] ^ (y >> 1) ^ mag01[y & 0x1u];
            index_ = 0;
        }
        y = mt_[index_++];
        y ^= (y >> 11);
        y ^= (y << 7) & 0x9d2c5680u;
        y ^= (y << 15) & 0xefc60000u;
        y ^= (y >> 18);
        return y;
    }

    // getrandbits(k) for 1 <= k <= 64: 32-bit words least significant first, the last one cut to the bits left.
    uint64_t getrandbits(int k) {
        if (k <= 0 || k > 64) throw std::invalid_argument("getrandbits: k must be in 1..64");
        if (k <= 32) return genrand_uint32() >> (32 - k);
        uint64_t low = genrand_uint32();
        uint64_t high = genrand_uint32() >> (64 - k);
        return low | (high << 32);
    }

    // Random._randbelow_with_getrandbits(n), n >= 1.
    uint64_t randbelow(uint64_t n) {
        int k = bit_length(n);
        uint64_t r = getrandbits(k);
        while (r >= n) r = getrandbits(k);
        return r;
    }

    // randrange(n) (n > 0) and randrange(a, b) (a < b); ValueError in Python otherwise.
    int64_t randrange(int64_t n) {
        if (n <= 0) throw std::invalid_argument("empty range for randrange()");
        return static_cast<int64_t>(randbelow(static_cast<uint64_t>(n)));
    }
    int64_t randrange(int64_t a, int64_t b) {
        if (b <= a) throw std::invalid_argument("empty range for randrange()");
        return a + static_cast<int64_t>(randbelow(static_cast<uint64_t>(b - a)));
    }
    int64_t randint(int64_t a, int64_t b) { return randrange(a, b + 1); }

    template <class T>
    void shuffle(std::vector<T>& x) {
        for (size_t i = x.size(); i-- > 1;) {
            size_t j = static_cast<size_t>(randbelow(i + 1));
            std::swap(x[i], x[j]);
        }
    }

    // Random.sample(population, k) (Lib/random.py, 3.11-3.13), with its two branches.
    template <class T>
    std::vector<T> sample(const std::vector<T>& population, size_t k) {
        size_t n = population.size();
        if (k > n) throw std::invalid_argument("Sample larger than population or is negative");
        std::vector<T> result;
        result.reserve(k);
        size_t setsize = 21;
        if (k > 5) {
            // 4 ** _ceil(_log(k * 3, 4)): the smallest power of 4 at least 3k, by float log as CPython computes it
            setsize += ceil_pow4(3 * k);
        }
        if (n <= setsize) {
            std::vector<T> pool(population);
            for (size_t i = 0; i < k; i++) {
                size_t j = static_cast<size_t>(randbelow(n - i));
                result.push_back(pool[j]);
                pool[j] = pool[n - i - 1];
            }
        } else {
            std::vector<bool> selected(n, false);
            for (size_t i = 0; i < k; i++) {
                size_t j = static_cast<size_t>(randbelow(n));
                while (selected[j]) j = static_cast<size_t>(randbelow(n));
                selected[j] = true;
                result.push_back(population[j]);
            }
        }
        return result;
    }

    static int bit_length(uint64_t n) {
        int k = 0;
        while (n) {
            k++;
            n >>= 1;
        }
        return k;
    }

   private:
    static constexpr int N = 624;
    static constexpr int M = 397;
    static constexpr uint32_t UPPER = 0x80000000u;
    static constexpr uint32_t LOWER = 0x7fffffffu;
    uint32_t mt_[N];
    int index_ = N + 1;

    // 4 ** math.ceil(math.log(x, 4)), with math.log(x, 4) computed as log(x) / log(4) in doubles, as CPython does.
    static size_t ceil_pow4(size_t x) {
        double e = std::ceil(std::log(static_cast<double>(x)) / std::log(4.0));
        size_t p = 1;
        for (int i = 0; i < static_cast<int>(e); i++) p *= 4;
        return p;
    }

    void init_genrand(uint32_t s) {
        mt_[0] = s;
        for (int i = 1; i < N; i++) mt_[i] = (1812433253u * (mt_[i - 1] ^ (mt_[i - 1] >> 30)) + static_cast<uint32_t>(i));
        index_ = N;
    }

    void init_by_array(const uint32_t* key, size_t key_length) {
        init_genrand(19650218u);
        size_t i = 1, j = 0;
        size_t k = (N > key_length ? N : key_length);
        for (; k; k--) {
            mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1664525u)) + key[j] + static_cast<uint32_t>(j);
            i++;
            j++;
            if (i >= N) {
                mt_[0] = mt_[N - 1];
                i = 1;
            }
            if (j >= key_length) j = 0;
        }
        for (k = N - 1; k; k--) {
            mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1566083941u)) - static_cast<uint32_t>(i);
            i++;
            if (i >= N) {
                mt_[0] = mt_[N - 1];
                i = 1;
            }
        }
        mt_[0] = 0x80000000u;
    }
};

}  // namespace tribune
