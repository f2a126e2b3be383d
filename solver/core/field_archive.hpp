// Writing a world's state to bytes and reading it back (World::snapshot, World::from_snapshot).
//
// Every stored struct lists its members once, beside its definition, in a member
// `template <class F> void for_each_field(F&& f)` calling f(member) for each (public value types,
// which may not carry internal members, get a free `for_each_field(T&, F&&)` instead, in
// solver/snapshot/public_fields.hpp). `archive` walks that list: a trivially copyable member is
// copied as its bytes, a vector as its length and then its elements (one block when they are
// trivially copyable), a string, variant, map or array likewise. A member left out of a list is
// not saved, so each list names in a comment what it leaves out and why (scratch rebuilt before
// it is read, a thread pool, a mutex); world_snapshot_test.cpp checks that every built-in scene
// continues bit-identically from its snapshot, which a missing member that matters breaks.
//
// The bytes are this build's memory layout (no conversion of byte order or struct padding): a
// snapshot is read by a build of the same layout, which its header checks (world_snapshot.cpp).
// Reading never trusts a length: each is checked against the bytes left before anything is
// allocated, and an error names the byte range and the field being read.
#pragma once

#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <variant>
#include <vector>

#include "strut/error.hpp"

namespace strut::snapshot {

// A snapshot that cannot be read: what() is "bytes A-B: <field>: <problem>".
class SnapshotError : public Error {
 public:
  using Error::Error;
};

// Counts the bytes a Writer will write, so that it writes into one buffer of the right size: a
// growing buffer would copy itself again at each doubling, a large share of a snapshot's time.
class Sizer {
 public:
  static constexpr bool kReading = false;
  void raw(const void* /*data*/, std::size_t size) { bytes += size; }
  std::size_t count(std::size_t n, std::size_t /*element_size*/) {
    bytes += sizeof(std::uint64_t);
    return n;
  }
  void enter(const char* /*name*/) {}
  std::size_t bytes = 0;
};

// Writes into `out` from `at` on; `out` must hold what a Sizer counted.
class Writer {
 public:
  static constexpr bool kReading = false;
  Writer(std::uint8_t* out, std::size_t at) : out_(out), at_(at) {}
  void raw(const void* data, std::size_t size) {
    if (size > 0) std::memcpy(out_ + at_, data, size);
    at_ += size;
  }
  std::size_t count(std::size_t n, std::size_t /*element_size*/) {
    const std::uint64_t v = n;
    raw(&v, sizeof v);
    return n;
  }
  // Names the field being written (only reading reports it).
  void enter(const char* /*name*/) {}
  std::size_t offset() const { return at_; }

 private:
  std::uint8_t* out_;
  std::size_t at_;
};

// The bytes of archive(x) for each of xs, in order (a Sizer pass, then a Writer pass).
template <class... T>
std::vector<std::uint8_t> to_bytes(T&... xs);

class Reader {
 public:
  static constexpr bool kReading = true;
  Reader(const std::uint8_t* data, std::size_t size, std::size_t base_offset)
      : data_(data), size_(size), base_(base_offset) {}

  void raw(void* out, std::size_t size) {
    if (size > size_ - at_)
      fail(at_, size,
           "ends early (" + std::to_string(size_ - at_) + " bytes left, " + std::to_string(size) +
               " needed)");
    if (size > 0) std::memcpy(out, data_ + at_, size);  // an empty vector's data() may be null
    at_ += size;
  }
  // A length of elements of element_size bytes each, checked against the bytes left (each element
  // takes at least one byte), so that a damaged length is reported, not allocated.
  std::size_t count(std::size_t /*unused*/, std::size_t element_size) {
    const std::size_t start = at_;
    std::uint64_t n = 0;
    if (sizeof n > size_ - at_) raw(&n, sizeof n);  // reports the end
    std::memcpy(&n, data_ + at_, sizeof n);         // a fixed size: no call
    at_ += sizeof n;
    const std::size_t left = size_ - at_;
    // A multiplication, not left / element_size: a division per vector was a fifth of a small
    // world's restore from bytes.
    std::uint64_t bytes = 0;
    if (__builtin_mul_overflow(n, std::uint64_t(element_size == 0 ? 1 : element_size), &bytes) ||
        bytes > left)
      fail(start, sizeof n,
           "count " + std::to_string(n) + " exceeds the file (" + std::to_string(left) +
               " bytes left, elements of " + std::to_string(element_size) + " bytes)");
    return std::size_t(n);
  }
  void skip(std::size_t size) {
    if (size > size_ - at_) fail(at_, 0, "ends early");
    at_ += size;
  }
  void enter(const char* name) { field_ = name; }  // a literal: kept as a pointer
  [[noreturn]] void fail(std::size_t at, std::size_t size, const std::string& problem) const {
    throw SnapshotError("bytes " + std::to_string(base_ + at) + "-" +
                        std::to_string(base_ + at + size) + ": " + std::string(field_) + ": " +
                        problem);
  }
  std::size_t offset() const { return at_; }
  bool done() const { return at_ == size_; }

