//! The combinatorial index of a table's layer: the boards of `n` seeds in 12 pits, each seen
//! from the player to move (his row first), ranked in lexicographic order with pit 0 the most
//! significant. A layer of `n` seeds has C(n + 11, 11) boards, ranked 0 … C(n + 11, 11) − 1
//! with no gaps, so an entry is found by its rank alone.

use crate::board::{Pits, PITS};

/// The most seeds a board of the two-row games holds.
pub const MAX_SEEDS: usize = 48;

/// The tables of the ranking, built once ([`Index::get`]).
pub struct Index {
    /// `ways[k][n]`: the boards of `n` seeds in `k` pits, C(n + k − 1, k − 1).
    ways: [[u64; MAX_SEEDS + 1]; PITS + 1],
    /// `below[k][n][v]`: the boards of `n` seeds in `k + 1` pits whose first pit holds fewer
    /// than `v` — what a pit holding `v` adds to the rank when `n` seeds are left for it and the
    /// `k` pits after it.
    below: Vec<[[u64; MAX_SEEDS + 1]; MAX_SEEDS + 1]>,
}

impl Index {
    /// The ranking tables, built on first use.
    pub fn get() -> &'static Index {
        static INDEX: std::sync::OnceLock<Index> = std::sync::OnceLock::new();
        INDEX.get_or_init(Index::new)
    }

    fn new() -> Index {
        let mut ways = [[0u64; MAX_SEEDS + 1]; PITS + 1];
        ways[0][0] = 1;
        for k in 1..=PITS {
            for n in 0..=MAX_SEEDS {
                // The first of the k pits holds v = 0 … n seeds.
                ways[k][n] = (0..=n).map(|v| ways[k - 1][n - v]).sum();
            }
        }
        let mut below = vec![[[0u64; MAX_SEEDS + 1]; MAX_SEEDS + 1]; PITS];
        for (k, table) in below.iter_mut().enumerate() {
            for n in 0..=MAX_SEEDS {
                for v in 1..=n {
                    table[n][v] = table[n][v - 1] + ways[k][n - (v - 1)];
                }
            }
        }
        Index { ways, below }
    }

    /// The boards of a layer of `seeds` seeds.
    pub fn boards(&self, seeds: usize) -> u64 {
        self.ways[PITS][seeds]
    }

    /// The rank of `pits` (from the mover's view) among the boards of its layer.
    #[inline]
    pub fn rank(&self, pits: &Pits) -> u64 {
        let mut left = pits.iter().map(|&s| s as usize).sum::<usize>();
        let mut rank = 0;
        for (i, &s) in pits[..PITS - 1].iter().enumerate() {
            rank += self.below[PITS - 1 - i][left][s as usize];
            left -= s as usize;
        }
        rank
    }

    /// The board of rank `rank` in the layer of `seeds` seeds.
    pub fn unrank(&self, mut rank: u64, seeds: usize) -> Pits {
        let mut pits = [0u8; PITS];
        let mut left = seeds;
        for (i, pit) in pits[..PITS - 1].iter_mut().enumerate() {
            let after = PITS - 1 - i;
            let mut v = 0;
            while rank >= self.ways[after][left - v] {
                rank -= self.ways[after][left - v];
                v += 1;
            }
            *pit = v as u8;
            left -= v;
        }
        pits[PITS - 1] = left as u8;
        pits
    }
}

/// The board after `pits` in rank order (the same number of seeds); `None` after the last.
#[inline]
pub fn next_board(pits: &mut Pits) -> bool {
    let Some(last) = (1..PITS).rev().find(|&i| pits[i] > 0) else {
        return false;
    };
    let rest = pits[last];
    pits[last - 1] += 1;
    pits[last] = 0;
    pits[PITS - 1] = rest - 1;
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every layer up to 6 seeds: the ranks of the boards in enumeration order are 0, 1, 2, …,
    /// unrank inverts rank, and the count is C(n + 11, 11) (checked against a direct count).
    #[test]
    fn ranks_are_dense_and_in_enumeration_order() {
        let index = Index::get();
        for n in 0..=6usize {
            let mut pits = [0u8; PITS];
            pits[PITS - 1] = n as u8;
            let mut expected = 0u64;
            loop {
                assert_eq!(index.rank(&pits), expected, "{pits:?}");
                assert_eq!(index.unrank(expected, n), pits);
                expected += 1;
                if !next_board(&mut pits) {
                    break;
                }
            }
            assert_eq!(
                pits[0] as usize, n,
                "the last board holds every seed in pit 0"
            );
            assert_eq!(expected, index.boards(n));
            let binomial = (1..=11u64).fold(1u64, |c, k| c * (n as u64 + k) / k);
            assert_eq!(index.boards(n), binomial);
        }
        assert_eq!(index.boards(24), 417_225_900);
    }
}
