//! A small hand-written SVG writer for the laboratory's chart: panels of
//! line series on a logarithmic y axis, a shared legend, a title and footnotes.
//!
//! No dependency: the chart is a few dozen elements, and writing them by hand keeps
//! every coordinate visible. Text is escaped; numbers are written with one decimal.

use std::fmt::Write as _;

/// The shape drawn at each data point, so that overlapping lines stay distinguishable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marker {
    Circle,
    Square,
    Diamond,
    Triangle,
    None,
}

/// One line: points (x, y) with y > 0, drawn in `color`, dashed or solid.
#[derive(Clone, Debug)]
pub struct Series {
    pub label: String,
    pub color: &'static str,
    pub dashed: bool,
    pub marker: Marker,
    pub points: Vec<(f64, f64)>,
}

/// One plot: a title and its lines. The x axis shows integer ticks.
#[derive(Clone, Debug)]
pub struct Panel {
    pub title: String,
    pub series: Vec<Series>,
}

/// The whole figure; the legend lists every series label once, in the order the
/// panels first show it.
#[derive(Clone, Debug)]
pub struct Chart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub panels: Vec<Panel>,
    pub footnotes: Vec<String>,
}

/// Layout, in SVG user units (pixels at 100 %).
const PANEL_WIDTH: f64 = 470.0;
const PANEL_HEIGHT: f64 = 330.0;
/// Space inside a panel around its plot area: tick labels and axis titles live there.
const PLOT_LEFT: f64 = 78.0;
const PLOT_RIGHT: f64 = 18.0;
const PLOT_TOP: f64 = 38.0;
const PLOT_BOTTOM: f64 = 52.0;
const PANELS_PER_ROW: usize = 2;
const TITLE_HEIGHT: f64 = 48.0;
const LEGEND_WIDTH: f64 = 210.0;
const LEGEND_ROW: f64 = 24.0;
const FOOTNOTE_LINE: f64 = 18.0;
/// Room left and right of the first and last x value, as a share of the x range.
const X_PADDING: f64 = 0.04;
const FONT: &str = "Helvetica, Arial, sans-serif";

/// The chart as a complete SVG document.
pub fn render(chart: &Chart) -> String {
    let columns = chart.panels.len().clamp(1, PANELS_PER_ROW);
    let rows = chart.panels.len().div_ceil(PANELS_PER_ROW).max(1);
    let width = columns as f64 * PANEL_WIDTH + LEGEND_WIDTH;
    let footnotes_height = FOOTNOTE_LINE * chart.footnotes.len() as f64 + 12.0;
    let legend_rows = chart
        .panels
        .iter()
        .flat_map(|p| p.series.iter().map(|s| &s.label))
        .collect::<std::collections::HashSet<_>>()
        .len();
    // A long legend may reach below the panels.
    let panels_height =
        (rows as f64 * PANEL_HEIGHT).max(PLOT_TOP + 10.0 + LEGEND_ROW * legend_rows as f64);
    let height = TITLE_HEIGHT + panels_height + footnotes_height;

    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="{FONT}">"#,
        w = num(width),
        h = num(height)
    );
    let _ = writeln!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="30" font-size="20" font-weight="bold" text-anchor="middle">{}</text>"#,
        num(width / 2.0),
        escape(&chart.title)
    );
    for (i, panel) in chart.panels.iter().enumerate() {
        let x = (i % PANELS_PER_ROW) as f64 * PANEL_WIDTH;
        let y = TITLE_HEIGHT + (i / PANELS_PER_ROW) as f64 * PANEL_HEIGHT;
        draw_panel(&mut svg, panel, chart, x, y);
    }
    let mut legend: Vec<&Series> = Vec::new();
    for series in chart.panels.iter().flat_map(|p| &p.series) {
        if !legend.iter().any(|s| s.label == series.label) {
            legend.push(series);
        }
    }
    draw_legend(
        &mut svg,
        &legend,
        columns as f64 * PANEL_WIDTH + 10.0,
        TITLE_HEIGHT + PLOT_TOP,
    );
    let notes_top = TITLE_HEIGHT + panels_height;
    for (i, note) in chart.footnotes.iter().enumerate() {
        let _ = writeln!(
            svg,
            r##"<text x="16" y="{}" font-size="12" fill="#444">{}</text>"##,
            num(notes_top + FOOTNOTE_LINE * (i as f64 + 0.8)),
            escape(note)
        );
    }
    svg.push_str("</svg>\n");
    svg
}

/// The decades `10^lo..=10^hi` that enclose every y value (at least one decade).
fn decades(panel: &Panel) -> (i32, i32) {
    let ys = || {
        panel
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.1))
            .filter(|&y| y > 0.0)
    };
    let min = ys().fold(f64::INFINITY, f64::min);
    let max = ys().fold(0.0, f64::max);
    if !min.is_finite() {
        return (0, 1);
    }
    let lo = min.log10().floor() as i32;
    let hi = (max.log10().ceil() as i32).max(lo + 1);
    (lo, hi)
}

