//! Where the time goes in chrF extraction, for instruction counts under callgrind:
//! `cargo run --release --example chrf_speed -- MODE WORD_ORDER REPS HYP[,HYP...] REF [REF...]`.
//!
//! MODE: `corpus` prepares the references again for every repetition (references passed at
//! every call), `cached` prepares them once, `many` prepares them once and scores all the
//! systems (HYP files, comma-separated) in one `extract_many` call, `prepare` only prepares
//! them, `read` only copies the input (the baseline to subtract). Times are per segment of
//! one system.

mod common;

use common::read_lines;
use parbleu_core::metrics::chrf::{
    extract, extract_many, ChrfExtract, ChrfScoreOpts, PreparedRefs,
};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = args[1].as_str();
    let word_order: usize = args[2].parse().unwrap();
    let reps: usize = args[3].parse().unwrap();
    let systems: Vec<Vec<String>> = args[4].split(',').map(read_lines).collect();
    let hyps = &systems[0];
    let streams: Vec<Vec<String>> = args[5..].iter().map(|p| read_lines(p)).collect();
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
    let cached = matches!(mode, "cached" | "many").then(|| PreparedRefs::new(&cfg, segments(), 1));
    let slices: Vec<&[String]> = systems.iter().map(Vec::as_slice).collect();
    for _ in 0..reps {
        match mode {
            "corpus" => {
                let p = PreparedRefs::new(&cfg, segments(), 1);
                total += extract(&cfg, hyps, &p, 1).unwrap().iter().sum::<i64>();
            }
            "cached" => {
                let p = cached.as_ref().unwrap();
                for hyps in &systems {
                    total += extract(&cfg, hyps, p, 1).unwrap().iter().sum::<i64>();
                }
            }
            "many" => {
                let p = cached.as_ref().unwrap();
                total += extract_many(&cfg, &slices, p, 0, 1)
                    .unwrap()
                    .iter()
                    .sum::<i64>();
            }
            "prepare" => total += PreparedRefs::new(&cfg, segments(), 1).len() as i64,
            "read" => total += segments().len() as i64,
            _ => panic!("mode: corpus, cached, prepare or read"),
        }
    }
    let per_system = matches!(mode, "cached" | "many") as usize * (systems.len() - 1) + 1;
    let per = t.elapsed().as_secs_f64() / (reps * hyps.len() * per_system) as f64 * 1e6;
    println!("{mode}: {per:.3} us/segment (checksum {total})");
}
