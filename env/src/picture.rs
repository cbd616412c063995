//! How a board looks: its [`Layout`] (rows of pits from the top of a screen, seen from one
//! player's side of the table, stores or hands beside them) and a picture of a position drawn
//! from it ([`draw`]: RGB pixels, for `render_mode="rgb_array"` in Python and for videos).
//! `ayo serve`'s page draws the same layout in HTML. One layout serves every variant: 2 × 6 with
//! stores (and house ownership for the fours games), Yao's four rows of 8 with men in hand.

use crate::board::{pit_label, row_owner, ROW};
use crate::player::Player;
use crate::rules::{Rules, Snapshot};
use crate::variant::Variant;
use crate::variants::yao;
use serde::Serialize;

/// The label of every pit of the variant's board: `A`–`F`/`a`–`f` on the 2 × 6 boards
/// (as `ayo play` names them), Yao's hole names.
pub fn pit_labels(rules: &Variant) -> Vec<String> {
    let n = rules.snapshot(&rules.start(Player::South)).pits.len();
    if n == 2 * yao::LOOP {
        (0..n)
            .map(|i| yao::hole_name(i % yao::LOOP).to_string())
            .collect()
    } else {
        (0..n)
            .map(|i| pit_label(row_owner(i), i % ROW).to_string())
            .collect()
    }
}

/// How a board is laid out on a screen or a picture: rows of pits from the top, each cell a pit index into
/// [`Snapshot::pits`]; the stores (or hands) of the player at the top and at the bottom.
#[derive(Clone, Debug, Serialize)]
pub struct Layout {
    pub rows: Vec<Vec<Cell>>,
    /// The player whose rows are drawn at the top, and at the bottom.
    pub top: Player,
    pub bottom: Player,
    /// What the stores hold: `seeds` (the fours games: the seeds of the groups taken) or `none`
    /// (Yao, whose men in hand are drawn instead).
    pub store: &'static str,
    /// Whether houses change hands (the fours games): pictures mark each pit's owner.
    pub houses: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct Cell {
    pub pit: usize,
    pub label: String,
    /// The player whose row the pit is in.
    pub row_of: Player,
}

impl Layout {
    /// The board of `rules` seen from `bottom`'s side of the table: 2 × 6 (the top row right
    /// to left, so that sowing runs counter-clockwise), or Yao's four rows (each player's front
    /// rows in the middle, facing each other).
    pub fn of(rules: &Variant, bottom: Player) -> Layout {
        let labels = pit_labels(rules);
        let top = !bottom;
        let cell = |pit: usize, row_of: Player| Cell {
            pit,
            label: labels[pit].clone(),
            row_of,
        };
        let start = rules.snapshot(&rules.start(Player::South));
        if start.pits.len() == 2 * yao::LOOP {
            let row = |p: Player, back: bool, reversed: bool| -> Vec<Cell> {
                let mut cells: Vec<Cell> = (0..yao::ROW)
                    .map(|i| {
                        cell(
                            p.index() * yao::LOOP + if back { yao::ROW + i } else { i },
                            p,
                        )
                    })
                    .collect();
                if reversed {
                    cells.reverse();
                }
                cells
            };
            Layout {
                rows: vec![
                    row(top, true, true),
                    row(top, false, true),
                    row(bottom, false, false),
                    row(bottom, true, false),
                ],
                top,
                bottom,
                store: "none",
                houses: false,
            }
        } else {
            let row = |p: Player| (0..ROW).map(move |k| crate::board::pit_of(p, k));
            Layout {
                rows: vec![
                    row(top).rev().map(|i| cell(i, top)).collect(),
                    row(bottom).map(|i| cell(i, bottom)).collect(),
                ],
                top,
                bottom,
                store: "seeds",
                houses: start.owners.is_some(),
            }
        }
    }
}

/// An RGB picture: `height` rows of `width` pixels, 3 bytes each, row after row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    pub width: usize,
    pub height: usize,
    pub rgb: Vec<u8>,
}