/// The range of x values (at least one unit wide, so a single depth still plots).
fn x_range(panel: &Panel) -> (f64, f64) {
    let xs = || {
        panel
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.0))
    };
    let lo = xs().fold(f64::INFINITY, f64::min);
    let hi = xs().fold(f64::NEG_INFINITY, f64::max);
    if !lo.is_finite() || !hi.is_finite() {
        (0.0, 1.0)
    } else if hi - lo < 1.0 {
        (lo - 0.5, lo + 0.5)
    } else {
        // A little room at both ends keeps the end markers off the frame.
        let pad = (hi - lo) * X_PADDING;
        (lo - pad, hi + pad)
    }
}

fn draw_panel(svg: &mut String, panel: &Panel, chart: &Chart, left: f64, top: f64) {
    let (x0, x1) = (left + PLOT_LEFT, left + PANEL_WIDTH - PLOT_RIGHT);
    let (y0, y1) = (top + PLOT_TOP, top + PANEL_HEIGHT - PLOT_BOTTOM);
    let (lo, hi) = decades(panel);
    let (xmin, xmax) = x_range(panel);
    let sx = |x: f64| x0 + (x - xmin) / (xmax - xmin) * (x1 - x0);
    let sy = |y: f64| y1 - (y.max(1e-9).log10() - lo as f64) / (hi - lo) as f64 * (y1 - y0);

    let _ = writeln!(svg, "<g>");
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="{}" font-size="15" font-weight="bold" text-anchor="middle">{}</text>"#,
        num((x0 + x1) / 2.0),
        num(top + 24.0),
        escape(&panel.title)
    );
    // Grid: a solid line per decade, faint lines at 2..9 times it.
    for decade in lo..=hi {
        let y = sy(10f64.powi(decade));
        let _ = writeln!(
            svg,
            r##"<line x1="{}" y1="{y}" x2="{}" y2="{y}" stroke="#ccc"/>"##,
            num(x0),
            num(x1),
            y = num(y)
        );
        let _ = writeln!(
            svg,
            r#"<text x="{}" y="{}" font-size="12" text-anchor="end">{}</text>"#,
            num(x0 - 6.0),
            num(y + 4.0),
            power_of_ten_label(decade)
        );
        if decade < hi {
            for k in 2..=9 {
                let y = sy(k as f64 * 10f64.powi(decade));
                let _ = writeln!(
                    svg,
                    r##"<line x1="{}" y1="{y}" x2="{}" y2="{y}" stroke="#eee"/>"##,
                    num(x0),
                    num(x1),
                    y = num(y)
                );
            }
        }
    }
    let mut tick = xmin.ceil();
    while tick <= xmax + 1e-9 {
        let x = sx(tick);
        let _ = writeln!(
            svg,
            r##"<line x1="{x}" y1="{}" x2="{x}" y2="{}" stroke="#eee"/>"##,
            num(y0),
            num(y1),
            x = num(x)
        );
        let _ = writeln!(
            svg,
            r#"<text x="{}" y="{}" font-size="12" text-anchor="middle">{}</text>"#,
            num(x),
            num(y1 + 18.0),
            tick
        );
        tick += 1.0;
    }
    let _ = writeln!(
        svg,
        r##"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#333"/>"##,
        num(x0),
        num(y0),
        num(x1 - x0),
        num(y1 - y0)
    );
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="{}" font-size="13" text-anchor="middle">{}</text>"#,
        num((x0 + x1) / 2.0),
        num(y1 + 40.0),
        escape(&chart.x_label)
    );
    let (lx, ly) = (left + 18.0, (y0 + y1) / 2.0);
    let _ = writeln!(
        svg,
        r#"<text x="{lx}" y="{ly}" font-size="13" text-anchor="middle" transform="rotate(-90 {lx} {ly})">{}</text>"#,
        escape(&chart.y_label),
        lx = num(lx),
        ly = num(ly)
    );

    for series in &panel.series {
        let points: Vec<(f64, f64)> = series
            .points
            .iter()
            .filter(|p| p.1 > 0.0)
            .map(|&(x, y)| (sx(x), sy(y)))
            .collect();
        let path: Vec<String> = points
            .iter()
            .map(|&(x, y)| format!("{},{}", num(x), num(y)))
            .collect();
        let dash = if series.dashed {
            r#" stroke-dasharray="7 5""#
        } else {
            ""
        };
        let _ = writeln!(
            svg,
            r#"<polyline points="{}" fill="none" stroke="{}" stroke-width="2"{dash}/>"#,
            path.join(" "),
            series.color
        );
        for &(x, y) in &points {
            marker(svg, series.marker, series.color, x, y);
        }
    }
    let _ = writeln!(svg, "</g>");
}

