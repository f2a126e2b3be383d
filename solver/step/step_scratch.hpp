// Per-step scratch of the stages (part of the world's state, solver/world_state.hpp).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "solver/contacts/callback_store.hpp"
#include "solver/contacts/contact_scratch.hpp"
#include "solver/contacts/contact_wide.hpp"
#include "solver/core/task_system.hpp"

namespace strut {

// Per-step scratch, reused between steps so a steady-state step allocates
// nothing.
struct StepScratch {
  std::vector<float> ax, ay, alpha, damping, angular_damping;  // per body
  std::vector<float> pax, pay, pdamping;                       // per particle (soft bodies)
  // The bodies this step visits (solver/step/visited_bodies.hpp), as runs of dense indices; the
  // same plus the sleepers of this step's contact pairs, which the solver may move; the awake
  // moving rigid bodies among them, which integrate.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> body_runs, solver_runs, rigid_runs;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> collider_runs;  // of the body runs
  std::vector<std::uint32_t> touched_sleepers;  // find_solver_bodies' sleepers, sorted
  std::vector<std::uint32_t> woken;             // bodies woken after this step's solve
  std::vector<std::pair<std::uint32_t, std::uint32_t>> sleep_runs;  // body runs and the woken
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edited_awake_runs;  // awake runs' update
  std::vector<std::uint32_t> soft_bodies;
  std::vector<float> strut_lambda;  // XPBD multipliers, reset every substep
  std::vector<std::uint32_t> island_parent;
  std::vector<float> island_min_time;      // indexed by root slot
  std::vector<std::uint32_t> island_wake;  // islands (root slots) to wake after this step's solve
  std::vector<std::uint8_t> moving;        // per body: may be written by the solver (set each step)
  std::uint64_t moving_version = 0;        // counts the changes of `moving`
  std::uint64_t coloured_moving_version = ~std::uint64_t{0};  // when contacts were last coloured
  std::uint64_t joints_coloured_moving_version = ~std::uint64_t{0};  // and joints
  std::vector<std::uint32_t> pair_a, pair_b, joint_a, joint_b;
  std::vector<float> crowded_pushes;  // per body: its pairs' pushes (empty: none can be crowded)
  std::vector<float> body_pushes;     // per body: push_out_scale's input (empty: every scale 1)
  BodyClusters free_clusters, crowd_clusters;  // push-out clusters (colour_contacts.cpp)
  // Per pair: a crowd pair (colour_contacts.cpp), this recolouring's and the one before's.
  std::vector<std::uint8_t> crowd_pair, old_crowd_pair;
  std::vector<std::uint32_t> deep_pair_list;    // colour_contacts.cpp: this step's new deep pairs
  std::vector<std::uint32_t> strut_a, strut_b;  // strut colouring input
  std::vector<std::uint32_t> strut_ids;         // strut colouring: strut index of each input
  std::vector<std::uint8_t> particle_moving;    // per particle: w > 0 (strut colouring)
  std::vector<NarrowChunk> narrow_chunks;
  std::vector<std::uint8_t> chunk_flags;  // one per chunk of a parallel check
  std::vector<std::uint8_t> old_still_touching;
  std::vector<std::uint8_t> woke_touching;     // contact_events.cpp: per sleeping touch, it woke
  std::vector<std::uint32_t> multi_pairs;      // prepare: a colour's pairs of several constraints
  std::vector<std::uint32_t> wide_lane_a;      // prepare: body a of each wide lane
  std::vector<std::uint32_t> wide_lane_ids;    // contact constraint of each wide lane, ~0 = padding
  std::vector<std::uint32_t> wide_lane_pairs;  // prepare: pair of each wide lane, ~0 = padding
  std::vector<float> fast_hit;                 // continuous pass: first hit fraction per body
  std::vector<std::uint8_t> fast_flag;         // continuous pass: fast (1) or pressed deep (2)
  // Body poses at the step start (contact anchors); p0x, p0y also hold the spare zero body's.
  std::vector<float> p0x, p0y, q0c, q0s;
  std::vector<PrepareBody> prepare_bodies;  // one per body plus a spare zero body (padding)
  // Bodies whose push scale raise_pushes set this colouring, and whose prepare rows hold one
  // other than 1 since the last prepare; body_pushes copied from crowded_pushes (every body may
  // have one), this step and the last.
  std::vector<std::uint32_t> pushed_bodies, scaled_bodies;
  bool dense_pushes = false, dense_pushes_left = false;
  std::vector<SolverBody> solver_bodies;  // one per body plus a spare zero body (wide padding)
  std::vector<TaskSystem::Stage> contact_stages;
  std::vector<TaskSystem::Stage> substep_stages;
  std::vector<std::uint32_t> chunk_counts;  // per-chunk counts of a parallel compaction
  // SoA tight boxes (bounds kernel), per dense collider.
  std::vector<float> tight_lx, tight_ly, tight_ux, tight_uy;
  std::vector<float> fat_lx, fat_ly, fat_ux, fat_uy;  // broad-phase boxes
  // Each collider's body's sweep and spread (BodyStore::sweep_x, ...).
  std::vector<float> collider_sweep_x, collider_sweep_y, collider_spread;
  // Enlarged boxes of the last sweep per dense collider, and the flags the bodies had then.
  std::vector<float> enlarged_lx, enlarged_ly, enlarged_ux, enlarged_uy;
  std::vector<std::uint8_t> enlarged_flags;
  std::vector<std::uint8_t> pair_class;  // per broad-phase pair: dropped, contact or sensor
  // The enlarged pairs' counting sort by first collider (step/candidate_pairs.cpp): offsets per
  // collider, and the sorted list before it is swapped in.
  std::vector<std::uint32_t> pair_group_begin;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> grouped_pairs;
  std::vector<FilterVerdict> next_verdicts;  // the custom filter's answers of this sweep
  // Collider-pair keys whose contacts the pre-solve callback disabled this step, sorted (the
  // continuous pass skips them).
  std::vector<std::uint64_t> pre_solve_disabled;

