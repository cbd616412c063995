//! PNG charts drawn with `plotters`' bitmap backend, and `ayo plot`, which draws a learning
//! curve from the CSV that `ayo evaluate --csv` writes (curve points measured separately,
//! or a curve whose evaluation was stopped part-way). Text needs a TrueType font: the first
//! of a few usual system fonts that exists is used (`AYO_PLOT_FONT` names another); without
//! one the chart is drawn without labels rather than not at all. Charts are drawn into a buffer
//! and saved as 256-colour palette PNGs ([`save_png`]): a tenth of the bytes of a full-colour file,
//! which matters for the curves committed under `experiments/`.

use anyhow::{anyhow, bail, Context, Result};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

#[derive(clap::Args)]
pub struct Args {
    /// CSV files written by `ayo evaluate --csv` (their rows are drawn together).
    #[arg(required = true, num_args = 1..)]
    csv: Vec<PathBuf>,
    /// The PNG to draw.
    #[arg(long)]
    out: PathBuf,
    /// The chart's title (default: the run folder of the first checkpoint and the simulations).
    #[arg(long)]
    title: Option<String>,
}

pub fn run(a: Args) -> Result<()> {
    let mut curve = Curve::default();
    let mut title = a.title;
    for path in &a.csv {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let read = curve
            .add_csv(&text)
            .with_context(|| format!("{} is not a learning curve CSV", path.display()))?;
        title = title.or(read);
    }
    curve.draw(&a.out, title.as_deref().unwrap_or("learning curve"))?;
    println!("{}: {} points", a.out.display(), curve.points());
    Ok(())
}

/// The header of the CSV that `ayo evaluate --csv` writes, one row per checkpoint and agent
/// (`distinct`: different games, identical ones counted once; `truncated`: games cut by the
/// ply cap; `pairs_*`: the pairs of games from one opening, one in each seat, that the network
/// won both, split, lost both); [`Curve::add_csv`] reads its columns by these names.
pub const CSV_HEADER: &str = "checkpoint,step,wall_time_s,positions,agent,simulations,games,wins,draws,losses,score,distinct,truncated,pairs_won_both,pairs_split,pairs_lost_both,wins_south,wins_north";

/// A learning curve: for each baseline agent, the score against it by minutes of training.
#[derive(Default)]
pub struct Curve {
    series: Vec<(String, Vec<(f64, f64)>)>,
}

impl Curve {
    /// Adds the score against `agent` measured after `minutes` of training.
    pub fn add(&mut self, agent: &str, minutes: f64, score: f64) {
        match self.series.iter_mut().find(|(name, _)| name == agent) {
            Some((_, pts)) => pts.push((minutes, score)),
            None => self
                .series
                .push((agent.to_string(), vec![(minutes, score)])),
        }
    }

    /// The chart's title for the agent `name` (a variant, a run) searching with `sims`.
    pub fn title(name: &str, sims: impl std::fmt::Display) -> String {
        format!("{name}: score of the {sims}-simulation agent")
    }

    /// How many points the curve has.
    pub fn points(&self) -> usize {
        self.series.iter().map(|(_, pts)| pts.len()).sum()
    }