/// What a picture marks besides the board.
#[derive(Clone, Copy, Debug, Default)]
pub struct Marks {
    /// The player to move: a bar along that player's side (none once the game is over).
    pub to_play: Option<Player>,
    /// The pit the last move began at, ringed.
    pub last_pit: Option<usize>,
}

const CELL: usize = 44;
const RADIUS: f32 = 19.0;
const STORE_W: usize = 52;
const MARGIN: usize = 10;
const BAR: usize = 6;
const BACKGROUND: [u8; 3] = [243, 237, 228];
const WOOD: [u8; 3] = [216, 187, 143];
const PIT: [u8; 3] = [233, 211, 176];
const EDGE: [u8; 3] = [138, 102, 66];
const INK: [u8; 3] = [43, 33, 24];
const TURN: [u8; 3] = [192, 57, 43];
const LAST: [u8; 3] = [192, 57, 43];
/// House ownership in the fours games: South green, North blue (as on `ayo serve`'s page).
const OWNER: [[u8; 3]; 2] = [[46, 139, 87], [59, 111, 182]];

/// Digits 0–9, 5 × 7 pixels, one row per byte (bit 4 leftmost).
const DIGITS: [[u8; 7]; 10] = [
    [0x0e, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0e],
    [0x04, 0x0c, 0x04, 0x04, 0x04, 0x04, 0x0e],
    [0x0e, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1f],
    [0x1f, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0e],
    [0x02, 0x06, 0x0a, 0x12, 0x1f, 0x02, 0x02],
    [0x1f, 0x10, 0x1e, 0x01, 0x01, 0x11, 0x0e],
    [0x06, 0x08, 0x10, 0x1e, 0x11, 0x11, 0x0e],
    [0x1f, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08],
    [0x0e, 0x11, 0x11, 0x0e, 0x11, 0x11, 0x0e],
    [0x0e, 0x11, 0x11, 0x0f, 0x01, 0x02, 0x0c],
];

impl Image {
    fn new(width: usize, height: usize) -> Image {
        let rgb = BACKGROUND
            .iter()
            .copied()
            .cycle()
            .take(width * height * 3)
            .collect();
        Image { width, height, rgb }
    }

    fn put(&mut self, x: usize, y: usize, color: [u8; 3]) {
        if x < self.width && y < self.height {
            let i = (y * self.width + x) * 3;
            self.rgb[i..i + 3].copy_from_slice(&color);
        }
    }

    fn rect(&mut self, x: usize, y: usize, w: usize, h: usize, color: [u8; 3]) {
        for yy in y..y + h {
            for xx in x..x + w {
                self.put(xx, yy, color);
            }
        }
    }

    /// A disc of radius `r` around `(cx, cy)` filled with `fill`, its rim `rim` pixels of `edge`.
    fn disc(&mut self, cx: f32, cy: f32, r: f32, fill: [u8; 3], edge: [u8; 3], rim: f32) {
        let (x0, x1) = ((cx - r).floor().max(0.0) as usize, (cx + r).ceil() as usize);
        let (y0, y1) = ((cy - r).floor().max(0.0) as usize, (cy + r).ceil() as usize);
        for y in y0..=y1 {
            for x in x0..=x1 {
                let d = ((x as f32 + 0.5 - cx).powi(2) + (y as f32 + 0.5 - cy).powi(2)).sqrt();
                if d <= r {
                    self.put(x, y, if d > r - rim { edge } else { fill });
                }
            }
        }
    }

    /// `n` in digits of `scale` × (5 × 7) pixels, centred on `(cx, cy)`.
    fn number(&mut self, n: u32, cx: usize, cy: usize, scale: usize) {
        let text = n.to_string();
        let w = text.len() * 6 * scale - scale;
        let (x0, y0) = (cx.saturating_sub(w / 2), cy.saturating_sub(7 * scale / 2));
        for (k, ch) in text.bytes().enumerate() {
            let glyph = DIGITS[(ch - b'0') as usize];
            for (row, bits) in glyph.iter().enumerate() {
                for col in 0..5 {
                    if bits & (0x10 >> col) != 0 {
                        let x = x0 + k * 6 * scale + col * scale;
                        self.rect(x, y0 + row * scale, scale, scale, INK);
                    }
                }
            }
        }
    }
}

