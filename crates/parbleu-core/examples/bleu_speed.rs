//! Where the time goes in BLEU extraction:
//! `cargo run --release --example bleu_speed -- HYP REF [PHASE [TOKENIZER [lc]]]`
//! with PHASE one of `all`, `prepare`, `tokenize`, `into`, `tokens`, `extract`; one phase alone,
//! e.g. under `valgrind --tool=callgrind`, for instruction counts. `tokenize` (preprocess each
//! hypothesis into a new string), `into` (the same into a reused buffer) and `tokens` (`into`,
//! then iterate over the tokens, as BLEU extraction does) read no references; `extract`
//! prepares the references and extracts statistics (subtract `prepare`). `lc` lowercases.

mod common;

use common::read_lines;
use parbleu_core::metrics::bleu::{extract, BleuExtract, PreparedRefs};
use parbleu_core::tokenize::Tokenizer;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let hyps = read_lines(&args[1]);
    let phase = args.get(3).map_or("all", String::as_str);
    let cfg = BleuExtract {
        tokenizer: Tokenizer::from_name(args.get(4).map_or("13a", String::as_str)).unwrap(),
        lowercase: args.get(5).is_some_and(|a| a == "lc"),
        max_order: 4,
    };
    let reps: usize = std::env::var("REPS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(if phase == "all" { 20 } else { 5 });
    let per = |t: Instant| t.elapsed().as_secs_f64() / (reps * hyps.len()) as f64 * 1e6;
    if matches!(phase, "tokenize" | "into" | "tokens") {
        let t = Instant::now();
        let mut total = 0;
        let mut buf = String::new();
        for _ in 0..reps {
            total += match phase {
                "tokenize" => tokenize_only(&cfg, &hyps),
                "into" => hyps
                    .iter()
                    .map(|h| {
                        cfg.tokenizer.preprocess_into(h, cfg.lowercase, &mut buf);
                        buf.len()
                    })
                    .sum(),
                _ => tokens_only(&cfg, &hyps, &mut buf),
            };
        }
        println!("{phase}: {:.3} us/segment ({total})", per(t));
        return;
    }
    let refs = read_lines(&args[2]);
    let t = Instant::now();
    let mut prepared = None;
    for _ in 0..reps {
        prepared = Some(PreparedRefs::new(
            &cfg,
            refs.iter().map(|r| vec![r.clone()]).collect(),
            1,
        ));
    }
    println!("prepare refs: {:.3} us/segment", per(t));
    let prepared = prepared.unwrap();
    if phase == "prepare" {
        return;
    }
    if phase != "extract" {
        let t = Instant::now();
        for _ in 0..reps {
            tokenize_only(&cfg, &hyps);
        }
        println!("tokenize hyps: {:.3} us/segment", per(t));
    }
    let t = Instant::now();
    for _ in 0..reps {
        extract(&cfg, &hyps, &prepared.segments, 1).unwrap();
    }
    println!("extract: {:.3} us/segment", per(t));
}

fn tokenize_only(cfg: &BleuExtract, hyps: &[String]) -> usize {
    hyps.iter()
        .map(|h| cfg.tokenizer.preprocess(h, cfg.lowercase).len())
        .sum()
}

fn tokens_only(cfg: &BleuExtract, hyps: &[String], buf: &mut String) -> usize {
    hyps.iter()
        .map(|h| {
            cfg.tokenizer.preprocess_into(h, cfg.lowercase, buf);
            cfg.tokenizer.tokens(buf).map(str::len).sum::<usize>() + 1
        })
        .sum()
}
