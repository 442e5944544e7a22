//! Placing level labels beside their points so that no two overlap, no label covers a
//! point, and none leaves the plot: each label tries eight spots around its point,
//! nearest first (right, left, above, below, then the diagonals), and is dropped when
//! none is free. This is the greedy point-feature labelling of Christensen, Marks and
//! Shieber ("An empirical study of algorithms for point-feature label placement", ACM
//! TOG 1995), without its annealing step. Boxes are looked up in a grid of buckets, so a
//! chart of thousands of points is placed in milliseconds.

/// A rectangle in pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Rect {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
}

impl Rect {
    /// Whether the two share any area.
    pub(crate) fn overlaps(&self, other: &Rect) -> bool {
        self.x < other.x + other.w
            && other.x < self.x + self.w
            && self.y < other.y + other.h
            && other.y < self.y + self.h
    }

    /// Whether `self` lies wholly inside `outer`.
    pub(crate) fn inside(&self, outer: &Rect) -> bool {
        self.x >= outer.x
            && self.y >= outer.y
            && self.x + self.w <= outer.x + outer.w
            && self.y + self.h <= outer.y + outer.h
    }
}

/// Font size of level labels, in pixels.
pub(crate) const LABEL_SIZE: f64 = 11.0;
/// Width of one character at [`LABEL_SIZE`]: 0.64 em, the digit width of DejaVu Sans
/// (Debian's sans-serif, the widest common one), so the boxes err on the wide side.
const CHAR_WIDTH: f64 = LABEL_SIZE * 0.64;
/// Height of a label's box: 1.2 em holds a line's ascent and descent (1.164 em in
/// DejaVu Sans), as a browser measures the text's box.
pub(crate) const LABEL_HEIGHT: f64 = LABEL_SIZE * 1.2;
/// Where the baseline sits below the box's top: the font's ascent (0.928 em) and a
/// little.
pub(crate) const LABEL_BASELINE: f64 = LABEL_SIZE * 0.95;
/// Radius of a point's marker, with a pixel to spare.
pub(crate) const MARKER_RADIUS: f64 = 5.0;
/// Gap between a marker and its label.
const GAP: f64 = 2.0;

/// The box `text` takes at [`LABEL_SIZE`].
fn text_size(text: &str) -> (f64, f64) {
    (text.chars().count() as f64 * CHAR_WIDTH, LABEL_HEIGHT)
}

/// A straight line from one point to another, in pixels: a piece of the frontier, or
/// an interval's bar, which a label must not cross.
pub(crate) type Segment = [(f64, f64); 2];

/// The segments of a polyline.
pub(crate) fn segments(line: &[(f64, f64)]) -> Vec<Segment> {
    line.windows(2).map(|pair| [pair[0], pair[1]]).collect()
}

/// For each point `(x, y, text)`, the box its label takes, or `None` where it is
/// dropped; labels are placed in the order given, so put the important ones first, and
/// none crosses a segment of `lines`.
///
/// Markers within the same pixel are one box, and once a label found no spot at a pixel,
/// later points there are not tried (their spots are as taken): so the work grows with
/// the points, not with their square, when thousands fall on the same spot.
pub(crate) fn place(
    points: &[(f64, f64, String)],
    plot: &Rect,
    lines: &[Segment],
) -> Vec<Option<Rect>> {
    let pixel = |x: f64, y: f64| (x.round() as i64, y.round() as i64);
    let mut taken = Grid::default();
    let mut markers = std::collections::HashSet::new();
    for &(x, y, _) in points {
        if markers.insert(pixel(x, y)) {
            taken.insert(Rect {
                x: x - MARKER_RADIUS,
                y: y - MARKER_RADIUS,
                w: 2.0 * MARKER_RADIUS,
                h: 2.0 * MARKER_RADIUS,
            });
        }
    }
    let mut full = std::collections::HashSet::new();
    points
        .iter()
        .map(|(x, y, text)| {
            if full.contains(&pixel(*x, *y)) {
                return None;
            }
            let (w, h) = text_size(text);
            let spot = candidates(*x, *y, w, h)
                .into_iter()
                .find(|spot| spot.inside(plot) && !taken.overlaps(spot) && !crosses(lines, spot));
            match spot {
                Some(free) => taken.insert(free),
                None => {
                    full.insert(pixel(*x, *y));
                }
            }
            spot
        })
        .collect()
}

/// Whether any of `lines` passes through `rect`: a label there would read as
/// struck through, or its level as negative.
pub(crate) fn crosses(lines: &[Segment], rect: &Rect) -> bool {
    lines.iter().any(|&[a, b]| segment_crosses(a, b, rect))
}

/// Whether the segment from `a` to `b` meets `rect`: clipped to the rectangle's x
/// range, its y range must meet the rectangle's.
fn segment_crosses(a: (f64, f64), b: (f64, f64), rect: &Rect) -> bool {
    let (left, right) = if a.0 <= b.0 { (a, b) } else { (b, a) };
    let (x0, x1) = (left.0.max(rect.x), right.0.min(rect.x + rect.w));
    if x0 > x1 {
        return false;
    }
    let y_at = |x: f64| match right.0 - left.0 {
        dx if dx.abs() < 1e-9 => left.1,
        dx => left.1 + (right.1 - left.1) * (x - left.0) / dx,
    };
    let (y0, y1) = if right.0 - left.0 < 1e-9 {
        (left.1.min(right.1), left.1.max(right.1))
    } else {
        let (p, q) = (y_at(x0), y_at(x1));
        (p.min(q), p.max(q))
    };
    y0 <= rect.y + rect.h && y1 >= rect.y
}

