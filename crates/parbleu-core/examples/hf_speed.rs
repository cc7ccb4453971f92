//! Where the time goes in per-sentence HF BLEU (13a tokens):
//! `cargo run --release --example hf_speed -- REPS HYP REF` prints microseconds per sentence
//! of `flavors::hf::sentence_bleu`, one pair at a time (the per-call path without Python).

mod common;

use common::read_lines;
use parbleu_core::flavors::hf::sentence_bleu;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let reps: usize = args[1].parse().unwrap();
    let (hyps, refs) = (read_lines(&args[2]), read_lines(&args[3]));
    let t = Instant::now();
    let mut total = 0.0;
    for _ in 0..reps {
        for (h, r) in hyps.iter().zip(&refs) {
            total += sentence_bleu(h, &[r.as_str()], 4, false).map_or(0.0, |b| b.bleu);
        }
    }
    let per = t.elapsed().as_secs_f64() / (reps * hyps.len()) as f64 * 1e6;
    println!("{per:.3} us/sentence (checksum {total})");
}