  // Every member but the stage lists, which each step builds afresh and which hold functions.
  template <class F>
  void for_each_field(F &&f) {
    f(ax), f(ay), f(alpha), f(damping), f(angular_damping), f(pax), f(pay), f(pdamping);
    f(body_runs), f(solver_runs), f(rigid_runs), f(collider_runs), f(touched_sleepers), f(woken);
    f(sleep_runs), f(edited_awake_runs), f(soft_bodies), f(strut_lambda), f(island_parent);
    f(island_min_time), f(island_wake), f(moving), f(moving_version), f(coloured_moving_version);
    f(joints_coloured_moving_version), f(pair_a), f(pair_b), f(joint_a), f(joint_b);
    f(crowded_pushes), f(body_pushes), f(free_clusters), f(crowd_clusters), f(crowd_pair);
    f(old_crowd_pair), f(deep_pair_list), f(strut_a), f(strut_b), f(strut_ids);
    f(particle_moving), f(narrow_chunks), f(chunk_flags), f(old_still_touching), f(woke_touching);
    f(multi_pairs);
    f(wide_lane_a), f(wide_lane_ids), f(wide_lane_pairs), f(fast_hit), f(fast_flag), f(p0x);
    f(p0y), f(q0c), f(q0s), f(prepare_bodies), f(pushed_bodies), f(scaled_bodies);
    f(dense_pushes), f(dense_pushes_left), f(solver_bodies), f(chunk_counts), f(tight_lx);
    f(tight_ly), f(tight_ux), f(tight_uy), f(fat_lx), f(fat_ly), f(fat_ux), f(fat_uy);
    f(collider_sweep_x), f(collider_sweep_y), f(collider_spread), f(enlarged_lx), f(enlarged_ly);
    f(enlarged_ux), f(enlarged_uy), f(enlarged_flags), f(pair_class), f(pair_group_begin);
    f(grouped_pairs), f(next_verdicts), f(pre_solve_disabled);
  }
};

}  // namespace strut
