// core/kd_opts.h — Table 13.1's kd-tree build optimizations [A]-[E] as one
// set: the option (accel.kd_a .. kd_e, accel.kd_opts), the builders' switch
// and the table rows' names are this one type.
#pragma once

#include <cstdint>
#include <string>

#include "core/hd.h"

namespace strata {

// Table 13.1's build optimizations [A]-[E] as one set; empty: Zhou08's
// "Original" (the chapter's name), all five: "All".
struct KdOpts {
    enum Bit : uint8_t { A = 1, B = 2, C = 4, D = 8, E = 16 };
    uint8_t bits = 0;

    static constexpr KdOpts all() { return KdOpts{31}; }
    static constexpr KdOpts fromMask(unsigned m) { return KdOpts{uint8_t(m & 31u)}; }
    STRATA_HD constexpr bool has(Bit b) const { return (bits & b) != 0; }
    constexpr void set(Bit b, bool on) { bits = uint8_t(on ? bits | b : bits & ~unsigned(b)); }
    std::string letters() const;  // "ACE"; "none" for the empty set (accel.kd_opts' text)
    std::string name() const;     // "Original", "A", ..., "ABCDE" (Table 13.2's rows)
    bool operator==(const KdOpts& o) const { return bits == o.bits; }
    bool operator!=(const KdOpts& o) const { return bits != o.bits; }
};

}  // namespace strata
