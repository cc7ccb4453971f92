//! Kendall's tau sufficient statistics and its variants (b, c, and Deutsch et al. 2023's `23`
//! and `acc23`), as MTME's `KendallVariants` and scipy's `kendalltau` define them.

/// Pair counts of a (metric, human) vector pair.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TauStats {
    /// Concordant pairs.
    pub con: i64,
    /// Discordant pairs.
    pub dis: i64,
    /// Pairs tied in the human scores only.
    pub ties_human: i64,
    /// Pairs tied in the metric scores only.
    pub ties_metric: i64,
    /// Pairs tied in both.
    pub ties_both: i64,
}

impl TauStats {
    /// All pairs.
    pub fn total(&self) -> i64 {
        self.con + self.dis + self.ties_human + self.ties_metric + self.ties_both
    }

    /// Counts one pair of the given class (see [`pair_class`]).
    #[inline]
    pub fn add(&mut self, class: u8, by: i64) {
        match class {
            0 => self.con += by,
            1 => self.dis += by,
            2 => self.ties_human += by,
            3 => self.ties_metric += by,
            _ => self.ties_both += by,
        }
    }

    /// `TauSufficientStats.acc_23`: Python's int / int true division (both exact in f64).
    pub fn acc_23(&self) -> f64 {
        (self.con + self.ties_both) as f64 / self.total() as f64
    }

    /// `TauSufficientStats.tau_23`.
    pub fn tau_23(&self) -> f64 {
        (self.con + self.ties_both - self.dis - self.ties_human - self.ties_metric) as f64
            / self.total() as f64
    }
}

/// The tau variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// Tau-b (ties corrected on both sides).
    B,
    /// Tau-c (Stuart's, by the smaller number of distinct values).
    C,
    /// Deutsch et al. 2023's tau with ties as their own class.
    T23,
    /// Its accuracy form: agreeing pairs, ties included, over all pairs.
    Acc23,
}

impl Variant {
    /// From MTME's name (`b`, `c`, `23`, `acc23`).
    pub fn parse(name: &str) -> Option<Variant> {
        match name {
            "b" => Some(Variant::B),
            "c" => Some(Variant::C),
            "23" => Some(Variant::T23),
            "acc23" => Some(Variant::Acc23),
            _ => None,
        }
    }
}

/// The class of one pair: 0 concordant, 1 discordant, 2 human tie, 3 metric tie, 4 both.
#[inline]
pub fn pair_class(dm: f64, dh: f64, metric_tie: bool) -> u8 {
    let human_tie = dh == 0.0;
    match (metric_tie, human_tie) {
        (true, true) => 4,
        (true, false) => 3,
        (false, true) => 2,
        _ if (dm > 0.0) == (dh > 0.0) => 0,
        _ => 1,
    }
}

/// Pair counts over every pair, a metric difference of at most `epsilon` counting as a tie
/// (MTME's matrix form; with `epsilon = 0` exactly its Fenwick-tree form's exact equality).
pub fn stats_pairs(metric: &[f64], human: &[f64], epsilon: f64) -> TauStats {
    let mut s = TauStats::default();
    for i in 0..metric.len() {
        for j in i + 1..metric.len() {
            let dm = metric[j] - metric[i];
            s.add(pair_class(dm, human[j] - human[i], dm.abs() <= epsilon), 1);
        }
    }
    s
}

