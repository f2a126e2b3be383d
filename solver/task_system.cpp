#include "solver/task_system.hpp"

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <thread>

namespace strut {

struct TaskSystem::Arena {
  explicit Arena(int n) : arena(n) {}
  tbb::task_arena arena;
};

TaskSystem::TaskSystem(int threads) {
  if (threads <= 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads_ = threads;
  if (threads_ > 1) arena_ = std::make_unique<Arena>(threads_);
}

TaskSystem::~TaskSystem() = default;

void TaskSystem::parallel_for(int count, int grain, const RangeFn& fn) const {
  if (count <= 0) return;
  grain = std::max(1, grain);
  const int chunks = chunk_count(count, grain);
  if (!arena_ || chunks == 1) {
    for (int k = 0; k < chunks; ++k) fn(k * grain, std::min(count, (k + 1) * grain), 0);
    return;
  }
  arena_->arena.execute([&] {
    // simple_partitioner with grain 1 over chunk indices: one task per chunk, fixed bounds.
    tbb::parallel_for(
        tbb::blocked_range<int>(0, chunks, 1),
        [&](const tbb::blocked_range<int>& r) {
          int worker = tbb::this_task_arena::current_thread_index();
          if (worker < 0 || worker >= threads_ + 1) worker = threads_;
          for (int k = r.begin(); k < r.end(); ++k)
            fn(k * grain, std::min(count, (k + 1) * grain), worker);
        },
        tbb::simple_partitioner());
  });
}

}  // namespace strut
