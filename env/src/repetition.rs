//! Memory for the repetition rule: the positions since the last capture (or the start).

/// Position keys seen since the last capture. The game ends at the first recurrence (docs/rules.md 9).
/// Keys are exact (packed positions), not hashes, so a recurrence is never a false alarm.
/// A one-word Bloom filter of the keys lets most new positions skip the scan of the list.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Repetition {
    seen: Vec<u128>,
    /// Bit `bloom_bit(k)` is set for every remembered key `k`.
    bloom: u64,
}

/// The Bloom-filter bit of `key`: a multiplicative hash of both halves, top 6 bits.
#[inline]
fn bloom_bit(key: u128) -> u64 {
    let h =
        (key as u64 ^ (key >> 64) as u64 ^ (key >> 96) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    1 << (h >> 58)
}

impl Repetition {
    /// Forgets everything and remembers `key` (after a capture, or at the start).
    #[inline]
    pub fn restart(&mut self, key: u128) {
        self.seen.clear();
        self.seen.push(key);
        self.bloom = bloom_bit(key);
    }
    /// Remembers `key`; returns `true` if it was already seen since the last restart.
    #[inline]
    pub fn recurs(&mut self, key: u128) -> bool {
        let bit = bloom_bit(key);
        if self.bloom & bit == 0 {
            self.bloom |= bit;
            self.seen.push(key);
            false
        } else if self.seen.contains(&key) {
            true
        } else {
            self.seen.push(key);
            false
        }
    }
    /// Number of positions remembered.
    pub fn len(&self) -> usize {
        self.seen.len()
    }
    pub fn is_empty(&self) -> bool {
        self.seen.is_empty()
    }
}
