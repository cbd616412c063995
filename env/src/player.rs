//! The two players and values held per player.

use serde::{Deserialize, Serialize};
use std::ops::Not;

/// A player. `South` (player 0) owns pits 0..=5 and moves first unless told otherwise;
/// `North` (player 1) owns pits 6..=11.
///
/// ```text
///  North (player 1):  pit 11  10   9   8   7   6
///  South (player 0):  pit  0   1   2   3   4   5
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Player {
    South = 0,
    North = 1,
}

impl Player {
    pub const BOTH: [Player; 2] = [Player::South, Player::North];

    /// The player's index, 0 or 1.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The player with index `i` (0 or 1).
    #[inline]
    pub fn from_index(i: usize) -> Option<Player> {
        match i {
            0 => Some(Player::South),
            1 => Some(Player::North),
            _ => None,
        }
    }
}

impl Not for Player {
    type Output = Player;
    #[inline]
    fn not(self) -> Player {
        match self {
            Player::South => Player::North,
            Player::North => Player::South,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn not_swaps_players() {
        assert_eq!(!Player::South, Player::North);
        assert_eq!(!!Player::North, Player::North);
    }
}
