//! One system's statistics rows in the number type its metric counts in (integers for BLEU and
//! chrF, floats for TER), and the resampling entry points dispatched on that type, so callers
//! (the binding) hold rows of either kind without matching on it.

use super::{ar, bootstrap, bootstrap_indices, Scorer};
use crate::error::{Error, Result};

/// One system's statistics, `n_seg x width` row-major.
#[derive(Debug, Clone, PartialEq)]
pub enum Rows {
    Int(Vec<i64>),
    Float(Vec<f64>),
}

impl Rows {
    /// Whether `sc`'s rows are floats (TER, mean metrics) rather than integers.
    pub fn float_for(sc: &Scorer) -> bool {
        matches!(sc, Scorer::Ter | Scorer::Mean(_))
    }

    /// The values as `f32`, rounded to nearest (numpy's `np.array(stats, dtype='float32')`).
    pub fn to_f32(&self) -> Vec<f32> {
        match self {
            Rows::Int(v) => v.iter().map(|&x| x as f32).collect(),
            Rows::Float(v) => v.iter().map(|&x| x as f32).collect(),
        }
    }
}

/// The systems' rows as slices of one number type; an error if the kinds differ.
fn same_kind<'a, T: 'a>(
    systems: &'a [Rows],
    pick: impl Fn(&'a Rows) -> Option<&'a [T]>,
) -> Result<Vec<&'a [T]>> {
    systems.iter().map(|r| pick(r).ok_or_else(mixed)).collect()
}

fn mixed() -> Error {
    Error::InvalidOption {
        name: "systems".into(),
        value: "integer and float rows".into(),
        expected: "rows of one number type".into(),
    }
}

fn ints(r: &Rows) -> Option<&[i64]> {
    match r {
        Rows::Int(v) => Some(v),
        Rows::Float(_) => None,
    }
}

fn floats(r: &Rows) -> Option<&[f64]> {
    match r {
        Rows::Float(v) => Some(v),
        Rows::Int(_) => None,
    }
}

/// Call `f` with the systems' rows as slices of their one number type.
fn dispatch<R>(
    systems: &[Rows],
    empty: R,
    f_int: impl FnOnce(&[&[i64]]) -> Result<R>,
    f_float: impl FnOnce(&[&[f64]]) -> Result<R>,
) -> Result<R> {
    match systems.first() {
        None => Ok(empty),
        Some(Rows::Int(_)) => f_int(&same_kind(systems, ints)?),
        Some(Rows::Float(_)) => f_float(&same_kind(systems, floats)?),
    }
}

/// [`bootstrap`] of systems of either row type, resamples `draws` (`first..first + n`) of
/// `seed` (no system: no scores).
pub fn bootstrap_rows(
    sc: &Scorer,
    systems: &[Rows],
    n_seg: usize,
    (seed, draws): (u64, std::ops::Range<u64>),
    workers: usize,
) -> Result<Vec<f64>> {
    let (first, n) = (draws.start, (draws.end - draws.start) as usize);
    dispatch(
        systems,
        Vec::new(),
        |s| bootstrap(sc, s, n_seg, seed, first, n, workers),
        |s| bootstrap(sc, s, n_seg, seed, first, n, workers),
    )
}

/// [`bootstrap_indices`] of systems of either row type (no system: no scores).
pub fn bootstrap_indices_rows(
    sc: &Scorer,
    systems: &[Rows],
    n_seg: usize,
    idxs: &[i64],
    workers: usize,
) -> Result<Vec<f64>> {
    dispatch(
        systems,
        Vec::new(),
        |s| bootstrap_indices(sc, s, n_seg, idxs, workers),
        |s| bootstrap_indices(sc, s, n_seg, idxs, workers),
    )
}

/// [`ar`] of two systems of the same row type.
pub fn ar_rows(
    sc: &Scorer,
    a: &Rows,
    b: &Rows,
    n_seg: usize,
    masks: &[u8],
    compat: bool,
    workers: usize,
) -> Result<(Vec<f64>, Vec<f64>)> {
    match (a, b) {
        (Rows::Int(a), Rows::Int(b)) => ar(sc, a, b, n_seg, masks, compat, workers),
        (Rows::Float(a), Rows::Float(b)) => ar(sc, a, b, n_seg, masks, compat, workers),
        _ => Err(mixed()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::bleu::{BleuScoreOpts, Smooth};

    fn bleu() -> Scorer {
        Scorer::Bleu(BleuScoreOpts {
            smooth: Smooth::Exp,
            effective_order: false,
            max_order: 1,
        })
    }

    /// Integer rows give the scores of the generic entry points; float rows those of TER.
    #[test]
    fn dispatch_matches_the_typed_entry_points() {
        let a = vec![3i64, 3, 2, 3, 4, 4, 4, 4];
        let b = vec![3i64, 4, 1, 3, 4, 4, 2, 4];
        let sc = bleu();
        let rows = [Rows::Int(a.clone()), Rows::Int(b.clone())];
        assert_eq!(
            bootstrap_rows(&sc, &rows, 2, (7, 0..5), 1).unwrap(),
            bootstrap(&sc, &[&a[..], &b[..]], 2, 7, 0, 5, 1).unwrap()
        );
        let idxs = [0i64, 1, 1, 1, 0, 0];
        assert_eq!(
            bootstrap_indices_rows(&sc, &rows, 2, &idxs, 1).unwrap(),
            bootstrap_indices(&sc, &[&a[..], &b[..]], 2, &idxs, 1).unwrap()
        );
        let masks = [0b01u8, 0b10, 0b11];
        for compat in [false, true] {
            let want = ar(&sc, &a, &b, 2, &masks, compat, 1);
            assert_eq!(ar_rows(&sc, &rows[0], &rows[1], 2, &masks, compat, 1), want);
        }
        let (fa, fb) = (vec![1.0, 4.0, 2.0, 5.0], vec![0.0, 4.0, 3.0, 5.0]);
        let frows = [Rows::Float(fa.clone()), Rows::Float(fb.clone())];
        assert_eq!(
            bootstrap_rows(&Scorer::Ter, &frows, 2, (7, 0..5), 1).unwrap(),
            bootstrap(&Scorer::Ter, &[&fa[..], &fb[..]], 2, 7, 0, 5, 1).unwrap()
        );
        assert!(Rows::float_for(&Scorer::Ter) && !Rows::float_for(&sc));
    }

    #[test]
    fn no_system_no_scores_and_mixed_kinds_refused() {
        assert!(bootstrap_rows(&bleu(), &[], 2, (7, 0..5), 1)
            .unwrap()
            .is_empty());
        let mixed = [Rows::Int(vec![0; 4]), Rows::Float(vec![0.0; 4])];
        assert!(bootstrap_rows(&bleu(), &mixed, 1, (7, 0..5), 1).is_err());
        assert!(ar_rows(&bleu(), &mixed[0], &mixed[1], 1, &[1], false, 1).is_err());
        assert_eq!(
            Rows::Int(vec![1, 16_777_217]).to_f32(),
            vec![1.0, 16_777_216.0]
        );
    }
}
