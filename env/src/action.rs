//! Actions and legal-action masks.
//!
//! An action is a small integer in the variant's fixed action space (at most 64 actions),
//! relative to the mover (docs/rules.md section 1): in 2 × 6 games action `a < 6` is the mover's
//! `a`-th pit counted from his own left. Extra action kinds (odu, J'erin's opening, Yao's
//! sub-decisions) have documented indices after the pit actions.

/// An action index in a variant's action space.
pub type Action = u8;

/// A set of actions as a bit mask: bit `a` is set when action `a` is legal.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct ActionMask(pub u64);

impl ActionMask {
    pub const EMPTY: ActionMask = ActionMask(0);

    #[inline]
    pub fn contains(self, a: Action) -> bool {
        (a as u32) < 64 && self.0 >> a & 1 == 1
    }
    #[inline]
    pub fn insert(&mut self, a: Action) {
        self.0 |= 1 << a;
    }
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    #[inline]
    pub fn count(self) -> u32 {
        self.0.count_ones()
    }
    /// The `n`-th legal action in increasing order (`n < count()`).
    #[inline]
    pub fn nth(self, mut n: u32) -> Option<Action> {
        let mut bits = self.0;
        while bits != 0 {
            let a = bits.trailing_zeros();
            if n == 0 {
                return Some(a as Action);
            }
            n -= 1;
            bits &= bits - 1;
        }
        None
    }
    /// The legal actions in increasing order.
    pub fn iter(self) -> impl Iterator<Item = Action> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                None
            } else {
                let a = bits.trailing_zeros() as Action;
                bits &= bits - 1;
                Some(a)
            }
        })
    }
    pub fn to_vec(self) -> Vec<Action> {
        self.iter().collect()
    }
}

impl FromIterator<Action> for ActionMask {
    fn from_iter<I: IntoIterator<Item = Action>>(iter: I) -> Self {
        let mut m = ActionMask::EMPTY;
        for a in iter {
            m.insert(a);
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn mask_iterates_in_order() {
        let m: ActionMask = [5, 0, 2].into_iter().collect();
        assert_eq!(m.to_vec(), vec![0, 2, 5]);
        assert_eq!(m.nth(1), Some(2));
        assert_eq!(m.nth(3), None);
        assert!(m.contains(5) && !m.contains(1) && !m.contains(200));
    }
}