    /// Adds the rows of `ayo evaluate`'s CSV (columns found by the header's names:
    /// `checkpoint`, `wall_time_s`, `agent`, `simulations`, `score`); returns a title from the
    /// first row: its checkpoint's run folder and the simulations. A row that cannot be read
    /// is an error naming its line, and nothing of the file is added.
    pub fn add_csv(&mut self, text: &str) -> Result<Option<String>> {
        let mut lines = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty());
        let Some((_, header)) = lines.next() else {
            bail!("it is empty");
        };
        let names: Vec<&str> = header.split(',').map(str::trim).collect();
        let column = |name: &str| {
            names
                .iter()
                .position(|n| *n == name)
                .ok_or_else(|| anyhow!("its header {header:?} has no column {name:?}"))
        };
        let (checkpoint, wall, agent, sims, score) = (
            column("checkpoint")?,
            column("wall_time_s")?,
            column("agent")?,
            column("simulations")?,
            column("score")?,
        );
        let mut rows = Vec::new();
        for (i, line) in lines {
            let fields: Vec<&str> = line.split(',').map(str::trim).collect();
            if fields.len() != names.len() {
                bail!(
                    "line {} has {} fields, the header {}: {line:?}",
                    i + 1,
                    fields.len(),
                    names.len()
                );
            }
            let number = |col: usize| {
                fields[col].parse::<f64>().map_err(|_| {
                    anyhow!(
                        "line {}: {} = {:?} is not a number",
                        i + 1,
                        names[col],
                        fields[col]
                    )
                })
            };
            let value = number(score)?;
            if !(0.0..=1.0).contains(&value) {
                bail!("line {}: score = {value} is outside 0..1", i + 1);
            }
            rows.push((
                fields[agent],
                number(wall)? / 60.0,
                value,
                fields[checkpoint],
                fields[sims],
            ));
        }
        let title = rows.first().map(|&(_, _, _, path, sims)| {
            let path = Path::new(path);
            let run = path
                .parent()
                .filter(|p| p.file_name().is_some_and(|n| n == "checkpoints"))
                .and_then(Path::parent)
                .unwrap_or(path)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            Curve::title(&run, sims)
        });
        for (agent, minutes, value, _, _) in rows {
            self.add(agent, minutes, value);
        }
        Ok(title)
    }

    /// Draws the curve (each series by minutes) into the PNG `path`.
    pub fn draw(&mut self, path: &Path, title: &str) -> Result<()> {
        for (_, pts) in &mut self.series {
            pts.sort_by(|a, b| a.0.total_cmp(&b.0));
        }
        score_by_minutes(path, title, &self.series)
    }
}

const FONTS: &[&str] = &[
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/liberation/LiberationSans-Regular.ttf",
    "/System/Library/Fonts/Supplemental/Arial.ttf",
    "C:\\Windows\\Fonts\\arial.ttf",
];

/// Registers a system font as `sans-serif` once; whether one was found.
fn font() -> bool {
    static FOUND: OnceLock<bool> = OnceLock::new();
    *FOUND.get_or_init(|| {
        let custom = std::env::var("AYO_PLOT_FONT").ok();
        let candidates = custom
            .iter()
            .map(String::as_str)
            .chain(FONTS.iter().copied());
        for path in candidates {
            if let Ok(bytes) = std::fs::read(path) {
                let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
                if plotters::style::register_font("sans-serif", FontStyle::Normal, bytes).is_ok() {
                    return true;
                }
            }
        }
        false
    })
}

/// A chart builder on `root` with margins, and the title and label areas when there is a font.
fn chart_builder<'a, 'b>(
    root: &'a DrawingArea<BitMapBackend<'b>, plotters::coord::Shift>,
    title: &str,
    labels: bool,
) -> ChartBuilder<'a, 'b, BitMapBackend<'b>> {
    let mut builder = ChartBuilder::on(root);
    builder.margin(20);
    if labels {
        builder
            .caption(title, ("sans-serif", 22))
            .x_label_area_size(45)
            .y_label_area_size(65);
    }
    builder
}

/// Draws Elo (with its interval as an error bar) against training step: `(step, elo, low, high)`.
pub fn elo_by_step(path: &Path, title: &str, points: &[(u64, f64, f64, f64)]) -> Result<()> {
    save_png(path, |root, err| draw_elo(root, err, title, points))
}