/// Sorted-order counting for long vectors without epsilon: O(n log n), same counts as
/// [`stats_pairs`] with `epsilon = 0`.
pub fn stats_sorted(metric: &[f64], human: &[f64]) -> TauStats {
    let n = metric.len();
    let mut idx: Vec<usize> = (0..n).collect();
    idx.sort_by(|&a, &b| {
        metric[a]
            .total_cmp(&metric[b])
            .then(human[a].total_cmp(&human[b]))
    });
    let xs: Vec<f64> = idx.iter().map(|&i| metric[i]).collect();
    let mut ys: Vec<f64> = idx.iter().map(|&i| human[i]).collect();
    let runs = |v: &[f64], same: &dyn Fn(usize, usize) -> bool| -> i64 {
        let mut total = 0i64;
        let mut start = 0;
        for k in 1..=v.len() {
            if k == v.len() || !same(k - 1, k) {
                let c = (k - start) as i64;
                total += c * (c - 1) / 2;
                start = k;
            }
        }
        total
    };
    // Equality as `==` (0.0 == -0.0), the same as a zero difference.
    let xtie = runs(&xs, &|a, b| xs[a] == xs[b]);
    let ntie = runs(&xs, &|a, b| xs[a] == xs[b] && ys[a] == ys[b]);
    let dis = inversions(&mut ys);
    let mut ysorted = ys.clone();
    ysorted.sort_by(f64::total_cmp);
    let ytie = runs(&ysorted, &|a, b| ysorted[a] == ysorted[b]);
    let tot = (n as i64) * (n as i64 - 1) / 2;
    let con = tot - xtie - ytie + ntie - dis;
    TauStats {
        con,
        dis,
        ties_human: ytie - ntie,
        ties_metric: xtie - ntie,
        ties_both: ntie,
    }
}

/// Number of strict inversions (i < j, v[i] > v[j]); sorts `v` (merge sort).
fn inversions(v: &mut [f64]) -> i64 {
    let n = v.len();
    if n < 2 {
        return 0;
    }
    let mid = n / 2;
    let mut count = inversions(&mut v[..mid]) + inversions(&mut v[mid..]);
    let mut merged = Vec::with_capacity(n);
    let (mut i, mut j) = (0, mid);
    while i < mid && j < n {
        if v[j] < v[i] {
            count += (mid - i) as i64;
            merged.push(v[j]);
            j += 1;
        } else {
            merged.push(v[i]);
            i += 1;
        }
    }
    merged.extend_from_slice(&v[i..mid]);
    merged.extend_from_slice(&v[j..]);
    v.copy_from_slice(&merged);
    count
}

/// Pair counts, by the fastest exact route.
pub fn stats(metric: &[f64], human: &[f64], epsilon: f64) -> TauStats {
    if epsilon == 0.0 && metric.len() > 64 {
        stats_sorted(metric, human)
    } else {
        stats_pairs(metric, human, epsilon)
    }
}

/// Number of distinct values (Python's `len(set(v))`, 0.0 and -0.0 one value).
fn distinct(v: &[f64]) -> usize {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    s.dedup_by(|a, b| a == b);
    s.len()
}

/// MTME's `KendallVariants(human, metric, variant, epsilon)` value: NaN for b and c when one
/// side is all ties. `clip` adds scipy's clipping to [-1, 1] (`kendalltau`).
pub fn tau(metric: &[f64], human: &[f64], variant: Variant, epsilon: f64, clip: bool) -> f64 {
    let s = stats(metric, human, epsilon);
    let tot = s.total();
    let xtie = s.ties_metric + s.ties_both;
    let ytie = s.ties_human + s.ties_both;
    if matches!(variant, Variant::B | Variant::C) && (xtie == tot || ytie == tot) {
        return f64::NAN;
    }
    let t = match variant {
        Variant::B => {
            // MTME divides by the metric's side first; scipy's kendalltau(gold, metric) by
            // the gold side first: the same value, not always the same last bit.
            let (first, second) = if clip { (ytie, xtie) } else { (xtie, ytie) };
            (s.con - s.dis) as f64 / ((tot - first) as f64).sqrt() / ((tot - second) as f64).sqrt()
        }
        Variant::C => {
            let size = metric.len() as i64;
            let m = distinct(metric).min(distinct(human)) as i64;
            (2 * (s.con - s.dis)) as f64 / ((size * size * (m - 1)) as f64 / m as f64)
        }
        Variant::T23 => s.tau_23(),
        Variant::Acc23 => s.acc_23(),
    };
    if clip {
        t.clamp(-1.0, 1.0)
    } else {
        t
    }
}