 private:
  const std::uint8_t* data_;
  std::size_t size_, at_ = 0, base_;
  const char* field_ = "header";
};

template <class T>
concept HasMemberFields = requires(T& t) {
  t.for_each_field([](auto&) {});
};
// The SoA stores' column lists (BodyArrays::for_each_column) serve as their field lists.
template <class T>
concept HasMemberColumns = requires(T& t) {
  t.for_each_column([](auto&) {});
};
template <class T>
concept HasFreeFields = requires(T& t) {
  for_each_field(t, [](auto&) {});
};

template <class T>
struct IsPair : std::false_type {};
template <class A, class B>
struct IsPair<std::pair<A, B>> : std::true_type {};
template <class T>
struct IsVector : std::false_type {};
template <class T, class A>
struct IsVector<std::vector<T, A>> : std::true_type {};
template <class T>
struct IsVariant : std::false_type {};
template <class... T>
struct IsVariant<std::variant<T...>> : std::true_type {};
template <class T>
struct IsMap : std::false_type {};
template <class K, class V, class H, class E, class A>
struct IsMap<std::unordered_map<K, V, H, E, A>> : std::true_type {};

// Stored as its bytes: trivially copyable types, and pairs of them (std::pair's assignment is
// not trivial, but its bytes are its value).
template <class T>
struct IsBitwise : std::bool_constant<std::is_trivially_copyable_v<T>> {};
template <class A, class B>
struct IsBitwise<std::pair<A, B>> : std::bool_constant<IsBitwise<A>::value && IsBitwise<B>::value> {
};

template <class Archive, class T>
void archive(Archive& a, T& x);

template <class Archive, class V, std::size_t... I>
void archive_variant(Archive& a, V& v, std::uint32_t index, std::index_sequence<I...>) {
  // Emplaces alternative `index` (reading) and archives it.
  (void)((index == I ? (Archive::kReading ? (void)v.template emplace<I>() : (void)0,
                        archive(a, std::get<I>(v)), true)
                     : false) ||
         ...);
}

template <class Archive, class T>
void archive(Archive& a, T& x) {
  if constexpr (HasMemberFields<T>) {
    x.for_each_field([&](auto& member) { archive(a, member); });
  } else if constexpr (HasMemberColumns<T>) {
    x.for_each_column([&](auto& member) { archive(a, member); });
  } else if constexpr (HasFreeFields<T>) {
    for_each_field(x, [&](auto& member) { archive(a, member); });
  } else if constexpr (IsVector<T>::value) {
    using E = typename T::value_type;
    if constexpr (std::is_same_v<E, bool>) {
      static_assert(!std::is_same_v<E, bool>, "vector<bool> is not stored; use uint8_t");
    } else if constexpr (IsBitwise<E>::value && !HasMemberFields<E> && !HasMemberColumns<E> &&
                         !HasFreeFields<E>) {
      const std::size_t n = a.count(x.size(), sizeof(E));
      if constexpr (Archive::kReading) x.resize(n);
      a.raw(x.data(), n * sizeof(E));
    } else {
      const std::size_t n = a.count(x.size(), 1);
      if constexpr (Archive::kReading) x.resize(n);
      for (E& e : x) archive(a, e);
    }
  } else if constexpr (std::is_same_v<T, std::string>) {
    const std::size_t n = a.count(x.size(), 1);
    if constexpr (Archive::kReading) x.resize(n);
    a.raw(x.data(), n);
  } else if constexpr (IsVariant<T>::value) {
    std::uint32_t index = std::uint32_t(x.index());
    a.raw(&index, sizeof index);
    if (index >= std::variant_size_v<T>) {
      if constexpr (Archive::kReading)
        a.fail(a.offset() - sizeof index, sizeof index,
               "variant alternative " + std::to_string(index) + " does not exist");
    }
    archive_variant(a, x, index, std::make_index_sequence<std::variant_size_v<T>>{});
  } else if constexpr (IsMap<T>::value) {
    // Keys in ascending order, so that equal maps give equal bytes.
    std::map<typename T::key_type, typename T::mapped_type*> sorted;
    if constexpr (!Archive::kReading)
      for (auto& [k, v] : x) sorted.emplace(k, &v);
    const std::size_t n = a.count(x.size(), sizeof(typename T::key_type));
    if constexpr (Archive::kReading) {
      x.clear();
      for (std::size_t i = 0; i < n; ++i) {
        typename T::key_type k{};
        archive(a, k);
        archive(a, x[k]);
      }
    } else {
      for (auto& [k, v] : sorted) {
        auto key = k;
        archive(a, key);
        archive(a, *v);
      }
    }
  } else if constexpr (IsPair<T>::value && !IsBitwise<T>::value) {
    archive(a, x.first);
    archive(a, x.second);
  } else if constexpr (std::is_same_v<T, bool>) {
    std::uint8_t byte = x;
    a.raw(&byte, 1);
    if constexpr (Archive::kReading) {
      if (byte > 1) a.fail(a.offset() - 1, 1, "a flag of value " + std::to_string(byte));
      x = byte != 0;
    }
  } else if constexpr (std::is_array_v<T>) {
    for (auto& e : x) archive(a, e);
  } else {
    static_assert(IsBitwise<T>::value,
                  "a stored member must be trivially copyable or list its fields");
    a.raw(&x, sizeof(T));
  }
}

// Archives each argument in order.
template <class Archive, class... T>
void archive_all(Archive& a, T&... x) {
  (archive(a, x), ...);
}

template <class... T>
std::vector<std::uint8_t> to_bytes(T&... xs) {
  Sizer size;
  archive_all(size, xs...);
  std::vector<std::uint8_t> out(size.bytes);
  Writer w(out.data(), 0);
  archive_all(w, xs...);
  return out;
}

}  // namespace strut::snapshot