fn draw_elo(
    root: &DrawingArea<BitMapBackend<'_>, Shift>,
    err: &dyn Fn(&dyn std::fmt::Display) -> anyhow::Error,
    title: &str,
    points: &[(u64, f64, f64, f64)],
) -> Result<()> {
    let labels = font();
    let max_step = points.iter().map(|p| p.0).max().unwrap_or(1).max(1) as f64;
    let (mut lo, mut hi) = points
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
            (lo.min(p.2), hi.max(p.3))
        });
    if !lo.is_finite() {
        (lo, hi) = (-100.0, 100.0);
    }
    let margin = ((hi - lo) * 0.1).max(10.0);
    let mut builder = chart_builder(root, title, labels);
    let mut chart = builder
        .build_cartesian_2d(0f64..max_step * 1.05, (lo - margin)..(hi + margin))
        .map_err(|e| err(&e))?;
    let mut mesh = chart.configure_mesh();
    if labels {
        mesh.x_desc("training step")
            .y_desc("Elo")
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{y:+.0}"));
    } else {
        mesh.x_labels(0).y_labels(0);
    }
    mesh.draw().map_err(|e| err(&e))?;
    chart
        .draw_series(points.iter().map(|&(step, elo, low, high)| {
            ErrorBar::new_vertical(step as f64, low, elo, high, BLUE.filled(), 8)
        }))
        .map_err(|e| err(&e))?;
    chart
        .draw_series(LineSeries::new(
            points.iter().map(|&(step, elo, _, _)| (step as f64, elo)),
            BLUE.stroke_width(2),
        ))
        .map_err(|e| err(&e))?;
    chart
        .draw_series(
            points
                .iter()
                .map(|&(step, elo, _, _)| Circle::new((step as f64, elo), 4, BLUE.filled())),
        )
        .map_err(|e| err(&e))?;
    Ok(())
}

/// Draws a learning curve: for each named series (a baseline agent), the score against it
/// (wins plus half the draws, 0..1) at each time in minutes: `(minutes, score)`.
fn score_by_minutes(path: &Path, title: &str, series: &[(String, Vec<(f64, f64)>)]) -> Result<()> {
    save_png(path, |root, err| draw_scores(root, err, title, series))
}

fn draw_scores(
    root: &DrawingArea<BitMapBackend<'_>, Shift>,
    err: &dyn Fn(&dyn std::fmt::Display) -> anyhow::Error,
    title: &str,
    series: &[(String, Vec<(f64, f64)>)],
) -> Result<()> {
    let labels = font();
    let max_x = series
        .iter()
        .flat_map(|(_, pts)| pts.iter().map(|p| p.0))
        .fold(1.0f64, f64::max);
    let mut builder = chart_builder(root, title, labels);
    let mut chart = builder
        .build_cartesian_2d(0f64..max_x * 1.05, 0f64..1.0)
        .map_err(|e| err(&e))?;
    let mut mesh = chart.configure_mesh();
    if labels {
        mesh.x_desc("minutes of training")
            .y_desc("score (wins + draws/2)")
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{y:.2}"));
    } else {
        mesh.x_labels(0).y_labels(0);
    }
    mesh.draw().map_err(|e| err(&e))?;
    for (i, (name, pts)) in series.iter().enumerate() {
        let colour = Palette99::pick(i).to_rgba();
        let drawn = chart
            .draw_series(LineSeries::new(pts.iter().copied(), colour.stroke_width(2)))
            .map_err(|e| err(&e))?;
        if labels {
            drawn.label(name.as_str()).legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
            });
        }
        chart
            .draw_series(pts.iter().map(|&p| Circle::new(p, 4, colour.filled())))
            .map_err(|e| err(&e))?;
    }
    if labels {
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|e| err(&e))?;
    }
    Ok(())
}

/// The charts' size in pixels.
const SIZE: (u32, u32) = (900, 560);

/// Draws a white chart of [`SIZE`] with `draw` into a buffer and saves it at `path` as a palette
/// PNG ([`palette_of`]).
fn save_png(
    path: &Path,
    draw: impl FnOnce(
        &DrawingArea<BitMapBackend<'_>, Shift>,
        &dyn Fn(&dyn std::fmt::Display) -> anyhow::Error,
    ) -> Result<()>,
) -> Result<()> {
    let err = |e: &dyn std::fmt::Display| anyhow!("cannot draw {}: {e}", path.display());
    let mut rgb = vec![0u8; SIZE.0 as usize * SIZE.1 as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut rgb, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(|e| err(&e))?;
        draw(&root, &err)?;
        root.present().map_err(|e| err(&e))?;
    }
    let (palette, indices) = palette_of(&rgb);
    let file =
        std::fs::File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), SIZE.0, SIZE.1);
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_palette(palette);
    encoder.set_compression(png::Compression::Best);
    let write = |e: png::EncodingError| anyhow!("cannot write {}: {e}", path.display());
    let mut writer = encoder.write_header().map_err(write)?;
    writer.write_image_data(&indices).map_err(write)?;
    writer.finish().map_err(write)
}

