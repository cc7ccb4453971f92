//! The generic block loops of `metrics::extract` against each metric's own results.

use parbleu_core::metrics::bleu::{self, BleuExtract};
use parbleu_core::metrics::chrf::{self, ChrfExtract, ChrfScoreOpts};
use parbleu_core::metrics::extract::{extract, extract_block, sentence_scores_block};
use parbleu_core::metrics::ter::{self, TercomOpts};
use parbleu_core::tokenize::Tokenizer;

fn corpus() -> (Vec<String>, Vec<Vec<String>>) {
    let hyps: Vec<String> = (0..40)
        .map(|i| format!("The cat w{} sat on the mat {} .", i % 7, i % 3))
        .collect();
    let refs = (0..40)
        .map(|i| {
            let mut r = vec![format!("the cat sat w{} on a mat", i % 5)];
            if i % 4 == 0 {
                r.push(format!("A cat {} sat .", i % 6));
            }
            r
        })
        .collect();
    (hyps, refs)
}

/// BLEU's generic rows, in segment order and block by block, are the rows of its own
/// grouped-order loop (`extract_strs`), whatever the threads.
#[test]
fn bleu_generic_rows_equal_its_pair_loop() {
    let cfg = BleuExtract {
        tokenizer: Tokenizer::T13a,
        lowercase: false,
        max_order: 4,
    };
    let (hyps, refs) = corpus();
    let p = bleu::PreparedRefs::new(&cfg, refs, 1);
    let (want, _) = bleu::extract_strs(&cfg, &hyps, &p.segments, 1).unwrap();
    for workers in [1, 3] {
        assert_eq!(extract(&p, &cfg, &hyps, workers).unwrap(), want);
        let mut blocks = Vec::new();
        for first in (0..40).step_by(9) {
            let end = (first + 9).min(40);
            blocks.extend(extract_block(&p, &cfg, &hyps[first..end], first, workers).unwrap());
        }
        assert_eq!(blocks, want);
    }
}

/// chrF's generic sentence scores are the finalize of its generic rows; TER's rows of a
/// segment without references stay zeros; lengths are checked.
#[test]
fn generic_loops_check_and_score() {
    let (hyps, refs) = corpus();
    let c = ChrfExtract {
        score: ChrfScoreOpts::new(6, 2, 2.0, false),
        lowercase: true,
        whitespace: false,
    };
    let p = chrf::PreparedRefs::new(&c, refs.clone(), 1);
    let rows = extract(&p, &c, &hyps, 2).unwrap();
    let scores = sentence_scores_block(&p, &c, &hyps, 0, 2, |r| chrf::f_score(r, &c.score));
    let want: Vec<f64> = rows
        .chunks(c.width())
        .map(|r| chrf::f_score(r, &c.score))
        .collect();
    assert_eq!(scores.unwrap(), want);
    assert!(extract(&p, &c, &hyps[1..], 1).is_err());
    assert!(extract_block(&p, &c, &hyps[..5], 36, 1).is_err());
    let o = TercomOpts::default();
    let mut tr = refs;
    tr[3].clear();
    let tp = ter::PreparedRefs::new(&o, tr, 1);
    let rows = extract(&tp, &o, &hyps, 2).unwrap();
    assert_eq!(&rows[6..8], &[0.0, 0.0]);
    assert!(rows[8] > 0.0 || rows[9] > 0.0);
}
