//! Native METEOR statistics alone, for timing a change to the matcher or the search:
//! `cargo run --release --example meteor_speed -- DATA INPUT REPS [OUT]` (`WORKERS=N`: threads).
//!
//! DATA is a folder with the jar's `function/english.words`, `synonym/english.synsets`,
//! `synonym/english.exceptions`, `nonbreaking/english.prefixes` (unzipped from the jar) and
//! `table.bin`, the compiled paraphrase table from the METEOR cache folder. INPUT has one
//! segment per line: the hypothesis and its references, separated by U+001F. Prints the CPU
//! time of one batch; OUT, when given, receives every segment's statistics, for checking that
//! two builds agree.

mod common;

use common::read_lines;
use parbleu_core::metrics::caption::meteor::{
    paraphrase::Table, parse_prefixes, Meteor, Params, Resources,
};
use std::sync::Arc;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir = std::path::Path::new(&args[1]);
    let read = |p: &str| std::fs::read(dir.join(p)).unwrap_or_else(|e| panic!("{p}: {e}"));
    let bin = read("table.bin");
    // The compiled file's label: a u32 length after the magic and the format.
    let n = u32::from_le_bytes(bin[12..16].try_into().unwrap()) as usize;
    let key = std::str::from_utf8(&bin[16..16 + n]).unwrap().to_owned();
    let table = Arc::new(Table::from_compiled(&bin, &key).unwrap());
    let res = Resources::with_table(
        &read("function/english.words"),
        &read("synonym/english.synsets"),
        &read("synonym/english.exceptions"),
        table,
    )
    .unwrap();
    let prefixes =
        parse_prefixes(std::str::from_utf8(&read("nonbreaking/english.prefixes")).unwrap());
    let m = Meteor {
        res,
        prefixes,
        params: Params::EN,
    };
    let lines = read_lines(&args[2]);
    let segs: Vec<Vec<&str>> = lines.iter().map(|l| l.split('\u{1f}').collect()).collect();
    let tests: Vec<&str> = segs.iter().map(|s| s[0]).collect();
    let refs: Vec<Vec<&str>> = segs.iter().map(|s| s[1..].to_vec()).collect();
    let reps: usize = args[3].parse().unwrap();
    let workers: usize = std::env::var("WORKERS").map_or(1, |w| w.parse().unwrap());
    let mut rows = Vec::new();
    let mut best = f64::INFINITY;
    for _ in 0..reps {
        let start = Instant::now();
        rows = m.stats_batch(&tests, &refs, workers);
        best = best.min(start.elapsed().as_secs_f64());
    }
    println!(
        "{} segments: best of {reps} {:.2} ms per batch",
        tests.len(),
        best * 1e3
    );
    if let Some(out) = args.get(4) {
        let text: Vec<String> = rows
            .chunks(23)
            .map(|r| {
                r.iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        std::fs::write(out, text.join("\n") + "\n").unwrap();
    }
}
