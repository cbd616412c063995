//! The 2 × 6 board and the sowing and capture primitives that the variants share.
//!
//! ```text
//!  North (player 1):  pit 11  10   9   8   7   6      <- North's own left is pit 6
//!  South (player 0):  pit  0   1   2   3   4   5      <- South's own left is pit 0
//! ```
//! Sowing is counter-clockwise, `next(i) = (i + 1) mod 12`; `opposite(i) = 11 - i`.

use crate::player::Player;

/// Number of pits on a 2 × 6 board.
pub const PITS: usize = 12;
/// Pits in one row.
pub const ROW: usize = 6;

/// Seeds per pit, indexed by absolute pit number 0..12.
pub type Pits = [u8; PITS];

/// The pit after `i` in sowing order.
#[inline]
pub const fn next(i: usize) -> usize {
    if i == PITS - 1 {
        0
    } else {
        i + 1
    }
}

/// The pit facing `i` across the board.
#[inline]
pub const fn opposite(i: usize) -> usize {
    PITS - 1 - i
}

/// The player whose home row holds pit `i`.
#[inline]
pub const fn row_owner(i: usize) -> Player {
    if i < ROW {
        Player::South
    } else {
        Player::North
    }
}

/// The absolute pit of `p`'s `k`-th pit counted from his own left (`k` may run past his row:
/// the relay variants number all 12 pits from the mover's left).
#[inline]
pub const fn pit_of(p: Player, k: usize) -> usize {
    (ROW * p.index() + k) % PITS
}

/// The pits of `p`'s home row.
#[inline]
pub const fn row(p: Player) -> std::ops::Range<usize> {
    let start = ROW * p.index();
    start..start + ROW
}

/// Seeds in `p`'s home row.
#[inline]
pub fn row_sum(pits: &Pits, p: Player) -> u8 {
    pits[row(p)].iter().sum()
}

/// Whether a sowing of 12 or more seeds drops a seed back into the pit it was lifted from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OriginSkip {
    /// The pit lifted for this single sowing is never sown into (Abapa, OpenSpiel).
    Origin,
    /// A sowing of ≥ 12 seeds drops a seed back into its origin.
    None,
}

/// One single-lap sowing: lift every seed of `from` and drop them one by one counter-clockwise.
/// `on_drop` sees the pits after each drop. Returns the pit that received the last seed.
/// `from` must not be empty.
#[inline]
pub fn sow(
    pits: &mut Pits,
    from: usize,
    skip: OriginSkip,
    mut on_drop: impl FnMut(&Pits),
) -> usize {
    let mut hand = pits[from];
    debug_assert!(hand > 0, "sowing from the empty pit {from}");
    pits[from] = 0;
    let mut pos = from;
    while hand > 0 {
        pos = next(pos);
        if pos == from && skip == OriginSkip::Origin {
            continue;
        }
        pits[pos] += 1;
        hand -= 1;
        on_drop(pits);
    }
    pos
}

/// The pits as the low 12 byte lanes of a `u128` (lane `i` = pit `i`).
#[inline]
pub fn to_lanes(pits: &Pits) -> u128 {
    let mut bytes = [0u8; 16];
    bytes[..PITS].copy_from_slice(pits);
    u128::from_le_bytes(bytes)
}

/// The pits held in the low 12 byte lanes of `lanes`.
#[inline]
pub fn from_lanes(lanes: u128) -> Pits {
    let bytes = lanes.to_le_bytes();
    let mut pits = [0u8; PITS];
    pits.copy_from_slice(&bytes[..PITS]);
    pits
}

/// One in every pit's lane.
const ALL_LANES: u128 = (1u128 << (8 * PITS)) / 0xff;

/// `RUN[from][k]`: one in the lanes of the `k` pits after `from` in sowing order.
const RUN: [[u128; PITS]; PITS] = {
    let mut table = [[0u128; PITS]; PITS];
    let mut from = 0;
    while from < PITS {
        let mut k = 1;
        while k < PITS {
            table[from][k] = table[from][k - 1] | 1u128 << (8 * ((from + k) % PITS));
            k += 1;
        }
        from += 1;
    }
    table
};

/// The same single-lap sowing as [`sow`], without reporting each drop: the whole laps and
/// the remaining run are added to every pit at once, as byte lanes of one 128-bit integer.
/// Returns the pit that received the last seed. `from` must not be empty.
#[inline]
pub fn sow_quick(pits: &mut Pits, from: usize, skip: OriginSkip) -> usize {
    let seeds = pits[from] as usize;
    debug_assert!(seeds > 0, "sowing from the empty pit {from}");
    let last = last_pit(pits, from, skip);
    let origin = 1u128 << (8 * from);
    let (lap, lap_lanes) = match skip {
        OriginSkip::Origin => (PITS - 1, ALL_LANES & !origin),
        OriginSkip::None => (PITS, ALL_LANES),
    };
    let lanes = (to_lanes(pits) & !(0xff * origin))
        + (seeds / lap) as u128 * lap_lanes
        + RUN[from][seeds % lap];
    *pits = from_lanes(lanes);
    last
}

