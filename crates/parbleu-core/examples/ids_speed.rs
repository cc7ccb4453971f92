//! Token-id sentence BLEU rows, single thread: `cargo run --release --example ids_speed --
//! [ROUNDS]`. A batch of 256 x 128 random ids (vocabulary 1,000) and a reference keeping 70 %
//! of them, as benchmarks/bench_integrations.py scores; prints the best and median round.

use parbleu_core::ids::{bleu_extract, RefStream, Seqs};
use std::time::Instant;

fn main() {
    let rounds: usize = std::env::args().nth(1).map_or(30, |a| a.parse().unwrap());
    let (batch, len) = (256usize, 128usize);
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let hyp: Vec<i64> = (0..batch * len)
        .map(|_| 1 + (next() % 999) as i64)
        .collect();
    let rf: Vec<i64> = hyp
        .iter()
        .map(|&t| {
            if next() % 10 < 3 {
                1 + (next() % 999) as i64
            } else {
                t
            }
        })
        .collect();
    let offs: Vec<usize> = (0..=batch).map(|i| i * len).collect();
    let hs = Seqs::new(&hyp, &offs, "h").unwrap();
    let rs = [RefStream {
        seqs: Seqs::new(&rf, &offs, "r").unwrap(),
        present: None,
    }];
    let mut times = vec![];
    let mut check = 0i64;
    for _ in 0..rounds {
        let t = Instant::now();
        for _ in 0..10 {
            check += bleu_extract(hs, &rs, None, 4, 1)
                .unwrap()
                .iter()
                .sum::<i64>();
        }
        times.push(t.elapsed().as_secs_f64() / 10.0 * 1e3);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "256x128 ids, 1 thread: best {:.3} ms, median {:.3} ms (checksum {check})",
        times[0],
        times[rounds / 2]
    );
}
