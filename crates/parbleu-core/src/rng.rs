//! A small counter-based PRNG: one independent stream per resample.

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output function (Stafford's Mix13), a bijection on `u64`.
#[inline]
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// What a random stream is used for: streams of different domains never coincide.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Domain {
    /// Bootstrap resample indices.
    Bootstrap = 1,
    /// Approximate-randomization masks.
    Ar = 2,
    /// Meta-evaluation permutation masks (PERM-BOTH).
    Meta = 3,
}

/// SplitMix64 (Steele, Lea and Flood 2014): 64 bits of state, passes BigCrush, and cheap to
/// seed, which makes one independent stream per resample practical.
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator started at `seed` (every `u64`, 0 included, is a distinct seed).
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The stream of resample or trial `index` under `seed`: a pure function of its arguments.
    pub fn stream(seed: u64, domain: Domain, index: u64) -> Self {
        let key = mix64(seed ^ mix64(domain as u64));
        SplitMix64::new(mix64(key ^ mix64(index.wrapping_add(GOLDEN))))
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN);
        mix64(self.state)
    }

    /// A uniform integer in `0..n` (`n > 0`), without modulo bias (Lemire 2019).
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        let mut m = u128::from(self.next_u64()) * u128::from(n);
        let mut low = m as u64;
        if low < n {
            let threshold = n.wrapping_neg() % n;
            while low < threshold {
                m = u128::from(self.next_u64()) * u128::from(n);
                low = m as u64;
            }
        }
        (m >> 64) as u64
    }
}