/// A picture of `snap` laid out as `layout`: pits as discs labelled with their seeds, the stores
/// (Yao: the men in hand) at the ends as in `ayo serve`'s page, each fours house ringed in its
/// owner's colour, a bar along the side of the player to move and a ring on the last move's pit.
pub fn draw(layout: &Layout, snap: &Snapshot, marks: Marks) -> Image {
    let cols = layout.rows.iter().map(Vec::len).max().unwrap_or(0);
    let rows = layout.rows.len();
    let board_w = cols * CELL;
    let width = 2 * MARGIN + 2 * STORE_W + board_w;
    let height = 2 * MARGIN + 2 * BAR + rows * CELL;
    let mut img = Image::new(width, height);
    let top = MARGIN + BAR;
    img.rect(MARGIN, top, width - 2 * MARGIN, rows * CELL, WOOD);
    if let Some(p) = marks.to_play {
        let y = if p == layout.bottom {
            top + rows * CELL
        } else {
            MARGIN
        };
        img.rect(MARGIN + STORE_W, y, board_w, BAR, TURN);
    }
    let side = if layout.store == "none" {
        snap.hands
    } else {
        snap.stores
    };
    // The top player's store on the left, the bottom player's on the right (counter-clockwise).
    for (player, x) in [
        (layout.top, MARGIN),
        (layout.bottom, width - MARGIN - STORE_W),
    ] {
        let (cx, cy) = (x + STORE_W / 2, top + rows * CELL / 2);
        img.rect(x + 4, top + 6, STORE_W - 8, rows * CELL - 12, EDGE);
        img.rect(x + 6, top + 8, STORE_W - 12, rows * CELL - 16, PIT);
        img.number(side[player.index()], cx, cy, 2);
    }
    for (r, row) in layout.rows.iter().enumerate() {
        for (c, cell) in row.iter().enumerate() {
            let cx = (MARGIN + STORE_W + c * CELL) as f32 + CELL as f32 / 2.0;
            let cy = (top + r * CELL) as f32 + CELL as f32 / 2.0;
            let ring = match &snap.owners {
                Some(owners) if layout.houses => OWNER[owners[cell.pit] as usize % 2],
                _ => EDGE,
            };
            if marks.last_pit == Some(cell.pit) {
                img.disc(cx, cy, RADIUS + 2.0, LAST, LAST, 2.0);
            }
            img.disc(
                cx,
                cy,
                RADIUS,
                PIT,
                ring,
                if layout.houses { 4.0 } else { 2.0 },
            );
            img.number(snap.pits[cell.pit] as u32, cx as usize, cy as usize, 2);
        }
    }
    img
}

