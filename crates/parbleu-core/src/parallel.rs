//! Data parallelism that can be switched off, with identical results at any thread count.
//!
//! Work is split into fixed-size chunks of the output, so the decomposition never depends on
//! the number of threads. Thread pools are created lazily per thread count and re-created in a
//! child process after `fork` (the parent's worker threads do not exist there).

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
///
/// The calling thread is one of them: it takes chunks like the `workers - 1` pool threads.
/// Blocking it while a pool of `workers` threads does the work instead lets the OS wake both
/// pool threads onto the core the caller just left, where they share it until the scheduler
/// moves one (several milliseconds on an idle virtual machine: 2-thread batches took 1.5x as
/// long every other call). A running caller keeps its core, so the woken thread goes to an
/// idle one.
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
    let helpers = (workers - 1).min(data.len().div_ceil(chunk_len) - 1);
    let chunks = Mutex::new(data.chunks_mut(chunk_len).enumerate());
    let work = || loop {
        // Taken one at a time: chunks are fixed-size, so who takes which never changes a result.
        let next = chunks.lock().unwrap_or_else(|e| e.into_inner()).next();
        match next {
            Some((k, c)) => f(k * chunk_len, c),
            None => break,
        }
    };
    pool(helpers).in_place_scope(|s| {
        for _ in 0..helpers {
            s.spawn(|_| work());
        }
        work();
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_chunk_once_at_any_thread_count() {
        for len in [0, 1, 7, 8, 9, 100, 1000] {
            for workers in 1..5 {
                let mut data = vec![0usize; len];
                for_each_chunk(workers, &mut data, 8, |start, c| {
                    for (j, v) in c.iter_mut().enumerate() {
                        *v += start + j + 1;
                    }
                });
                assert_eq!(
                    data,
                    (1..=len).collect::<Vec<_>>(),
                    "len {len} workers {workers}"
                );
            }
        }
    }

    #[test]
    fn nested_calls_finish() {
        let mut outer = vec![0u64; 64];
        for_each_chunk(2, &mut outer, 4, |start, c| {
            let mut inner = vec![1u64; 32];
            for_each_chunk(2, &mut inner, 4, |_, ic| {
                ic.iter_mut().for_each(|v| *v *= 2)
            });
            c.iter_mut()
                .for_each(|v| *v = start as u64 + inner.iter().sum::<u64>());
        });
        assert!(outer
            .iter()
            .enumerate()
            .all(|(i, &v)| v == (i / 4 * 4) as u64 + 64));
    }
}
