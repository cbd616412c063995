//! Memory for the repetition rule: the positions since the last capture (or the start).
//!
//! A game state is copied at every node of perft, alpha-beta, MCTS and the Gumbel search, so
//! this memory must cost nothing to copy: the keys live **inline**, in a fixed array of
//! [`INLINE`] keys, and a state never allocates while it holds no more than that many
//! positions since the last capture (nearly every position of every variant: a capture
//! empties the memory). Past that, the full inline block moves into a shared, immutable
//! chunk behind an `Arc` (one allocation per [`INLINE`] positions, which every copy of the state
//! then shares without allocating: a copy adds one to the chunk's count), so the memory stays
//! exact however long a game goes without a capture. A recurrence is decided on exact keys
//! (packed positions, not hashes): it is never a false alarm.

use std::sync::Arc;

use crate::rng::mix;

/// Keys kept inline (16 bytes each).
pub const INLINE: usize = 16;

/// Position keys seen since the last capture. The game ends at the first recurrence (docs/rules.md 9).
/// A one-word Bloom filter of all the keys lets most new positions skip the scan.
#[derive(Clone, Debug)]
pub struct Repetition {
    /// The newest keys; `inline[..len]` are in use.
    inline: [u128; INLINE],
    len: u8,
    /// Bit `bloom_bit(k)` is set for every remembered key `k`.
    bloom: u64,
    /// Older keys, when more than [`INLINE`] were remembered since the last restart.
    older: Option<Arc<Spilled>>,
}

/// A full inline block of keys, moved out of the state, and the blocks before it.
#[derive(Debug)]
struct Spilled {
    keys: [u128; INLINE],
    older: Option<Arc<Spilled>>,
}

impl Default for Repetition {
    fn default() -> Self {
        Repetition {
            inline: [0; INLINE],
            len: 0,
            bloom: 0,
            older: None,
        }
    }
}