/// Side of a [`Grid`] bucket, in pixels: a few labels wide.
const BUCKET: f64 = 32.0;

/// The boxes taken so far (markers and placed labels), bucketed by where they lie, so
/// that a spot is checked against its neighbours only: a chart of 10,000 points would
/// otherwise check each spot against every box.
#[derive(Default)]
struct Grid {
    boxes: Vec<Rect>,
    buckets: std::collections::HashMap<(i64, i64), Vec<usize>>,
}

impl Grid {
    /// The buckets `rect` touches.
    fn spanned(rect: &Rect) -> impl Iterator<Item = (i64, i64)> {
        let bucket = |v: f64| (v / BUCKET).floor() as i64;
        let (x0, x1) = (bucket(rect.x), bucket(rect.x + rect.w));
        let (y0, y1) = (bucket(rect.y), bucket(rect.y + rect.h));
        (x0..=x1).flat_map(move |x| (y0..=y1).map(move |y| (x, y)))
    }

    fn insert(&mut self, rect: Rect) {
        let index = self.boxes.len();
        self.boxes.push(rect);
        for key in Grid::spanned(&rect) {
            self.buckets.entry(key).or_default().push(index);
        }
    }

    /// Whether `rect` overlaps any box taken.
    fn overlaps(&self, rect: &Rect) -> bool {
        Grid::spanned(rect).any(|key| {
            self.buckets
                .get(&key)
                .is_some_and(|indices| indices.iter().any(|&i| self.boxes[i].overlaps(rect)))
        })
    }
}

/// The eight spots around a point, nearest first.
fn candidates(x: f64, y: f64, w: f64, h: f64) -> [Rect; 8] {
    let near = MARKER_RADIUS + GAP;
    let diagonal = MARKER_RADIUS * 0.7 + GAP;
    let rect = |left: f64, top: f64| Rect {
        x: left,
        y: top,
        w,
        h,
    };
    [
        rect(x + near, y - h / 2.0),
        rect(x - near - w, y - h / 2.0),
        rect(x - w / 2.0, y - near - h),
        rect(x - w / 2.0, y + near),
        rect(x + diagonal, y - diagonal - h),
        rect(x + diagonal, y + diagonal),
        rect(x - diagonal - w, y - diagonal - h),
        rect(x - diagonal - w, y + diagonal),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLOT: Rect = Rect {
        x: 0.0,
        y: 0.0,
        w: 400.0,
        h: 300.0,
    };

    #[test]
    fn a_lone_label_sits_right_of_its_point() {
        let spots = place(&[(100.0, 100.0, "19".to_string())], &PLOT, &[]);
        let spot = spots[0].unwrap();
        assert!(spot.x > 100.0 && spot.x < 110.0, "{spot:?}");
        assert!((spot.y + spot.h / 2.0 - 100.0).abs() < 1e-9);
    }

    #[test]
    fn crowded_labels_move_or_drop_but_never_overlap() {
        // Twenty points on top of each other, as zstd -5..-1 and 12..15 are.
        let points: Vec<(f64, f64, String)> = (0..20)
            .map(|i| (200.0 + i as f64 * 0.5, 150.0, format!("{}", i - 5)))
            .collect();
        let spots = place(&points, &PLOT, &[]);
        let kept: Vec<Rect> = spots.iter().flatten().copied().collect();
        assert!(kept.len() >= 2 && kept.len() < 20, "{}", kept.len());
        for (i, a) in kept.iter().enumerate() {
            assert!(a.inside(&PLOT));
            for b in &kept[i + 1..] {
                assert!(!a.overlaps(b), "{a:?} overlaps {b:?}");
            }
        }
    }

    #[test]
    fn a_label_moves_off_a_line_through_its_first_spot() {
        // A line through the spot right of the point, as the frontier runs.
        let line = [[(100.0, 90.0), (140.0, 110.0)]];
        let spot = place(&[(100.0, 100.0, "19".to_string())], &PLOT, &line)[0].unwrap();
        assert!(!crosses(&line, &spot), "{spot:?}");
        assert!(spot.x < 100.0, "moved to the left: {spot:?}");
        let vertical = [[(50.0, 0.0), (50.0, 300.0)]];
        assert!(crosses(
            &vertical,
            &Rect {
                x: 45.0,
                y: 10.0,
                w: 10.0,
                h: 5.0
            }
        ));
        assert!(!crosses(
            &vertical,
            &Rect {
                x: 51.0,
                y: 10.0,
                w: 10.0,
                h: 5.0
            }
        ));
    }

    #[test]
    fn labels_stay_inside_the_plot() {
        let spots = place(&[(398.0, 2.0, "11".to_string())], &PLOT, &[]);
        let spot = spots[0].unwrap();
        assert!(spot.inside(&PLOT), "{spot:?}");
    }
}
