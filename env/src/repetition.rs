//! Memory for the repetition rule: the positions since the last capture (or the start).

/// Position keys seen since the last capture. The game ends at the first recurrence (RULES.md 9).
/// Keys are exact (packed positions), not hashes, so a recurrence is never a false alarm.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Repetition {
    seen: Vec<u128>,
}

impl Repetition {
    /// Forgets everything and remembers `key` (after a capture, or at the start).
    #[inline]
    pub fn restart(&mut self, key: u128) {
        self.seen.clear();
        self.seen.push(key);
    }
    /// Remembers `key`; returns `true` if it was already seen since the last restart.
    #[inline]
    pub fn recurs(&mut self, key: u128) -> bool {
        if self.seen.contains(&key) {
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
