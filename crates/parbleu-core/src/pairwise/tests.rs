//! Pair scores against the metrics' own sentence scores.

use super::*;
use crate::metrics::bleu::Smooth;
use crate::metrics::bleu::{self, BleuExtract, BleuScoreOpts};
use crate::metrics::chrf::{self, ChrfExtract, ChrfScoreOpts};
use crate::metrics::ter::{self, TercomOpts};
use crate::tokenize::Tokenizer;

fn bleu_cfg() -> (BleuExtract, BleuScoreOpts) {
    (
        BleuExtract {
            tokenizer: Tokenizer::T13a,
            lowercase: false,
            max_order: 4,
        },
        BleuScoreOpts {
            smooth: Smooth::Exp,
            effective_order: true,
            max_order: 4,
        },
    )
}

fn strings() -> Vec<String> {
    [
        "The cat sat on the mat.",
        "the cat the cat sat",
        "A dog, a cat and the mat!",
        "",
        "mat mat mat on on the",
        "The cat sat on the mat.",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

fn bleu_direct(h: &str, r: &str) -> f64 {
    let (cfg, o) = bleu_cfg();
    let p = bleu::PreparedRefs::new(&cfg, vec![vec![r.to_string()]], 1);
    let (rows, _) = bleu::extract(&cfg, &[h.to_string()], &p.segments, 1).unwrap();
    bleu::finalize(&rows, &o).score
}

fn chrf_direct(c: &ChrfExtract, h: &str, r: &str) -> f64 {
    let p = chrf::PreparedRefs::new(c, vec![vec![r.to_string()]], 1);
    let rows = chrf::extract(c, &[h.to_string()], &p, 1).unwrap();
    chrf::f_score(&rows, &c.score)
}

#[test]
fn bleu_rect_and_symmetric_equal_direct() {
    let (cfg, o) = bleu_cfg();
    let s = strings();
    let n = s.len();
    let t = NgramTable::bleu(&cfg, o, &s, 1);
    let idx: Vec<usize> = (0..n).collect();
    let mut rect = vec![0.0; n * n];
    t.score_rect(&idx, &idx, &mut rect, 2);
    let mut sym = vec![0.0; n * n];
    t.score_symmetric(0..2, &mut sym, 1);
    t.score_symmetric(2..n, &mut sym, 2);
    for i in 0..n {
        for j in 0..n {
            let d = bleu_direct(&s[i], &s[j]);
            assert_eq!(rect[i * n + j].to_bits(), d.to_bits(), "{i} {j}");
            assert_eq!(sym[i * n + j].to_bits(), d.to_bits(), "{i} {j}");
        }
    }
}

#[test]
fn chrf_pairs_equal_direct() {
    for (nw, lc, ws) in [(0, false, false), (2, true, false), (2, false, true)] {
        let c = ChrfExtract {
            score: ChrfScoreOpts::new(6, nw, 2.0, false),
            lowercase: lc,
            whitespace: ws,
        };
        let s = strings();
        let n = s.len();
        let t = NgramTable::chrf(&c, &s, 1);
        let mut sym = vec![0.0; n * n];
        t.score_symmetric(0..n, &mut sym, 1);
        for i in 0..n {
            for j in 0..n {
                let d = chrf_direct(&c, &s[i], &s[j]);
                assert_eq!(sym[i * n + j].to_bits(), d.to_bits(), "{i} {j} {nw}");
            }
        }
    }
}

#[test]
fn aggregate_of_one_reference_is_the_pair_score() {
    let (cfg, o) = bleu_cfg();
    let s = strings();
    let t = NgramTable::bleu(&cfg, o, &s, 1);
    let rows: Vec<usize> = (0..s.len()).collect();
    let mut agg = vec![0.0; s.len()];
    t.score_aggregate(&rows, &[2], &[1.0], &mut agg, 1);
    for i in 0..s.len() {
        assert_eq!(agg[i].to_bits(), bleu_direct(&s[i], &s[2]).to_bits());
    }
}

#[test]
fn float_finalizers_equal_integer_ones() {
    let o = ChrfScoreOpts::new(6, 0, 2.0, false);
    let stats = [
        98i64, 105, 84, 97, 104, 59, 96, 103, 48, 95, 102, 42, 94, 101, 36, 93, 100, 31,
    ];
    let f: Vec<f64> = stats.iter().map(|&x| x as f64).collect();
    assert_eq!(chrf_score(&f, &o), chrf::f_score(&stats, &o));
    for smooth in [
        Smooth::None,
        Smooth::Exp,
        Smooth::Floor(0.1),
        Smooth::AddK(1.0),
    ] {
        for eff in [false, true] {
            let bo = BleuScoreOpts {
                smooth,
                effective_order: eff,
                max_order: 4,
            };
            for row in [
                [7i64, 9, 5, 2, 0, 0, 7, 6, 5, 4],
                [3, 2, 2, 0, 0, 0, 3, 2, 1, 0],
            ] {
                let c: Vec<f64> = row[2..6].iter().map(|&x| x as f64).collect();
                let tt: Vec<f64> = row[6..].iter().map(|&x| x as f64).collect();
                let got = bleu_score(row[0] as f64, row[1] as f64, &c, &tt, &bo);
                assert_eq!(got.to_bits(), bleu::finalize(&row, &bo).score.to_bits());
            }
        }
    }
}

#[test]
fn ter_pairs_equal_direct() {
    let o = TercomOpts::default();
    let s = strings();
    let n = s.len();
    let t = TerTable::new(&o, &s, 1);
    let idx: Vec<usize> = (0..n).collect();
    let mut out = vec![0.0; n * n];
    t.score_rect(&idx, &idx, &mut out, 2);
    for i in 0..n {
        for j in 0..n {
            let p = ter::PreparedRefs::new(&o, vec![vec![s[j].clone()]], 1);
            let r = ter::extract(&o, &[s[i].clone()], &p, 1).unwrap();
            assert_eq!(out[i * n + j], ter::finalize(r[0], r[1]));
        }
    }
}
