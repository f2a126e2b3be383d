// The world's stores as a stage receives them. A stage names what it reads and what it writes in
// its signature,
//
//   void sync_particles(Stores<RunsTasks, WritesBodies, WritesParticles, ReadsScratch> w);
//
// and its body can reach nothing else: `w.bodies` is a BodyStore&, `w.scratch` a const
// StepScratch&, and `w.contacts` does not compile. The members are named as WorldState's
// (solver/world_state.hpp), so the world state converts to any Stores, and a wider Stores to a
// narrower one (a stage passes its own on to the helpers it calls); a store read only cannot be
// passed on as written. The references are bound once per call, so a Stores is passed by value.
// A function that builds tasks to run after it returns (the substeps' stage builders) keeps the
// world state: its tasks' captures of a Stores would outlive that copy.
//
// Rejected: one context struct per stage (Box2D's b2StepContext, Jolt's PhysicsUpdateContext)
// names what a stage may reach in one place, but not what each function under it reaches, and
// every stage's struct repeats the same members.
#pragma once

namespace strut {

struct WorldConfig;
class TaskSystem;
struct StepTiming;
struct BodyStore;
struct ColliderStore;
struct ParticleArrays;
struct SoftStore;
struct JointStore;
struct PairStore;
struct ContactStore;
struct IslandStore;
struct EventStore;
struct CallbackStore;
struct QueryStore;
struct StepScratch;
struct ProfileStore;

// ReadsX holds a const reference to store X, WritesX a reference; both are made from anything
// with a member of that name (the world state or another Stores).
#define STRUT_STORE_ACCESS(Name, Type, member)        \
  struct Reads##Name {                                \
    const Type& member;                               \
    template <class From>                             \
    Reads##Name(From& from) : member(from.member) {}  \
  };                                                  \
  struct Writes##Name {                               \
    Type& member;                                     \
    template <class From>                             \
    Writes##Name(From& from) : member(from.member) {} \
  };

STRUT_STORE_ACCESS(Config, WorldConfig, config)
STRUT_STORE_ACCESS(Timing, StepTiming, timing)
STRUT_STORE_ACCESS(Bodies, BodyStore, bodies)
STRUT_STORE_ACCESS(Colliders, ColliderStore, colliders)
STRUT_STORE_ACCESS(Particles, ParticleArrays, particles)
STRUT_STORE_ACCESS(Soft, SoftStore, soft)
STRUT_STORE_ACCESS(Joints, JointStore, joints)
STRUT_STORE_ACCESS(Pairs, PairStore, pairs)
STRUT_STORE_ACCESS(Contacts, ContactStore, contacts)
STRUT_STORE_ACCESS(Islands, IslandStore, islands)
STRUT_STORE_ACCESS(Events, EventStore, events)
STRUT_STORE_ACCESS(Callbacks, CallbackStore, callbacks)
STRUT_STORE_ACCESS(Queries, QueryStore, queries)
STRUT_STORE_ACCESS(Scratch, StepScratch, scratch)
STRUT_STORE_ACCESS(Profile, ProfileStore, profile)
#undef STRUT_STORE_ACCESS

// The thread pool: running work on it changes no store.
struct RunsTasks {
  TaskSystem& tasks;
  template <class From>
  RunsTasks(From& from) : tasks(from.tasks) {}
};

template <class... Access>
struct Stores : Access... {
  template <class From>
  Stores(From& from) : Access(from)... {}
};

}  // namespace strut
