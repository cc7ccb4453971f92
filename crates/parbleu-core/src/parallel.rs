//! Data parallelism that can be switched off, with identical results at any thread count.
//!
//! Work is split into fixed-size chunks of the output, so the decomposition never depends on
//! the number of threads. Thread pools are created lazily per thread count and re-created in a
//! child process after `fork` (the parent's worker threads do not exist there).

use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

struct Pools {
    pid: u32,
    by_threads: HashMap<usize, Arc<rayon::ThreadPool>>,
}

fn pools() -> &'static Mutex<Pools> {
    static POOLS: OnceLock<Mutex<Pools>> = OnceLock::new();
    POOLS.get_or_init(|| {
        Mutex::new(Pools {
            pid: std::process::id(),
            by_threads: HashMap::new(),
        })
    })
}

/// Number of logical cores.
pub fn available() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn pool(threads: usize) -> Arc<rayon::ThreadPool> {
    let mut p = pools().lock().unwrap_or_else(|e| e.into_inner());
    let pid = std::process::id();
    if p.pid != pid {
        // Forked child: the parent's workers are gone. Leak the stale pools rather than
        // dropping them (dropping talks to threads that no longer exist).
        for (_, old) in p.by_threads.drain() {
            std::mem::forget(old);
        }
        p.pid = pid;
    }
    p.by_threads
        .entry(threads)
        .or_insert_with(|| {
            Arc::new(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .thread_name(|i| format!("parbleu-{i}"))
                    .build()
                    .expect("cannot start worker threads"),
            )
        })
        .clone()
}

/// Resolve a user-facing `workers` value: 0 or negative means all cores.
pub fn resolve(workers: i64) -> usize {
    if workers <= 0 {
        available()
    } else {
        workers as usize
    }
}

/// Call `f(start_index, chunk)` for each `chunk_len`-sized chunk of `data`, on `workers` threads.
pub fn for_each_chunk<T: Send, F>(workers: usize, data: &mut [T], chunk_len: usize, f: F)
where
    F: Fn(usize, &mut [T]) + Sync + Send,
{
    let chunk_len = chunk_len.max(1);
    if workers <= 1 || data.len() <= chunk_len {
        for (k, c) in data.chunks_mut(chunk_len).enumerate() {
            f(k * chunk_len, c);
        }
        return;
    }
    pool(workers).install(|| {
        data.par_chunks_mut(chunk_len)
            .enumerate()
            .for_each(|(k, c)| f(k * chunk_len, c));
    });
}