/// Where a single-lap sowing from `from` would end, without sowing.
#[inline]
pub fn last_pit(pits: &Pits, from: usize, skip: OriginSkip) -> usize {
    let seeds = pits[from] as usize;
    let step = match skip {
        // Each full lap drops 11 seeds and passes the origin without a drop.
        OriginSkip::Origin => seeds + (seeds - 1) / (PITS - 1),
        OriginSkip::None => seeds,
    };
    (from + step) % PITS
}

/// The 2-or-3 capture chain: starting at `last` and walking backwards (toward the opponent's
/// first pit, never leaving `victim`'s row), take every pit holding 2 or 3 seeds until one does
/// not, or `max_pits` pits were taken. Returns the number of seeds taken.
#[inline]
pub fn capture_chain(pits: &mut Pits, last: usize, victim: Player, max_pits: Option<u8>) -> u8 {
    let first = row(victim).start;
    let mut k = last;
    let mut taken = 0u8;
    let mut pits_taken = 0u8;
    loop {
        if !(2..=3).contains(&pits[k]) || max_pits.is_some_and(|m| pits_taken >= m) {
            break;
        }
        taken += pits[k];
        pits[k] = 0;
        pits_taken += 1;
        if k == first {
            break;
        }
        k -= 1;
    }
    taken
}

/// Whether a 2-or-3 capture ending at `last` would take every seed `victim` has
/// (OpenSpiel `IsGrandSlam`): the pits after `last` in his row are empty and those from his
/// first pit up to `last` all hold 2 or 3.
#[inline]
pub fn is_grand_slam(pits: &Pits, last: usize, victim: Player) -> bool {
    let r = row(victim);
    pits[last + 1..r.end].iter().all(|&s| s == 0)
        && pits[r.start..=last].iter().all(|&s| (2..=3).contains(&s))
}

/// The pits packed 6 bits each into the low 72 bits of a `u128` (every pit holds ≤ 63 seeds).
#[inline]
pub fn pack(pits: &Pits) -> u128 {
    pits.iter().fold(0u128, |acc, &s| acc << 6 | s as u128)
}

/// The label of the mover's pit `k` (`A`–`F` for South, `a`–`f` for North), as OpenSpiel prints.
pub fn pit_label(p: Player, k: usize) -> char {
    let base = if p == Player::South { b'A' } else { b'a' };
    (base + k as u8) as char
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sow_skips_the_origin_on_a_full_lap() {
        let mut pits = [0u8; 12];
        pits[2] = 12;
        let last = sow(&mut pits, 2, OriginSkip::Origin, |_| {});
        assert_eq!(pits[2], 0);
        assert_eq!(pits[3], 2);
        assert_eq!(last, 3);
        assert_eq!(
            last_pit(
                &[0, 0, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                2,
                OriginSkip::Origin
            ),
            3
        );
    }

    #[test]
    fn sow_without_skip_drops_into_the_origin() {
        let mut pits = [0u8; 12];
        pits[2] = 12;
        let last = sow(&mut pits, 2, OriginSkip::None, |_| {});
        assert_eq!(pits, [1; 12]);
        assert_eq!(last, 2);
        assert_eq!(
            last_pit(&[0, 0, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0], 2, OriginSkip::None),
            2
        );
    }

    #[test]
    fn last_pit_agrees_with_sow() {
        for seeds in 1..=40u8 {
            for from in 0..12 {
                for skip in [OriginSkip::Origin, OriginSkip::None] {
                    let mut pits = [0u8; 12];
                    pits[from] = seeds;
                    let want = last_pit(&pits, from, skip);
                    assert_eq!(
                        sow(&mut pits, from, skip, |_| {}),
                        want,
                        "{seeds} from {from} {skip:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn sow_quick_agrees_with_sow() {
        for seeds in 1..=60u8 {
            for from in 0..12 {
                for skip in [OriginSkip::Origin, OriginSkip::None] {
                    let mut pits = [0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5];
                    pits[from] = seeds;
                    let mut quick = pits;
                    let last = sow(&mut pits, from, skip, |_| {});
                    assert_eq!(sow_quick(&mut quick, from, skip), last);
                    assert_eq!(quick, pits, "{seeds} from {from} {skip:?}");
                }
            }
        }
    }

    #[test]
    fn capture_chain_stops_at_the_row_start_and_at_the_limit() {
        let mut pits = [0, 0, 0, 0, 0, 0, 2, 3, 2, 3, 2, 3];
        assert_eq!(
            capture_chain(&mut pits.clone(), 11, Player::North, None),
            15
        );
        assert_eq!(capture_chain(&mut pits, 11, Player::North, Some(5)), 13);
        assert_eq!(pits[6], 2);
    }
}
