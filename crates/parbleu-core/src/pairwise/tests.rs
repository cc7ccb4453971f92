//! Pair scores against the metrics' own sentence scores.

use super::*;
use crate::metrics::bleu::Smooth;
use crate::metrics::bleu::{self, BleuExtract, BleuScoreOpts};
use crate::metrics::chrf::{self, ChrfExtract, ChrfScoreOpts};
use crate::metrics::rouge::tokenize::{Kind, RougeTokenizer};
use crate::metrics::rouge::{self, Measure, RougeOpts, RougeType};
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

/// Strings of a few words from a small vocabulary (so pairs share n-grams), with punctuation,
/// case, newlines and empty strings.
fn arb_strings() -> impl proptest::strategy::Strategy<Value = Vec<String>> {
    use proptest::prelude::*;
    let word = prop::sample::select(vec![
        "the", "The", "cat", "cats", "sat", "on", "mat", "a", "A", "dog,", "running", "runs", ".",
        "!", "\n", "ünï", "猫", "42",
    ]);
    prop::collection::vec(
        prop::collection::vec(word, 0..12).prop_map(|w| w.join(" ")),
        1..7,
    )
}

fn all(n: usize) -> Vec<usize> {
    (0..n).collect()
}

proptest::proptest! {
    #![proptest_config(proptest::test_runner::Config::with_cases(48))]

    /// The kinds list's tables give the metrics' own sentence scores, bit for bit, in every
    /// mode they declare (the n-gram tables' numbers before the list: the same functions).
    #[test]
    fn generic_tables_equal_sentence_scores(s in arb_strings(), workers in 1usize..4) {
        let n = s.len();
        let (cfg, o) = bleu_cfg();
        let c = ChrfExtract {
            score: ChrfScoreOpts::new(6, 2, 2.0, false),
            lowercase: false,
            whitespace: false,
        };
        let ter_o = TercomOpts::default();
        let kinds = [
            PairOptions::Bleu((cfg, o)),
            PairOptions::Chrf(c),
            PairOptions::Ter(ter_o),
        ];
        for opts in &kinds {
            let t = Table::build(opts, &s, workers);
            let mut rect = vec![0.0; n * n];
            t.score_rect(&all(n), &all(n), &mut rect, workers);
            let mut sym = vec![0.0; n * n];
            let symmetric = t.score_symmetric(0..n, &mut sym, workers).is_ok();
            proptest::prop_assert_eq!(symmetric, t.modes().symmetric);
            for i in 0..n {
                for j in 0..n {
                    let d = match opts {
                        PairOptions::Bleu(_) => bleu_direct(&s[i], &s[j]),
                        PairOptions::Chrf(c) => chrf_direct(c, &s[i], &s[j]),
                        _ => {
                            let p = ter::PreparedRefs::new(&ter_o, vec![vec![s[j].clone()]], 1);
                            let r = ter::extract(&ter_o, &[s[i].clone()], &p, 1).unwrap();
                            ter::finalize(r[0], r[1])
                        }
                    };
                    proptest::prop_assert_eq!(rect[i * n + j].to_bits(), d.to_bits());
                    if symmetric {
                        proptest::prop_assert_eq!(sym[i * n + j].to_bits(), d.to_bits());
                    }
                }
            }
        }
    }

    /// ROUGE's table gives `100 *` the measure of `score_pair` (rouge-score's `score`) of each
    /// pair, for every rouge type, tokenizer and stemming option.
    #[test]
    fn rouge_table_equals_score_pair(
        s in arb_strings(),
        ty in 0usize..5,
        kind in 0usize..3,
        stem: bool,
        measure in 0usize..3,
        workers in 1usize..4,
    ) {
        let types = [
            RougeType::N(1),
            RougeType::N(2),
            RougeType::N(4),
            RougeType::L,
            RougeType::Lsum,
        ];
        let tokenizer = RougeTokenizer {
            kind: [Kind::Default, Kind::Unicode, Kind::None][kind],
            stem,
        };
        let measure = [Measure::Precision, Measure::Recall, Measure::Fmeasure][measure];
        let po = RougePairOpts { rouge_type: types[ty], tokenizer, measure };
        let t = Table::build(&PairOptions::Rouge(po), &s, workers);
        let n = s.len();
        let mut out = vec![0.0; n * n];
        t.score_rect(&all(n), &all(n), &mut out, workers);
        let ro = RougeOpts { types: vec![types[ty]], tokenizer };
        for i in 0..n {
            for j in 0..n {
                let want = 100.0 * rouge::score_pair(&ro, &s[i], &[s[j].as_str()])[0].prf
                    [measure.index()];
                proptest::prop_assert_eq!(out[i * n + j].to_bits(), want.to_bits(), "{} {}", i, j);
            }
        }
    }
}

#[test]
fn rouge_table_declares_rectangles_only() {
    let po = RougePairOpts {
        rouge_type: RougeType::L,
        tokenizer: RougeTokenizer {
            kind: Kind::Default,
            stem: false,
        },
        measure: Measure::Fmeasure,
    };
    let t = Table::build(&PairOptions::Rouge(po), &strings(), 1);
    assert_eq!((t.name(), t.modes()), ("ROUGE", PairModes::RECT));
    let mut out = vec![0.0; 36];
    let e = t
        .score_symmetric(0..6, &mut out, 1)
        .unwrap_err()
        .to_string();
    assert!(e.contains("not declared by ROUGE"), "{e}");
    // "The cat sat on the mat." against "the cat the cat sat": rougeL 3 of 6 and 3 of 5.
    t.score_rect(&[0], &[1], &mut out[..1], 1);
    let (p, r) = (3.0 / 6.0, 3.0 / 5.0);
    assert_eq!(out[0], 100.0 * (2.0 * p * r / (p + r)));
}