/// The picture of a position of `rules` from South's side, with its player to move marked.
pub fn draw_state<R: Rules>(
    rules: &R,
    layout: &Layout,
    state: &R::State,
    last_pit: Option<usize>,
) -> Image {
    let marks = Marks {
        to_play: rules.to_play(state),
        last_pit,
    };
    draw(layout, &rules.snapshot(state), marks)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pixel(img: &Image, x: usize, y: usize) -> [u8; 3] {
        let i = (y * img.width + x) * 3;
        [img.rgb[i], img.rgb[i + 1], img.rgb[i + 2]]
    }

    /// The pixels of the digits drawn in the cell of `pit` (ink inside its disc).
    fn ink_in(img: &Image, layout: &Layout, pit: usize) -> usize {
        let (r, c) = layout
            .rows
            .iter()
            .enumerate()
            .find_map(|(r, row)| row.iter().position(|cell| cell.pit == pit).map(|c| (r, c)))
            .unwrap();
        let (x0, y0) = (MARGIN + STORE_W + c * CELL, MARGIN + BAR + r * CELL);
        (y0 + 10..y0 + CELL - 10)
            .flat_map(|y| (x0 + 10..x0 + CELL - 10).map(move |x| (x, y)))
            .filter(|&(x, y)| pixel(img, x, y) == INK)
            .count()
    }

    #[test]
    fn a_pit_shows_its_seeds_in_digits_and_an_empty_pit_a_zero() {
        let rules: Variant = "oware".parse().unwrap();
        let layout = Layout::of(&rules, Player::South);
        let mut snap = rules.snapshot(&rules.start(Player::South));
        snap.pits[0] = 0;
        snap.pits[1] = 1;
        snap.pits[2] = 8;
        snap.pits[3] = 18;
        let img = draw(&layout, &snap, Marks::default());
        assert_eq!(img.rgb.len(), img.width * img.height * 3);
        // Pixels lit by the 5 × 7 glyphs at scale 2 (4 pixels each): 0 has 19 bits, 1 has 10,
        // 8 has 17, and 18 the bits of 1 and 8.
        assert_eq!(ink_in(&img, &layout, 0), 19 * 4);
        assert_eq!(ink_in(&img, &layout, 1), 10 * 4);
        assert_eq!(ink_in(&img, &layout, 2), 17 * 4);
        assert_eq!(ink_in(&img, &layout, 3), 27 * 4);
    }

    #[test]
    fn the_player_to_move_and_the_last_pit_are_marked_on_their_side() {
        let rules: Variant = "ayo".parse().unwrap();
        let layout = Layout::of(&rules, Player::South);
        let snap = rules.snapshot(&rules.start(Player::South));
        let x = MARGIN + STORE_W + CELL / 2;
        let south = draw(
            &layout,
            &snap,
            Marks {
                to_play: Some(Player::South),
                last_pit: None,
            },
        );
        let bottom_bar = MARGIN + BAR + 2 * CELL + BAR / 2;
        assert_eq!(pixel(&south, x, bottom_bar), TURN);
        assert_eq!(pixel(&south, x, MARGIN + BAR / 2), BACKGROUND);
        let north = draw(
            &layout,
            &snap,
            Marks {
                to_play: Some(Player::North),
                last_pit: Some(0),
            },
        );
        assert_eq!(pixel(&north, x, MARGIN + BAR / 2), TURN);
        assert_eq!(pixel(&north, x, bottom_bar), BACKGROUND);
        assert_ne!(north.rgb, south.rgb);
    }

    #[test]
    fn every_variant_draws_its_own_board() {
        for name in crate::VARIANT_NAMES {
            let rules: Variant = name.parse().unwrap();
            let layout = Layout::of(&rules, Player::South);
            let state = rules.start(Player::South);
            let img = draw_state(&rules, &layout, &state, None);
            let pits: usize = layout.rows.iter().map(Vec::len).sum();
            assert_eq!(
                pits,
                rules.snapshot(&state).pits.len(),
                "{name}: every pit is drawn once"
            );
            let rows = if *name == "yao" { 4 } else { 2 };
            assert_eq!(img.height, 2 * MARGIN + 2 * BAR + rows * CELL, "{name}");
        }
    }

    #[test]
    fn fours_houses_are_ringed_in_their_owners_colour() {
        let rules: Variant = "ncho".parse().unwrap();
        let layout = Layout::of(&rules, Player::South);
        assert!(layout.houses);
        let mut snap = rules.snapshot(&rules.start(Player::South));
        let owners = snap.owners.as_mut().unwrap();
        owners[0] = 1; // South's first house now North's
        let img = draw(&layout, &snap, Marks::default());
        let cell = |pit: usize| {
            let c = layout.rows[1]
                .iter()
                .position(|cell| cell.pit == pit)
                .unwrap();
            (
                MARGIN + STORE_W + c * CELL + CELL / 2,
                MARGIN + BAR + CELL + CELL / 2,
            )
        };
        let rim = |pit: usize| {
            let (x, y) = cell(pit);
            pixel(&img, x, y - RADIUS as usize + 1)
        };
        assert_eq!(rim(0), OWNER[1]);
        assert_eq!(rim(1), OWNER[0]);
    }
}
