// std::atomic_ref where the standard library has it; where it does not
// (libc++ before 19, such as Emscripten 3.1.6's: the JavaScript package,
// js/), the three operations the searches use, over the compilers'
// __atomic builtins that std::atomic_ref is itself built on.
#pragma once

#include <atomic>
#include <version>

namespace eight::detail {

#if defined(__cpp_lib_atomic_ref)
template <typename T>
using AtomicRef = std::atomic_ref<T>;
#else
// REQUIRES: T is an integer type, and the object outlives the reference.
template <typename T>
class AtomicRef {
 public:
  explicit AtomicRef(T& object) : p_(&object) {}
  T load(std::memory_order order) const { return __atomic_load_n(p_, to_builtin(order)); }
  T fetch_and(T bits, std::memory_order order) const {
    return __atomic_fetch_and(p_, bits, to_builtin(order));
  }
  T fetch_or(T bits, std::memory_order order) const {
    return __atomic_fetch_or(p_, bits, to_builtin(order));
  }

 private:
  static constexpr int to_builtin(std::memory_order order) {
    switch (order) {
      case std::memory_order_relaxed:
        return __ATOMIC_RELAXED;
      case std::memory_order_consume:
        return __ATOMIC_CONSUME;
      case std::memory_order_acquire:
        return __ATOMIC_ACQUIRE;
      case std::memory_order_release:
        return __ATOMIC_RELEASE;
      case std::memory_order_acq_rel:
        return __ATOMIC_ACQ_REL;
      default:
        return __ATOMIC_SEQ_CST;
    }
  }
  T* p_;
};
#endif

}  // namespace eight::detail
