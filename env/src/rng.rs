//! A tiny, fast, seedable random number generator for the hot paths (random play, rollouts,
//! the vectorised env's per-game streams) — not for cryptography.
//!
//! [`Rng`] is wyrand (Wang Yi's `wyrand`): one 64-bit add and one 64 × 64 → 128-bit multiply per
//! draw. [`Rng::stream`] derives independent streams from a seed and any number of indices
//! (SplitMix64 finalisers), so game `i` of episode `e` gets the same numbers whatever thread
//! runs it.
//!
//! ```
//! use ayo_env::rng::Rng;
//! let mut a = Rng::stream(7, &[3, 0]);
//! let mut b = Rng::stream(7, &[3, 0]);
//! assert_eq!(a.below(6), b.below(6));
//! assert_ne!(Rng::stream(7, &[3, 0]).next_u64(), Rng::stream(7, &[3, 1]).next_u64());
//! ```

use crate::action::{Action, ActionMask};

/// The wyrand generator. `Copy`, 8 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Rng(mix(seed))
    }

    /// The stream for `seed` and `indices` (e.g. `[game, episode]`): each index is mixed in
    /// with a SplitMix64 finaliser, so neighbouring indices give unrelated streams.
    pub fn stream(seed: u64, indices: &[u64]) -> Self {
        let mut h = mix(seed ^ 0x243f_6a88_85a3_08d3);
        for &i in indices {
            h = mix(h ^ mix(i.wrapping_add(0x9e37_79b9_7f4a_7c15)));
        }
        Rng(h)
    }

    /// The generator's whole state (a later [`Rng::from_state`] goes on from here).
    pub fn state(&self) -> u64 {
        self.0
    }

    /// A generator that goes on from `state`, as given by [`Rng::state`].
    pub fn from_state(state: u64) -> Self {
        Rng(state)
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0xa076_1d64_78bd_642f);
        let t = (self.0 as u128).wrapping_mul((self.0 ^ 0xe703_7ed1_a0b4_28db) as u128);
        (t >> 64) as u64 ^ t as u64
    }

    /// A uniform integer in `0..n` (`n > 0`), by Lemire's multiply-high (bias < n / 2⁶⁴).
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        (((self.next_u64() >> 32) * n as u64) >> 32) as u32
    }

    /// A uniform float in `[0, 1)`.
    #[inline]
    pub fn unit_f32(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 * (1.0 / (1u64 << 24) as f32)
    }

    /// A uniformly chosen action of a non-empty mask: the `n`-th set bit (by table lookup when
    /// the mask lies in the low 8 actions, as in most 2 × 6 positions).
    #[inline]
    pub fn pick(&mut self, mask: ActionMask) -> Action {
        if mask.0 < 256 {
            let byte = mask.0 as usize;
            let n = self.below(BYTE_COUNT[byte] as u32);
            return BYTE_SELECT[byte][n as usize];
        }
        let n = self.below(mask.count());
        mask.nth(n).expect("pick from an empty mask")
    }

    /// Shuffles `items` in place (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            items.swap(i, j);
        }
    }
}

/// Set bits of each byte.
const BYTE_COUNT: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = (b as u8).count_ones() as u8;
        b += 1;
    }
    t
};

/// `BYTE_SELECT[b][n]`: the position of the `n`-th set bit of byte `b`.
const BYTE_SELECT: [[u8; 8]; 256] = {
    let mut t = [[0u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let (mut bit, mut n) = (0, 0);
        while bit < 8 {
            if b >> bit & 1 == 1 {
                t[b][n] = bit as u8;
                n += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    t
};

/// SplitMix64's finaliser: a bijective 64-bit mixer.
#[inline]
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_stays_in_range_and_hits_every_value() {
        let mut r = Rng::new(1);
        let mut seen = [0u32; 6];
        for _ in 0..6000 {
            seen[r.below(6) as usize] += 1;
        }
        assert!(seen.iter().all(|&c| (800..1200).contains(&c)), "{seen:?}");
    }

    #[test]
    fn pick_returns_every_member_of_the_mask_and_nothing_else() {
        let mut r = Rng::new(2);
        for m in [[1, 4, 9], [0, 3, 5], [7, 40, 63]] {
            let mask: ActionMask = m.into_iter().collect();
            let mut seen = ActionMask::EMPTY;
            for _ in 0..100 {
                let a = r.pick(mask);
                assert!(mask.contains(a), "{a} from {m:?}");
                seen.insert(a);
            }
            assert_eq!(seen, mask);
        }
    }
}
