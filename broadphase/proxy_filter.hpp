// What the broad phase knows about a proxy besides its box: layers and state flags.
#pragma once

#include <cstdint>

namespace strut::broadphase {

enum ProxyFlag : std::uint32_t {
  kProxyAlive = 1,  // the slot holds a proxy
  kProxyStatic = 2,
  kProxySleeping = 4,
  kProxyInOrder = 8,   // the moving order has an entry for this slot (maybe stale until compacted)
  kProxyPending = 16,  // listed as a new moving proxy, not yet merged into the order
  kProxySettled = 32,  // sleeping and held in the sleeping set (not in the moving order)
};

// 12 bytes. Read for both proxies of every geometric overlap, never in the scan itself.
// Two proxies may pair iff (a.category & b.mask) != 0 && (b.category & a.mask) != 0.
struct ProxyFilter {
  std::uint32_t category = 0;
  std::uint32_t mask = 0;
  std::uint32_t flags = 0;
};

}  // namespace strut::broadphase
