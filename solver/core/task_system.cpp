#include "solver/core/task_system.hpp"

#include <immintrin.h>
#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include "solver/core/tick_clock.hpp"

namespace strut {

// More threads than cores (tests oversubscribe to shake out races) needs a
// global_control: without it an arena of 8 on 2 cores silently runs 2.
struct TaskSystem::Arena {
  explicit Arena(int n)
      : oversubscribe(n > int(std::thread::hardware_concurrency())
                          ? std::make_unique<tbb::global_control>(
                                tbb::global_control::max_allowed_parallelism, std::size_t(n))
                          : nullptr),
        arena(n) {}
  std::unique_ptr<tbb::global_control> oversubscribe;
  tbb::task_arena arena;
};

TaskSystem::TaskSystem(int threads) : counters_(std::make_unique<Counters>()) {
  const int cores = int(std::max(1u, std::thread::hardware_concurrency()));
  if (threads <= 0) threads = cores;
  // At most kThreadsPerCore threads a core: more only take turns at every stage's barrier and
  // slow the step. Results are the same for any count, so fewer threads than asked change no bit.
  threads_ = std::min(threads, kThreadsPerCore * cores);
  if (threads_ > 1) arena_ = std::make_unique<Arena>(threads_);
}

TaskSystem::TaskSystem(void *external_arena)
    : counters_(std::make_unique<Counters>()), external_(external_arena) {
  threads_ = std::max(1, static_cast<tbb::task_arena *>(external_arena)->max_concurrency());
}

TaskSystem::TaskSystem(const TaskSystem &other)
    : threads_(other.threads_),
      counters_(std::make_unique<Counters>()),
      arena_(other.arena_ ? std::make_unique<Arena>(other.threads_) : nullptr),
      external_(other.external_) {}

TaskSystem &TaskSystem::operator=(const TaskSystem &other) {
  if (threads_ == other.threads_ && external_ == other.external_ &&
      bool(arena_) == bool(other.arena_))
    return *this;
  threads_ = other.threads_;
  external_ = other.external_;
  arena_ = other.arena_ ? std::make_unique<Arena>(other.threads_) : nullptr;
  return *this;
}

TaskSystem::~TaskSystem() = default;

#if defined(STRUT_PLAIN_THREADS)
// ThreadSanitizer builds: libtbb is not instrumented, so TSan cannot see its
// happens-before edges and reports every hand-over inside TBB as a race. There
// parallel_for runs the same fixed chunks on plain std::threads (claimed
// through an atomic counter, joined at the end), whose synchronisation TSan
// understands, so what it reports is about strut's own code.
void TaskSystem::parallel_for(int count, int grain, const RangeFn &fn) const {
  if (count <= 0) return;
  grain = std::max(1, grain);
  const int chunks = chunk_count(count, grain);
  std::atomic<int> next{0};
  auto work = [&](int worker) {
    for (int k = next.fetch_add(1); k < chunks; k = next.fetch_add(1))
      fn(k * grain, std::min(count, (k + 1) * grain), worker);
  };
  if (threads_ == 1 || chunks == 1) {
    work(0);
    return;
  }
  std::vector<std::thread> helpers;
  for (int t = 1; t < std::min(threads_, chunks); ++t) helpers.emplace_back(work, t);
  work(0);
  for (std::thread &t : helpers) t.join();
}
#else
void TaskSystem::parallel_for(int count, int grain, const RangeFn &fn) const {
  if (count <= 0) return;
  grain = std::max(1, grain);
  const int chunks = chunk_count(count, grain);
  tbb::task_arena *arena =
      external_ ? static_cast<tbb::task_arena *>(external_) : (arena_ ? &arena_->arena : nullptr);
  if (!arena || chunks == 1 || threads_ == 1) {
    for (int k = 0; k < chunks; ++k) fn(k * grain, std::min(count, (k + 1) * grain), 0);
    return;
  }
  // One stage of the stage runner: each thread starts on its own segment of the chunks, as in
  // the substeps (participate, below).
  const Stage stage{count, grain, fn, -1};
  run_stages(std::span<const Stage>(&stage, 1));
}

#endif

namespace {

using Ticks = std::uint64_t;

// Whether stage s is the last of a run of consecutive stages of one phase: the profile reads
// the clock only there.
bool ends_phase_run(std::span<const TaskSystem::Stage> stages, std::size_t s) {
  return s + 1 == stages.size() || stages[s + 1].phase != stages[s].phase;
}

void add_run_time(double *phase_ticks, int phase, Ticks from, Ticks to) {
  if (phase >= 0 && to > from) phase_ticks[phase] += double(to - from);
}

// One thread: the chunks of every stage in order, with nothing to claim or wait for.
void run_in_order(std::span<const TaskSystem::Stage> stages, double *phase_ticks) {
  Ticks previous = phase_ticks ? read_ticks() : 0;
  bool worked = false;  // a chunk ran since the last clock read (else the run took no time)
  for (std::size_t s = 0; s < stages.size(); ++s) {
    const TaskSystem::Stage &st = stages[s];
    for (int begin = 0; begin < st.count; begin += st.grain)
      st.fn(begin, std::min(st.count, begin + st.grain), 0);
    worked |= st.count > 0;
    if (phase_ticks && worked && ends_phase_run(stages, s)) {
      worked = false;
      const Ticks now = read_ticks();
      add_run_time(phase_ticks, st.phase, previous, now);
      previous = now;
    }
  }
}

// Per-stage counters, one cache line each so claiming threads do not share
// lines.
struct alignas(64) StageCounter {
  std::atomic<int> done{0};
  Ticks end = 0;  // the end of a phase run: written by whoever finished its last chunk
};

// A stage's chunks are cut into one contiguous segment per participant, each with its own
// claim cursor (the next chunk of the segment, counted from its start).
struct alignas(64) SegmentCursor {
  std::atomic<int> next{0};
};

// Runs every stage in order from the calling participant's point of view:
// claims the chunks of its own segment of the current stage, then those left in
// the other segments, then waits until the chunks others claimed are finished.
// Why segments: a participant that starts every stage in its own segment works
// on the same bodies and constraints in every stage (chunks are ordered in
// space), so their cache lines stay in its core's cache instead of moving
// between cores at every stage, as they did with one shared cursor.
void participate(std::span<const TaskSystem::Stage> stages, StageCounter *counters,
                 SegmentCursor *cursors, const std::uint32_t *first_cursor, int worker,
                 bool timed) {
  for (std::size_t s = 0; s < stages.size(); ++s) {
    const TaskSystem::Stage &st = stages[s];
    const int chunks = TaskSystem::chunk_count(st.count, st.grain);
    StageCounter &c = counters[s];
    const bool read_end = timed && ends_phase_run(stages, s);
    // One segment per participant, but no more segments than chunks: with many more threads
    // than chunks every participant would scan every thread's empty segment, and a stage would
    // cost threads squared.
    const int segments = int(first_cursor[s + 1] - first_cursor[s]);
    for (int i = 0; i < segments; ++i) {
      const int segment = (worker + i) % segments;
      const int first = segment * chunks / segments, last = (segment + 1) * chunks / segments;
      std::atomic<int> &next = cursors[first_cursor[s] + std::uint32_t(segment)].next;
      for (int k = first + next.fetch_add(1, std::memory_order_relaxed); k < last;
           k = first + next.fetch_add(1, std::memory_order_relaxed)) {
        st.fn(k * st.grain, std::min(st.count, (k + 1) * st.grain), worker);
        if (c.done.fetch_add(1, std::memory_order_acq_rel) + 1 == chunks && read_end)
          c.end = read_ticks();
      }
    }
    for (int spins = 0; c.done.load(std::memory_order_acquire) < chunks; ++spins) {
      if (spins < 4096)
        _mm_pause();
      else
        std::this_thread::yield();
    }
  }
}

}  // namespace

struct TaskSystem::Counters {
  std::vector<StageCounter> stages;
  std::vector<SegmentCursor> cursors;
  std::vector<std::uint32_t> first_cursor;  // stage s's segments: cursors[first[s], first[s + 1])
  std::atomic<bool> busy{false};
  // Sized for `stages` run by `participants`, every counter at zero.
  void reset(std::span<const Stage> list, int participants) {
    const std::size_t n = list.size();
    if (stages.size() < n) stages = std::vector<StageCounter>(n + n / 2);
    first_cursor.resize(n + 1);
    first_cursor[0] = 0;
    for (std::size_t s = 0; s < n; ++s)
      first_cursor[s + 1] =
          first_cursor[s] +
          std::uint32_t(std::min(participants, chunk_count(list[s].count, list[s].grain)));
    if (cursors.size() < first_cursor[n])
      cursors = std::vector<SegmentCursor>(first_cursor[n] + first_cursor[n] / 2);
    for (std::size_t s = 0; s < n; ++s) stages[s].done.store(0, std::memory_order_relaxed);
    for (std::uint32_t k = 0; k < first_cursor[n]; ++k)
      cursors[k].next.store(0, std::memory_order_relaxed);
  }
};

void TaskSystem::run_stages(std::span<const Stage> stages, double *phase_ticks) const {
  const int segments = threads_ <= 1 || (!external_ && !arena_) ? 1 : threads_;
  if (segments == 1) {
    run_in_order(stages, phase_ticks);
    return;
  }
  const Ticks start = phase_ticks ? read_ticks() : 0;
  // A region started from inside a stage of another uses counters of its own.
  Counters nested;
  Counters &counters = counters_->busy.exchange(true) ? nested : *counters_;
  counters.reset(stages, segments);
  StageCounter *done = counters.stages.data();
  SegmentCursor *cursors = counters.cursors.data();
  const std::uint32_t *first_cursor = counters.first_cursor.data();
  const bool timed = phase_ticks != nullptr;
#if defined(STRUT_PLAIN_THREADS)
  std::vector<std::thread> helpers;
  for (int t = 1; t < threads_; ++t)
    helpers.emplace_back([&, t] { participate(stages, done, cursors, first_cursor, t, timed); });
  participate(stages, done, cursors, first_cursor, 0, timed);
  for (std::thread &t : helpers) t.join();
#else
  tbb::task_arena *arena = external_ ? static_cast<tbb::task_arena *>(external_) : &arena_->arena;
  arena->execute([&] {
    tbb::parallel_for(
        tbb::blocked_range<int>(0, threads_, 1),
        [&](const tbb::blocked_range<int> &r) {
          for (int p = r.begin(); p < r.end(); ++p)
            participate(stages, done, cursors, first_cursor, p, timed);
        },
        tbb::simple_partitioner());
  });
#endif
  if (phase_ticks) {
    Ticks previous = start;
    for (std::size_t s = 0; s < stages.size(); ++s) {
      if (!ends_phase_run(stages, s)) continue;
      // A run whose last stage had no chunks has no end of its own.
      const Ticks end = std::max(previous, done[s].end);
      add_run_time(phase_ticks, stages[s].phase, previous, end);
      previous = end;
    }
  }
  if (&counters == counters_.get()) counters_->busy.store(false);
}

}  // namespace strut
