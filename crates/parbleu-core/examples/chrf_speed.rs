//! Where the time goes in chrF extraction, for instruction counts under callgrind:
//! `cargo run --release --example chrf_speed -- MODE WORD_ORDER REPS HYP REF [REF...]`.
//!
//! MODE: `corpus` prepares the references again for every repetition (references passed at
//! every call), `cached` prepares them once, `prepare` only prepares them, `read` only
//! copies the input (the baseline to subtract).

use parbleu_core::metrics::chrf::{extract, ChrfExtract, ChrfScoreOpts, PreparedRefs};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let read = |p: &str| -> Vec<String> {
        std::fs::read_to_string(p)
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect()
    };
    let mode = args[1].as_str();
    let word_order: usize = args[2].parse().unwrap();
    let reps: usize = args[3].parse().unwrap();
    let hyps = read(&args[4]);
    let streams: Vec<Vec<String>> = args[5..].iter().map(|p| read(p)).collect();
    let segments = || -> Vec<Vec<String>> {
        (0..hyps.len())
            .map(|i| streams.iter().map(|s| s[i].clone()).collect())
            .collect()
    };
    let cfg = ChrfExtract {
        score: ChrfScoreOpts::new(6, word_order, 2.0, false),
        lowercase: false,
        whitespace: false,
    };
    let t = Instant::now();
    let mut total = 0i64;
    let cached = (mode == "cached").then(|| PreparedRefs::new(&cfg, segments(), 1));
    for _ in 0..reps {
        match mode {
            "corpus" => {
                let p = PreparedRefs::new(&cfg, segments(), 1);
                total += extract(&cfg, &hyps, &p, 1).unwrap().iter().sum::<i64>();
            }
            "cached" => {
                let p = cached.as_ref().unwrap();
                total += extract(&cfg, &hyps, p, 1).unwrap().iter().sum::<i64>();
            }
            "prepare" => total += PreparedRefs::new(&cfg, segments(), 1).len() as i64,
            "read" => total += segments().len() as i64,
            _ => panic!("mode: corpus, cached, prepare or read"),
        }
    }
    let per = t.elapsed().as_secs_f64() / (reps * hyps.len()) as f64 * 1e6;
    println!("{mode}: {per:.3} us/segment (checksum {total})");
}