/// An RGB image (3 bytes a pixel) as a palette of at most 256 colours (3 bytes each) and a
/// palette index per pixel: the image's own colours when it has no more than 256 (exact), else
/// 256 chosen by NeuQuant (anti-aliased text and lines have a few thousand shades).
fn palette_of(rgb: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let mut exact: HashMap<[u8; 3], u8> = HashMap::new();
    let mut palette = Vec::new();
    let mut indices = Vec::with_capacity(rgb.len() / 3);
    for px in rgb.chunks_exact(3) {
        let colour = [px[0], px[1], px[2]];
        let next = exact.len();
        if next == 256 && !exact.contains_key(&colour) {
            return quantized(rgb);
        }
        let index = *exact.entry(colour).or_insert_with(|| {
            palette.extend_from_slice(&colour);
            next as u8
        });
        indices.push(index);
    }
    (palette, indices)
}

/// [`palette_of`] for an image of more than 256 colours.
fn quantized(rgb: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let rgba: Vec<u8> = rgb
        .chunks_exact(3)
        .flat_map(|px| [px[0], px[1], px[2], 255])
        .collect();
    let quant = color_quant::NeuQuant::new(1, 256, &rgba);
    let mut memo: HashMap<[u8; 3], u8> = HashMap::new();
    let indices = rgb
        .chunks_exact(3)
        .map(|px| {
            *memo
                .entry([px[0], px[1], px[2]])
                .or_insert_with(|| quant.index_of(&[px[0], px[1], px[2], 255]) as u8)
        })
        .collect();
    (quant.color_map_rgb(), indices)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_chart_is_a_png() {
        let dir = std::env::temp_dir().join(format!("ayo-plot-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("elo.png");
        let points = [
            (0, 0.0, -40.0, 35.0),
            (500, 120.0, 80.0, 170.0),
            (1000, 260.0, 210.0, 320.0),
        ];
        elo_by_step(&path, "oware@1 — Elo by training step", &points).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(&bytes[1..4], b"PNG");
        let decoder = png::Decoder::new(std::fs::File::open(&path).unwrap());
        let info = decoder.read_info().unwrap().info().clone();
        assert_eq!((info.width, info.height), SIZE);
        assert_eq!(info.color_type, png::ColorType::Indexed);
        let curve = dir.join("curve.png");
        let series = vec![
            (
                "mcts:1000".to_string(),
                vec![(5.0, 0.3), (30.0, 0.7), (60.0, 0.9)],
            ),
            (
                "alphabeta:6".to_string(),
                vec![(5.0, 0.1), (30.0, 0.4), (60.0, 0.6)],
            ),
        ];
        score_by_minutes(&curve, "oware@1 — learning curve", &series).unwrap();
        assert_eq!(&std::fs::read(&curve).unwrap()[1..4], b"PNG");
        // The same chart from `ayo evaluate`'s CSV, rows in any order.
        let mut read = Curve::default();
        let title = read.add_csv(CSV).unwrap();
        assert_eq!(
            title.as_deref(),
            Some("oware-1h: score of the 32-simulation agent")
        );
        assert_eq!(
            read.series,
            vec![
                ("mcts:1000".to_string(), vec![(60.0, 0.9), (10.0, 0.3)]),
                ("alphabeta:6".to_string(), vec![(60.0, 0.6)]),
            ]
        );
        read.draw(&dir.join("from-csv.png"), "from csv").unwrap();
        assert_eq!(read.series[0].1, vec![(10.0, 0.3), (60.0, 0.9)]);
        if std::env::var_os("AYO_KEEP_PLOT").is_none() {
            let _ = std::fs::remove_dir_all(&dir);
        }
    }

    const CSV: &str = concat!(
        "checkpoint,step,wall_time_s,positions,agent,simulations,games,wins,draws,losses,score,distinct,truncated,pairs_won_both,pairs_split,pairs_lost_both,wins_south,wins_north",
        "
experiments/oware-1h/checkpoints/step-0030000.ot,30000,3600,8000000,mcts:1000,32,40,36,0,4,0.900,40,0,16,4,0,19,17
experiments/oware-1h/checkpoints/step-0030000.ot,30000,3600,8000000,alphabeta:6,32,40,24,0,16,0.600,40,0,6,12,2,14,10
experiments/oware-1h/checkpoints/step-0005000.ot,5000,600,1400000,mcts:1000,32,40,12,0,28,0.300,40,0,0,12,8,7,5
"
    );

    /// The colours of `palette_of`'s output, pixel by pixel.
    fn expand(palette: &[u8], indices: &[u8]) -> Vec<u8> {
        indices
            .iter()
            .flat_map(|&i| palette[3 * i as usize..3 * i as usize + 3].to_vec())
            .collect()
    }

    #[test]
    fn a_few_colours_are_kept_exactly_and_many_approximately() {
        // 200 colours: the palette is the image's own, and every pixel comes back unchanged.
        let few: Vec<u8> = (0..2000u32)
            .flat_map(|i| [(i % 200) as u8, 255 - (i % 200) as u8, 7])
            .collect();
        let (palette, indices) = palette_of(&few);
        assert_eq!(palette.len(), 200 * 3);
        assert_eq!(expand(&palette, &indices), few);
        // 4096 colours (256 greys × 16 blues): 256 colours, each pixel close to its own.
        let many: Vec<u8> = (0..4096u32 * 4)
            .flat_map(|i| {
                let i = i % 4096;
                [(i / 16) as u8, (i / 16) as u8, (i % 16 * 16) as u8]
            })
            .collect();
        let (palette, indices) = palette_of(&many);
        assert!(palette.len() <= 256 * 3);
        let errors: Vec<u8> = expand(&palette, &indices)
            .iter()
            .zip(&many)
            .map(|(a, b)| a.abs_diff(*b))
            .collect();
        let mean = errors.iter().map(|&e| e as f64).sum::<f64>() / errors.len() as f64;
        let worst = *errors.iter().max().unwrap();
        // A palette of its 16 blues × 16 evenly spaced greys is off by 2.7 on average and 8 at
        // worst; NeuQuant at its finest sampling gets 4.2 and 20.
        assert!(
            mean <= 5.0 && worst <= 24,
            "off by {mean} on average, {worst} at worst"
        );
    }

    #[test]
    fn the_test_csv_has_the_header_evaluate_prints() {
        assert_eq!(CSV.lines().next(), Some(CSV_HEADER));
    }

    #[test]
    fn a_bad_curve_csv_is_refused_whole() {
        let mut curve = Curve::default();
        let no_score = CSV.replace(",score,", ",points,");
        let e = curve.add_csv(&no_score).unwrap_err().to_string();
        assert!(e.contains("no column \"score\""), "{e}");
        let bad = CSV.replace("0.300", "0.3x");
        let e = curve.add_csv(&bad).unwrap_err().to_string();
        assert!(
            e.contains("line 4: score = \"0.3x\" is not a number"),
            "{e}"
        );
        let short = format!("{CSV}experiments/oware-1h/x.ot,1,2\n");
        let e = curve.add_csv(&short).unwrap_err().to_string();
        assert!(e.contains("line 5 has 3 fields, the header 18"), "{e}");
        assert!(curve.add_csv("").is_err());
        assert_eq!(curve.points(), 0, "nothing of a refused file is added");
    }
}
