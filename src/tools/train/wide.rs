//! The trainer's loops on the widest vectors the CPU has, with the same arithmetic.
//!
//! The trainer's inner loops are plain Rust that the compiler turns into vector
//! instructions: 4 floats wide in a portable x86-64 build. [`wide_fn!`] compiles a
//! function's body a second time for AVX2 (8 wide) and runs that copy where the
//! running CPU has AVX2. Only the vectors' width changes: the same additions and
//! multiplications in the same order, no fused multiply-add (which rounds once
//! instead of twice), and sums across a row stay in their fixed partial sums
//! (`net::LANES`). So a run gives the same net to the bit on any x86-64 CPU, with
//! AVX2 or without (a test checks it), and a whole run is about 1.4× faster with it.
//! AVX-512 was tried the same way and gained nothing over AVX2.

/// `fn name(args) [-> R]` that runs `here(args)`, compiled for AVX2 when the running
/// CPU has it. `here` must be `#[inline(always)]`, and so must whatever it calls
/// in its loops: only code inlined into the AVX2 copy is compiled for AVX2 (a
/// closure passed to a generic AVX2 function was measured not to be).
macro_rules! wide_fn {
    ($(#[$meta:meta])* $vis:vis fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $(-> $ret:ty)? = $here:path) => {
        $(#[$meta])*
        $vis fn $name($($arg: $ty),*) $(-> $ret)? {
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                #[target_feature(enable = "avx2")]
                fn avx2($($arg: $ty),*) $(-> $ret)? {
                    $here($($arg),*)
                }
                // SAFETY: the CPU has AVX2, checked just above.
                return unsafe { avx2($($arg),*) };
            }
            $here($($arg),*)
        }
    };
}
pub(super) use wide_fn;
