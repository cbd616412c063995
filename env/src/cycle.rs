//! Brent's cycle finder, the one check for walks that may never end: relay sowing (a lift state
//! that recurs), J'odu's legality relays and Yao's chains. Constant memory: it remembers one
//! state, replaced at every power of two of steps, and reports a cycle of length λ entered after
//! μ steps within about `2·max(μ, λ) + λ` steps. A report is exact (a state did recur, and a
//! deterministic walk that repeats a state never ends); only its timing depends on the walk.

/// Brent's cycle finder over the states `K` of a deterministic walk.
#[derive(Clone, Debug)]
pub struct Brent<K> {
    /// The remembered state (none before the first step of a finder made by `default`).
    saved: Option<K>,
    power: u32,
    steps: u32,
}

impl<K> Default for Brent<K> {
    /// A finder that remembers nothing yet: the first state it is shown becomes its first
    /// remembered one.
    fn default() -> Self {
        Brent {
            saved: None,
            power: 1,
            steps: 0,
        }
    }
}

impl<K: Copy + PartialEq> Brent<K> {
    /// A finder whose walk starts at `start`.
    pub fn starting_at(start: K) -> Self {
        Brent {
            saved: Some(start),
            ..Brent::default()
        }
    }

    /// Whether `now`, the walk's next state, is the remembered one, i.e. the walk is in a
    /// cycle; otherwise `now` is remembered when the steps reach the next power of two.
    #[inline]
    pub fn repeats(&mut self, now: K) -> bool {
        if self.saved == Some(now) {
            return true;
        }
        self.steps += 1;
        if self.steps == self.power {
            self.saved = Some(now);
            self.power = self.power.saturating_mul(2);
            self.steps = 0;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::Brent;

    #[test]
    fn a_long_cycle_entered_late_is_found_within_brents_bound() {
        // 1000 steps of tail, then a cycle of 777 states.
        let state = |i: u32| if i < 1000 { i } else { 1000 + (i - 1000) % 777 };
        let mut c = Brent::default();
        let found = (0..10_000).find(|&i| c.repeats(state(i)));
        let at = found.expect("the cycle is found");
        assert!((1777..1000 + 3 * 777 + 2048).contains(&at), "found at {at}");
    }

    #[test]
    fn a_walk_without_a_cycle_is_never_reported() {
        let mut c = Brent::starting_at(0u64);
        assert!((1..100_000u64).all(|i| !c.repeats(i)));
    }

    #[test]
    fn a_walk_back_at_its_start_is_reported_at_once() {
        let mut c = Brent::starting_at(7u8);
        assert!(c.repeats(7));
    }
}
