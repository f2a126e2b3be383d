// The only door to threads in strut. Every parallel phase calls parallel_for;
// chunk boundaries depend only on (count, grain), never on the number of
// threads or on timing, so a phase that writes per-chunk output and merges it
// in chunk order is deterministic.
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <new>
#include <span>
#include <type_traits>
#include <vector>

namespace strut {

// A callable fn(begin, end, worker) held in place: a stage list is built anew every step, dozens
// of stages per substep, and std::function would allocate the captures of each (malloc and free
// then weigh on a small world's step). The callable must be trivially copyable (captures
// of references, pointers, numbers and other such lambdas) and fit kCapacity bytes; both are
// checked when it is built.
class RangeFn {
 public:
  static constexpr std::size_t kCapacity = 96;
  RangeFn() = default;
  template <class F>
  requires(!std::is_same_v<std::remove_cvref_t<F>, RangeFn>) RangeFn(
      const F &fn) {  // NOLINT(google-explicit-constructor): lambdas convert as to std::function
    static_assert(sizeof(F) <= kCapacity, "a stage's captures exceed RangeFn::kCapacity");
    static_assert(alignof(F) <= alignof(std::max_align_t), "a stage's captures are over-aligned");
    static_assert(std::is_trivially_copyable_v<F>, "a stage's captures must be trivially copyable");
    ::new (static_cast<void *>(storage_)) F(fn);
    call_ = [](const void *f, int begin, int end, int worker) {
      (*static_cast<const F *>(f))(begin, end, worker);
    };
  }
  void operator()(int begin, int end, int worker) const { call_(storage_, begin, end, worker); }
  explicit operator bool() const { return call_ != nullptr; }

 private:
  alignas(std::max_align_t) unsigned char storage_[kCapacity] = {};
  void (*call_)(const void *, int, int, int) = nullptr;
};

class TaskSystem {
 public:
  // threads: 0 = all cores, 1 = everything inline on the calling thread; at most
  // kThreadsPerCore per core run (more are accepted and give the same results).
  static constexpr int kThreadsPerCore = 8;
  explicit TaskSystem(int threads = 1);
  // Runs inside an arena the caller owns (a tbb::task_arena*, which must
  // outlive this).
  explicit TaskSystem(void *external_arena);
  ~TaskSystem();
  // A copy (World::copy) is another task system of the same threads, or in the same external
  // arena, with nothing running; assigned (World::restore), one keeps its pool when the two
  // run alike.
  TaskSystem(const TaskSystem &other);
  TaskSystem &operator=(const TaskSystem &other);

  int thread_count() const { return threads_; }
  // Upper bound (exclusive) of the `worker` index handed to callbacks: size
  // per-worker scratch with it.
  int worker_slots() const { return threads_ + 1; }

  // Calls fn(begin, end, worker) for the chunks [k*grain, min((k+1)*grain,
  // count)). `worker` is in [0, worker_slots()) and identifies per-worker
  // scratch; two chunks running at once never share a worker index.
  using RangeFn = strut::RangeFn;
  void parallel_for(int count, int grain, const RangeFn &fn) const;

  // A sequence of dependent parallel loops run in one parallel region: stage s
  // + 1 starts only when every chunk of stage s has finished. Each thread claims
  // the chunks of its own segment of a stage first (the same segment in every
  // stage, so a thread keeps working on the same data), then what is left of
  // the others, and waits (spinning briefly) only for chunks another running
  // thread has claimed, so the region never deadlocks when fewer threads show
  // up than asked for. parallel_for is one such stage. One region instead of
  // one parallel_for per stage: the solver runs dozens of short colour stages
  // per substep, and waking the pool for each cost more than the work (2
  // threads were no faster than 1).
  struct Stage {
    int count = 0;
    int grain = 1;
    RangeFn fn;
    int phase = -1;  // profile bucket the stage's wall time goes to (-1: none)
  };
  // phase_ticks (optional) accumulates the wall time of each run of consecutive stages of one
  // phase, from the end of the run before it to the moment its last chunk finished, into
  // phase_ticks[phase], in read_ticks() units (solver/core/tick_clock.hpp): one clock read per run,
  // not per stage (a small world's step has a hundred stages of a few hundred nanoseconds each,
  // and reading the clock at each was an eighth of it).
  void run_stages(std::span<const Stage> stages, double *phase_ticks = nullptr) const;

  // A grain that cuts `count` elements into about kEvenChunks chunks of at least min_grain, for
  // loops over every body or collider: a fixed grain of 4096 cut large_pyramid's 5,051 bodies
  // into 4,096 and 955, so at 2 threads one thread did four fifths. It depends on count only,
  // so the chunks are the same for any thread count.
  static constexpr int kEvenChunks = 8;
  static int even_grain(int count, int min_grain = 256) {
    return std::max(min_grain, (count + kEvenChunks - 1) / kEvenChunks);
  }

  // Number of chunks parallel_for uses for (count, grain).
  static int chunk_count(int count, int grain) {
    return grain <= 0 ? 0 : (count + grain - 1) / grain;
  }

 private:
  struct Arena;
  struct Counters;
  int threads_ = 1;
  // The claim counters of the last region, kept for the next (an allocation per region weighs on
  // a small world's step); a region started from inside a stage makes its own.
  std::unique_ptr<Counters> counters_;
  std::unique_ptr<Arena> arena_;
  void *external_ = nullptr;
};

}  // namespace strut