fn draw_legend(svg: &mut String, series: &[&Series], left: f64, top: f64) {
    for (i, s) in series.iter().enumerate() {
        let y = top + 10.0 + i as f64 * LEGEND_ROW;
        let dash = if s.dashed {
            r#" stroke-dasharray="7 5""#
        } else {
            ""
        };
        let _ = writeln!(
            svg,
            r#"<line x1="{}" y1="{y}" x2="{}" y2="{y}" stroke="{}" stroke-width="2"{dash}/>"#,
            num(left),
            num(left + 34.0),
            s.color,
            y = num(y)
        );
        marker(svg, s.marker, s.color, left + 17.0, y);
        let _ = writeln!(
            svg,
            r#"<text x="{}" y="{}" font-size="13">{}</text>"#,
            num(left + 42.0),
            num(y + 4.5),
            escape(&s.label)
        );
    }
}

fn marker(svg: &mut String, shape: Marker, color: &str, x: f64, y: f64) {
    const R: f64 = 4.0;
    let fill = format!(r#"fill="{color}" stroke="white" stroke-width="1""#);
    let _ = match shape {
        Marker::Circle => writeln!(
            svg,
            r#"<circle cx="{}" cy="{}" r="{R}" {fill}/>"#,
            num(x),
            num(y)
        ),
        Marker::Square => writeln!(
            svg,
            r#"<rect x="{}" y="{}" width="{}" height="{}" {fill}/>"#,
            num(x - R),
            num(y - R),
            num(2.0 * R),
            num(2.0 * R)
        ),
        Marker::Diamond => writeln!(
            svg,
            r#"<polygon points="{},{} {},{} {},{} {},{}" {fill}/>"#,
            num(x),
            num(y - R - 1.0),
            num(x + R + 1.0),
            num(y),
            num(x),
            num(y + R + 1.0),
            num(x - R - 1.0),
            num(y)
        ),
        Marker::Triangle => writeln!(
            svg,
            r#"<polygon points="{},{} {},{} {},{}" {fill}/>"#,
            num(x),
            num(y - R - 1.0),
            num(x + R + 1.0),
            num(y + R),
            num(x - R - 1.0),
            num(y + R)
        ),
        Marker::None => Ok(()),
    };
}

/// `0.01`, `0.1`, `1`, `10`, `100`, `1k`, … `100M`, `1G`: short labels for the decade lines.
fn power_of_ten_label(decade: i32) -> String {
    match decade {
        -3..=-1 => format!("{}", 10f64.powi(decade)),
        d if d < 0 => format!("1e{d}"),
        0..=2 => 10u64.pow(decade as u32).to_string(),
        3..=5 => format!("{}k", 10u64.pow(decade as u32 - 3)),
        6..=8 => format!("{}M", 10u64.pow(decade as u32 - 6)),
        9..=11 => format!("{}G", 10u64.pow(decade as u32 - 9)),
        d => format!("1e{d}"),
    }
}

/// A coordinate with at most one decimal (no `-0`, no exponent).
fn num(v: f64) -> String {
    let rounded = (v * 10.0).round() / 10.0;
    if rounded == 0.0 {
        "0".to_string()
    } else if rounded.fract() == 0.0 {
        format!("{rounded:.0}")
    } else {
        format!("{rounded:.1}")
    }
}

/// Text content and attribute values: the five XML specials escaped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn panel(points: Vec<(f64, f64)>) -> Panel {
        Panel {
            title: "a < b & c".into(),
            series: vec![Series {
                label: "s".into(),
                color: "#000",
                dashed: true,
                marker: Marker::Circle,
                points,
            }],
        }
    }

    #[test]
    fn decades_enclose_the_data() {
        assert_eq!(decades(&panel(vec![(1.0, 21.0), (2.0, 420.0)])), (1, 3));
        assert_eq!(decades(&panel(vec![(1.0, 100.0)])), (2, 3));
        assert_eq!(decades(&panel(vec![])), (0, 1));
    }

    #[test]
    fn renders_escaped_well_formed_text() {
        let chart = Chart {
            title: "t".into(),
            x_label: "depth".into(),
            y_label: "nodes".into(),
            panels: vec![
                panel(vec![(1.0, 5.0)]),
                panel(vec![(1.0, 5.0), (3.0, 5000.0)]),
            ],
            footnotes: vec!["n\"1\"".into()],
        };
        let svg = render(&chart);
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        assert!(svg.contains("a &lt; b &amp; c") && svg.contains("n&quot;1&quot;"));
        assert!(svg.contains("stroke-dasharray"));
        assert!(!svg.contains("NaN") && !svg.contains("inf"));
        assert_eq!(svg.matches("<g>").count(), svg.matches("</g>").count());
    }

    #[test]
    fn labels_and_numbers() {
        assert_eq!(power_of_ten_label(0), "1");
        assert_eq!(power_of_ten_label(-1), "0.1");
        assert_eq!(power_of_ten_label(-3), "0.001");
        assert_eq!(power_of_ten_label(-4), "1e-4");
        assert_eq!(power_of_ten_label(4), "10k");
        assert_eq!(power_of_ten_label(7), "10M");
        assert_eq!(num(-0.04), "0");
        assert_eq!(num(12.25), "12.3");
        assert_eq!(num(3.0), "3");
    }
}
