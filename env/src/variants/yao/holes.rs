//! One player's 16 holes (*nyumba*) of the Yao board, the circuit he sows round, and the
//! sowing primitive. The holes are the 16 byte lanes of a `u128`, in **loop order**:
//!
//! ```text
//!  lane:        0   1   2   3   4   5   6   7          front row, from the owner's left
//!  front row:   Ra  Rb  Oa  Ob  V   Od  Rc  Rd
//!  back row:    A   B   C   D   E   F   G   H          back row, from the owner's left
//!  lane:        15  14  13  12  11  10  9   8
//! ```
//! Going **clockwise** (as the owner sees his two rows) is lane + 1: rightwards along the front
//! row, leftwards along the back row, and round again (rules XVI, XVII). A hole holds at most 64
//! men, so a lane never overflows and a whole row can be tested at once.

/// Holes in one row.
pub const ROW: usize = 8;
/// Holes in one player's circuit (front and back row).
pub const LOOP: usize = 16;
/// The lane of the village (*mji*), the fourth hole from the right of the front row.
pub const VILLAGE: usize = 4;

const ONES: u128 = u128::from_le_bytes([1; 16]);
const ROW_ONES: u64 = u64::from_le_bytes([1; 8]);
const ROW_HIGH: u64 = ROW_ONES << 7;

/// The two ways round a player's circuit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Dir {
    /// Lane + 1: rightwards in the front row, leftwards in the back row.
    Clockwise,
    /// Lane − 1: leftwards in the front row, rightwards in the back row.
    Anticlockwise,
}

impl Dir {
    /// The direction that moves `rightwards` (as the owner sees it) along the row of `lane`.
    #[inline]
    pub fn along(lane: usize, rightwards: bool) -> Dir {
        if (lane < ROW) == rightwards {
            Dir::Clockwise
        } else {
            Dir::Anticlockwise
        }
    }

    /// The lane after `lane` in this direction.
    #[inline]
    pub fn step(self, lane: usize) -> usize {
        match self {
            Dir::Clockwise => (lane + 1) % LOOP,
            Dir::Anticlockwise => (lane + LOOP - 1) % LOOP,
        }
    }
}

/// The lane of back-row hole `b` (0 = A … 7 = H).
#[inline]
pub const fn back_lane(b: usize) -> usize {
    LOOP - 1 - b
}

/// One player's 16 holes; lane `i` holds the men of loop position `i`.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct Holes(pub u128);

impl Holes {
    /// The men in `lane`.
    #[inline]
    pub fn get(self, lane: usize) -> u8 {
        (self.0 >> (8 * lane)) as u8
    }

    /// Puts `n` more men into `lane`.
    #[inline]
    pub fn add(&mut self, lane: usize, n: u8) {
        self.0 += (n as u128) << (8 * lane);
    }

    /// Takes `n` men out of `lane` (which holds at least `n`).
    #[inline]
    pub fn remove(&mut self, lane: usize, n: u8) {
        self.0 -= (n as u128) << (8 * lane);
    }

    /// Empties `lane` and returns what it held.
    #[inline]
    pub fn lift(&mut self, lane: usize) -> u8 {
        let n = self.get(lane);
        self.0 &= !(0xff_u128 << (8 * lane));
        n
    }

    /// The front row as eight byte lanes (lane `c` = front hole `c`).
    #[inline]
    pub fn front(self) -> u64 {
        self.0 as u64
    }

    /// The front row as the opponent sees it across the board: lane `c` is the hole facing his
    /// front hole `c` (rule "opposition": front hole `c` faces the other's front hole `7 − c`).
    #[inline]
    pub fn front_facing(self) -> u64 {
        self.front().swap_bytes()
    }

    /// Men in the whole circuit.
    #[inline]
    pub fn total(self) -> u32 {
        (0..LOOP).map(|l| self.get(l) as u32).sum()
    }

    /// Whether some hole holds more than one man (rule XIII, XX).
    #[inline]
    pub fn has_two_or_more(self) -> bool {
        self.0 & !ONES != 0
    }

    /// Drops one man into each of the `n` lanes after `from` going `dir`, round the circuit as
    /// often as needed (the hole sown from is not skipped). Returns the lane of arrival and how
    /// many men it held before the last man was dropped.
    #[inline]
    pub fn sow(&mut self, from: usize, dir: Dir, n: u8) -> (usize, u8) {
        let laps = (n as usize / LOOP) as u128;
        let rest = n as usize % LOOP;
        self.0 += laps * ONES;
        if rest > 0 {
            let run = ONES >> (8 * (LOOP - rest));
            let first = match dir {
                Dir::Clockwise => (from + 1) % LOOP,
                Dir::Anticlockwise => (from + LOOP - rest) % LOOP,
            };
            self.0 += run.rotate_left(8 * first as u32);
        }
        let arrival = match dir {
            Dir::Clockwise => (from + n as usize) % LOOP,
            Dir::Anticlockwise => (from + LOOP * 16 - n as usize) % LOOP,
        };
        (arrival, self.get(arrival) - 1)
    }
}

/// Bit `c` set when byte lane `c` of `row` is non-empty (lanes hold at most 64).
#[inline]
pub fn occupied(row: u64) -> u8 {
    let high = (row + (ROW_HIGH - ROW_ONES)) & ROW_HIGH;
    // Gather the eight high bits into one byte.
    ((high >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lanes(h: Holes) -> Vec<u8> {
        (0..LOOP).map(|l| h.get(l)).collect()
    }

    #[test]
    fn sow_matches_one_man_at_a_time() {
        for n in 1..=40u8 {
            for from in 0..LOOP {
                for dir in [Dir::Clockwise, Dir::Anticlockwise] {
                    let mut fast = Holes(0x0102_0300_0000_0500_0001_0000_0200_0003);
                    let mut slow = lanes(fast);
                    let (arrival, before) = fast.sow(from, dir, n);
                    let mut at = from;
                    let mut last_before = slow[from];
                    for _ in 0..n {
                        at = dir.step(at);
                        last_before = slow[at];
                        slow[at] += 1;
                    }
                    assert_eq!(lanes(fast), slow, "n {n} from {from} {dir:?}");
                    assert_eq!((arrival, before), (at, last_before), "n {n} from {from}");
                }
            }
        }
    }

    #[test]
    fn occupied_marks_non_empty_lanes() {
        let row = u64::from_le_bytes([0, 1, 0, 64, 7, 0, 0, 2]);
        assert_eq!(occupied(row), 0b1001_1010);
        assert_eq!(occupied(0), 0);
        assert_eq!(occupied(u64::from_le_bytes([64; 8])), 0xff);
    }

    #[test]
    fn directions_follow_the_rows() {
        // Rightwards in the front row is clockwise; rightwards in the back row is anticlockwise.
        assert_eq!(Dir::along(3, true), Dir::Clockwise);
        assert_eq!(Dir::along(back_lane(3), true), Dir::Anticlockwise);
        assert_eq!(Dir::Clockwise.step(7), back_lane(7)); // Rd → H
        assert_eq!(Dir::Clockwise.step(back_lane(0)), 0); // A → Ra
        assert_eq!(Dir::Anticlockwise.step(0), back_lane(0)); // Ra → A
    }

    #[test]
    fn two_or_more_and_facing() {
        assert!(!Holes(ONES).has_two_or_more());
        let mut h = Holes(0);
        h.add(9, 2);
        assert!(h.has_two_or_more());
        let mut f = Holes(0);
        f.add(0, 5);
        assert_eq!(f.front_facing() >> 56, 5);
        assert_eq!(f.lift(0), 5);
        assert_eq!(f, Holes(0));
    }
}
