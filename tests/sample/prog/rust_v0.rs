// rust_v0.rs: spins for the seconds given (default 0.4) in a method of a
// generic type, so that its symbol under -C symbol-mangling-version=v0 is
// "_RNvMCs<hash>_7rust_v0INtB2_4WorkmE4spin..." and reads
// "<rust_v0::Work<u32>>::spin" demangled. Used by tests/sample/rustv0.t.
use std::time::{Duration, Instant};

struct Work<T>(T);

impl<T: Copy + Into<u64>> Work<T> {
    #[inline(never)]
    fn spin(&self, until: Instant) -> u64 {
        let mut s: u64 = self.0.into();
        while Instant::now() < until {
            for i in 0..100_000u64 {
                // black_box: the loop must not fold into a closed form
                s = std::hint::black_box(s.wrapping_mul(6364136223846793005).wrapping_add(i ^ (s >> 7)));
            }
        }
        s
    }
}

fn main() {
    let secs: f64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(0.4);
    let w = Work(std::process::id());
    let s = w.spin(Instant::now() + Duration::from_secs_f64(secs));
    std::process::exit((s & 1) as i32 * 0);
}