/// The Bloom-filter bit of `key`: a multiplicative hash of both halves, top 6 bits.
#[inline]
fn bloom_bit(key: u128) -> u64 {
    let h =
        (key as u64 ^ (key >> 64) as u64 ^ (key >> 96) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    1 << (h >> 58)
}

/// A 64-bit hash of one remembered key, for [`Repetition::fingerprint`].
#[inline]
fn key_hash(key: u128) -> u64 {
    mix(key as u64 ^ mix((key >> 64) as u64 ^ 0x5851_f42d_4c95_7f2d))
}

impl Repetition {
    /// Forgets everything and remembers `key` (after a capture, or at the start).
    #[inline]
    pub fn restart(&mut self, key: u128) {
        self.inline[0] = key;
        self.len = 1;
        self.bloom = bloom_bit(key);
        self.older = None;
    }

    /// A hash of the remembered positions as a set (their order does not matter: which of
    /// them a game can still recur to decides its future, not the order they came in). Two
    /// games on the same board with different memories can end differently; a transposition
    /// table keys them apart by this. Computed when asked (alpha-beta asks once a node), so
    /// that playing a move, which every env step and rollout does, costs nothing more.
    pub fn fingerprint(&self) -> u64 {
        let spilled = self.spilled().flat_map(|b| &b.keys);
        self.inline[..self.len as usize]
            .iter()
            .chain(spilled)
            .fold(0, |h, &k| h ^ key_hash(k))
    }

    /// Remembers `key`; returns `true` if it was already seen since the last restart.
    #[inline]
    pub fn recurs(&mut self, key: u128) -> bool {
        let bit = bloom_bit(key);
        if self.bloom & bit != 0 && self.contains(key) {
            return true;
        }
        self.bloom |= bit;
        self.push(key);
        false
    }

    /// Whether `key` is remembered (exact).
    fn contains(&self, key: u128) -> bool {
        self.inline[..self.len as usize].contains(&key)
            || self.spilled().any(|b| b.keys.contains(&key))
    }

    /// The spilled blocks, newest first.
    fn spilled(&self) -> impl Iterator<Item = &Spilled> {
        std::iter::successors(self.older.as_deref(), |b| b.older.as_deref())
    }

    #[inline]
    fn push(&mut self, key: u128) {
        if self.len as usize == INLINE {
            self.older = Some(Arc::new(Spilled {
                keys: self.inline,
                older: self.older.take(),
            }));
            self.len = 0;
        }
        self.inline[self.len as usize] = key;
        self.len += 1;
    }

    /// The remembered keys, oldest first.
    fn keys(&self) -> Vec<u128> {
        let blocks: Vec<&Spilled> = self.spilled().collect();
        let mut out: Vec<u128> = blocks.iter().rev().flat_map(|b| b.keys).collect();
        out.extend_from_slice(&self.inline[..self.len as usize]);
        out
    }

    /// Number of positions remembered.
    pub fn len(&self) -> usize {
        self.len as usize + INLINE * self.spilled().count()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Two memories are equal when they remember the same keys in the same order (the unused
/// inline slots and how the keys are split into blocks do not matter).
impl PartialEq for Repetition {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.keys() == other.keys()
    }
}

impl Eq for Repetition {}

/// Written as the remembered keys, oldest first.
impl serde::Serialize for Repetition {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.keys())
    }
}

/// Read from the keys, oldest first; a key twice is refused (the game would have ended at its
/// recurrence).
impl<'de> serde::Deserialize<'de> for Repetition {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let keys = Vec::<u128>::deserialize(deserializer)?;
        let mut memory = Repetition::default();
        for key in keys {
            if memory.recurs(key) {
                return Err(serde::de::Error::custom(format!(
                    "position key {key:#x} remembered twice"
                )));
            }
        }
        Ok(memory)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serialises_as_its_keys_and_reads_back_the_same_memory() {
        // 40 distinct keys: two spilled blocks and 8 inline, all with u128 bits past 64.
        let mut r = Repetition::default();
        r.restart(1 << 100);
        for k in 1..40u128 {
            assert!(!r.recurs(k << 70 | k));
        }
        let json = serde_json::to_string(&r).unwrap();
        let back: Repetition = serde_json::from_str(&json).unwrap();
        assert_eq!(back, r);
        assert_eq!(back.fingerprint(), r.fingerprint());
        assert_eq!(back.len(), 40);
        // The read memory still decides recurrences, in every block.
        let mut back = back;
        assert!(back.recurs(1 << 100) && back.recurs(3 << 70 | 3) && back.recurs(39 << 70 | 39));
        assert!(!back.recurs(12345));

        let twice = format!("[{}, 7, {}]", 1u128 << 100, 1u128 << 100);
        let err = serde_json::from_str::<Repetition>(&twice).unwrap_err();
        assert!(err.to_string().contains("remembered twice"), "{err}");
    }

    #[test]
    fn the_fingerprint_is_of_the_set_of_keys_remembered() {
        let memory = |keys: &[u128]| {
            let mut r = Repetition::default();
            r.restart(keys[0]);
            for &k in &keys[1..] {
                assert!(!r.recurs(k));
            }
            r.fingerprint()
        };
        // 20 keys: past the inline block, so spilled keys count too.
        let keys: Vec<u128> = (1..=20u128).map(|k| (k << 80) | (k * 7)).collect();
        let mut shuffled = keys.clone();
        shuffled.reverse();
        assert_eq!(memory(&keys), memory(&shuffled));
        assert_ne!(memory(&keys), memory(&keys[..19]));
        // Keys that differ only above bit 64 are told apart.
        assert_ne!(memory(&[1 << 70, 5]), memory(&[1 << 71, 5]));
        // A restart forgets: the memory is then that one key's, whatever came before.
        let mut r = Repetition::default();
        r.restart(3);
        assert!(!r.recurs(4));
        r.restart(9);
        assert_eq!(r.fingerprint(), memory(&[9]));
    }

    /// The rule read literally: a list of every key since the restart.
    fn reference(keys: &[u128]) -> Vec<bool> {
        (0..keys.len())
            .map(|i| keys[..i].contains(&keys[i]))
            .collect()
    }

    #[test]
    fn recurrences_are_exact_past_the_inline_keys() {
        // 100 keys from a small set, so recurrences happen early and late, inline and in the
        // spilled blocks.
        let keys: Vec<u128> = (0..100u128)
            .map(|i| ((i * 7919 % 61) << 64) | (i % 3))
            .collect();
        let mut r = Repetition::default();
        r.restart(keys[0]);
        let seen: Vec<bool> = std::iter::once(false)
            .chain(keys[1..].iter().map(|&k| r.recurs(k)))
            .collect();
        assert_eq!(seen, reference(&keys));
        let distinct: std::collections::HashSet<_> = keys.iter().collect();
        assert_eq!(
            r.len(),
            distinct.len(),
            "a recurring key is not stored twice"
        );
    }

    #[test]
    fn copies_are_independent_after_a_spill() {
        let mut a = Repetition::default();
        a.restart(0);
        for k in 1..=(2 * INLINE as u128 + 3) {
            assert!(!a.recurs(k));
        }
        let mut b = a.clone();
        assert_eq!(a, b);
        assert!(!b.recurs(1000));
        assert!(!a.recurs(2000), "a does not see b's key");
        assert!(a.recurs(1), "the oldest, spilled key is still remembered");
        assert!(!b.recurs(2000) && b.recurs(1000));
        assert_ne!(a, b);
        b.restart(5);
        assert_eq!(b.len(), 1);
        assert!(!b.recurs(1), "a restart forgets the spilled keys");
        assert!(a.recurs(2 * INLINE as u128 + 3));
    }

    #[test]
    fn equality_ignores_unused_slots() {
        let mut a = Repetition::default();
        a.restart(1);
        for k in 2..10 {
            a.recurs(k);
        }
        a.restart(3);
        let mut b = Repetition::default();
        b.restart(3);
        assert_eq!(a, b);
    }
}
