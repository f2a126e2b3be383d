#include "solver/task_system.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <vector>

namespace strut {

TEST(TaskSystem, ChunksCoverTheRangeExactlyOnceForAnyThreadCount) {
  for (int threads : {1, 2, 3, 8}) {
    TaskSystem tasks(threads);
    std::vector<int> hits(1000, 0);
    std::vector<std::pair<int, int>> chunks(TaskSystem::chunk_count(1000, 64));
    tasks.parallel_for(1000, 64, [&](int begin, int end, int worker) {
      EXPECT_GE(worker, 0);
      EXPECT_LT(worker, tasks.worker_slots());
      chunks[begin / 64] = {begin, end};
      for (int i = begin; i < end; ++i) hits[i]++;
    });
    for (int h : hits) EXPECT_EQ(h, 1);
    for (std::size_t k = 0; k < chunks.size(); ++k) {
      EXPECT_EQ(chunks[k].first, int(k) * 64);
      EXPECT_EQ(chunks[k].second, std::min(1000, int(k + 1) * 64));
    }
  }
}

TEST(TaskSystem, ZeroThreadsMeansAllCores) {
  TaskSystem tasks(0);
  EXPECT_GE(tasks.thread_count(), 1);
}

}  // namespace strut
