// Islands and sleeping. Bodies joined by touching contacts or joints form an island; an island
// is the unit of sleep: it sleeps when every body in it has been still for a while, and wakes
// as a whole.
#pragma once

#include <cstdint>

#include "solver/core/stores.hpp"

namespace strut {

// Union-find over awake dynamic bodies joined by touching contact pairs and joints. Writes each
// body's island (the slot of its root, stable under compaction) to bodies.island. Deterministic:
// roots are the lowest dense index of each island.
void build_islands(
    Stores<ReadsConfig, RunsTasks, WritesBodies, ReadsContacts, ReadsJoints, WritesScratch> w);
// Marks sleeping islands touched this step by an awake moving body (after the narrow phase);
// wake_marked_islands wakes them (after the solve).
void mark_touched_islands(Stores<ReadsBodies, ReadsContacts, WritesScratch> w);
void wake_marked_islands(Stores<WritesBodies, ReadsColliders, WritesJoints, WritesPairs,
                                WritesIslands, WritesEvents, WritesScratch>
                             w);
// After the step: updates stillness timers and puts islands that have been still long enough to
// sleep (their velocities are zeroed).
void update_sleep(
    Stores<ReadsConfig, RunsTasks, ReadsTiming, WritesBodies, WritesColliders, WritesParticles,
           WritesJoints, WritesPairs, ReadsContacts, WritesIslands, WritesScratch>
        w,
    float dt);
// Puts dense body k to sleep now: motion zeroed, proxy marked sleeping.
void sleep_body(Stores<ReadsConfig, WritesBodies, WritesColliders, WritesParticles, WritesJoints,
                       WritesPairs, WritesIslands>
                    w,
                std::uint32_t k);
// Wakes every body of the island `island` (a root slot): the bodies listed when they fell asleep
// in it (IslandStore::sleepers), not a scan of every body.
void wake_island(
    Stores<WritesBodies, ReadsColliders, WritesJoints, WritesPairs, WritesIslands, WritesEvents> w,
    std::uint32_t island);
// Lists sleeping body k among its island's sleepers (sleep_body does; a sleeper given an island
// of its own, as a sleeper whose shapes change, must be listed again).
void list_sleeper(Stores<ReadsBodies, WritesIslands> w, std::uint32_t k);
// Takes sleeping body k off its island's list (it is being destroyed or given another island),
// so that lists hold no more than the sleepers there are.
void forget_sleeper(Stores<ReadsBodies, WritesIslands> w, std::uint32_t k);

}  // namespace strut
