//! Where the time goes in BLEU extraction:
//! `cargo run --release --example bleu_speed -- HYP REF [prepare|tokenize|extract]`
//! (one phase alone, e.g. under `valgrind --tool=callgrind`, for instruction counts).

use parbleu_core::metrics::bleu::{extract, BleuExtract, PreparedRefs};
use parbleu_core::tokenize::Tokenizer;
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
    let hyps = read(&args[1]);
    let refs = read(&args[2]);
    let cfg = BleuExtract {
        tokenizer: Tokenizer::T13a,
        lowercase: false,
        max_order: 4,
    };
    let phase = args.get(3).map_or("all", String::as_str);
    let reps: usize = std::env::var("REPS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(if phase == "all" { 20 } else { 5 });
    let t = Instant::now();
    let mut prepared = None;
    for _ in 0..reps {
        prepared = Some(PreparedRefs::new(
            &cfg,
            refs.iter().map(|r| vec![r.clone()]).collect(),
            1,
        ));
    }
    let per = t.elapsed().as_secs_f64() / (reps * hyps.len()) as f64 * 1e6;
    println!("prepare refs: {per:.3} us/segment");
    let prepared = prepared.unwrap();
    if phase == "prepare" {
        return;
    }
    let t = Instant::now();
    for _ in 0..reps {
        if phase != "extract" {
            tokenize_only(&cfg, &hyps);
        }
    }
    let per = t.elapsed().as_secs_f64() / (reps * hyps.len()) as f64 * 1e6;
    println!("tokenize hyps: {per:.3} us/segment");
    let t = Instant::now();
    for _ in 0..reps {
        if phase != "tokenize" {
            extract(&cfg, &hyps, &prepared.segments, 1).unwrap();
        }
    }
    let per = t.elapsed().as_secs_f64() / (reps * hyps.len()) as f64 * 1e6;
    println!("extract: {per:.3} us/segment");
}

fn tokenize_only(cfg: &BleuExtract, hyps: &[String]) -> usize {
    hyps.iter()
        .map(|h| cfg.tokenizer.preprocess(h, cfg.lowercase).len())
        .sum()
}
