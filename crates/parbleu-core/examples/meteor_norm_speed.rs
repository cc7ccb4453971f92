//! The METEOR `-norm` normaliser alone, for timing it before and after a change:
//! `cargo run --release --example meteor_norm_speed -- PREFIXES LINES REPS [OUT]`.
//!
//! PREFIXES is the jar's `nonbreaking/english.prefixes`, LINES a text file (one line each).
//! Prints the CPU time per line; OUT, when given, receives every line's words (space-joined),
//! for checking that two builds give the same output.

mod common;

use common::read_lines;
use parbleu_core::metrics::caption::meteor::{normalize, parse_prefixes};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let prefixes = parse_prefixes(&std::fs::read_to_string(&args[1]).unwrap());
    let lines = read_lines(&args[2]);
    let reps: usize = args[3].parse().unwrap();
    let start = Instant::now();
    let mut words = 0usize;
    for _ in 0..reps {
        for l in &lines {
            words += normalize(l, &prefixes).len();
        }
    }
    let per = start.elapsed().as_secs_f64() / (reps * lines.len()) as f64;
    println!(
        "{} lines x {reps}: {:.3} µs per line, {words} words",
        lines.len(),
        per * 1e6
    );
    if let Some(out) = args.get(4) {
        let text: Vec<String> = lines
            .iter()
            .map(|l| normalize(l, &prefixes).join(" "))
            .collect();
        std::fs::write(out, text.join("\n") + "\n").unwrap();
    }
}
