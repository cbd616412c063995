//! PNG charts drawn with `plotters`' bitmap backend. Text needs a TrueType font: the first
//! of a few usual system fonts that exists is used (`AYO_PLOT_FONT` names another); without
//! one the chart is drawn without labels rather than not at all.

use anyhow::{anyhow, Result};
use plotters::prelude::*;
use std::path::Path;
use std::sync::OnceLock;

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
    let labels = font();
    let root = BitMapBackend::new(path, (900, 560)).into_drawing_area();
    let err = |e: &dyn std::fmt::Display| anyhow!("cannot draw {}: {e}", path.display());
    root.fill(&WHITE).map_err(|e| err(&e))?;
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
    let mut builder = chart_builder(&root, title, labels);
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
    root.present().map_err(|e| err(&e))?;
    Ok(())
}

/// Draws a learning curve: for each named series (a baseline agent), the score against it
/// (wins plus half the draws, 0..1) at each time in minutes: `(minutes, score)`.
pub fn score_by_minutes(
    path: &Path,
    title: &str,
    series: &[(String, Vec<(f64, f64)>)],
) -> Result<()> {
    let labels = font();
    let root = BitMapBackend::new(path, (900, 560)).into_drawing_area();
    let err = |e: &dyn std::fmt::Display| anyhow!("cannot draw {}: {e}", path.display());
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let max_x = series
        .iter()
        .flat_map(|(_, pts)| pts.iter().map(|p| p.0))
        .fold(1.0f64, f64::max);
    let mut builder = chart_builder(&root, title, labels);
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
    root.present().map_err(|e| err(&e))?;
    Ok(())
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
        if std::env::var_os("AYO_KEEP_PLOT").is_none() {
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}
