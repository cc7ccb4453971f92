//! Data parallelism that can be switched off, with identical results at any thread count.
//!
//! Work is split into fixed-size chunks of the output, so the decomposition never depends on
//! the number of threads. One thread pool (one thread fewer than the machine has cores: the
//! caller works too) is created lazily and shared by every call whatever its thread count, so
//! asking for many different counts never adds threads; it is re-created in a child process
//! after `fork` (the parent's worker threads do not exist there). Thread counts are capped at
//! the number of cores.

use std::sync::{Arc, Mutex, OnceLock};

struct Pools {
    pid: u32,
    /// `None` before the first parallel call; `Some(None)` when the pool could not be started
    /// (the work then runs on the calling thread alone: same results, no error to report).
    pool: Option<Option<Arc<rayon::ThreadPool>>>,
}

fn pools() -> &'static Mutex<Pools> {
    static POOLS: OnceLock<Mutex<Pools>> = OnceLock::new();
    POOLS.get_or_init(|| {
        Mutex::new(Pools {
            pid: std::process::id(),
            pool: None,
        })
    })
}

/// Number of logical cores this process may use, read once per process.
///
/// `available_parallelism` reads the cgroup quota files on Linux (about 100 µs, more than a
/// small batch costs to score), and every parallel call asks; a later change of affinity is
/// not seen, which only changes the thread count, never a result.
pub fn available() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The shared pool of `available() - 1` helper threads, or `None` if it cannot be started.
fn pool() -> Option<Arc<rayon::ThreadPool>> {
    let mut p = pools().lock().unwrap_or_else(|e| e.into_inner());
    let pid = std::process::id();
    if p.pid != pid {
        // Forked child: the parent's workers are gone. Leak the stale pool rather than
        // dropping it (dropping talks to threads that no longer exist).
        if let Some(Some(old)) = p.pool.take() {
            std::mem::forget(old);
        }
        p.pid = pid;
    }
    p.pool
        .get_or_insert_with(|| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(available().saturating_sub(1).max(1))
                .thread_name(|i| format!("parbleu-{i}"))
                .build()
                .ok()
                .map(Arc::new)
        })
        .clone()
}

/// Resolve a user-facing `workers` value: 0 or negative means all cores; more than the
/// machine's cores is capped at that number (more threads than cores only add switching).
pub fn resolve(workers: i64) -> usize {
    let cores = available();
    if workers <= 0 {
        cores
    } else {
        usize::try_from(workers).map_or(cores, |w| w.min(cores))
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
    let helpers = (workers.min(available()) - 1).min(data.len().div_ceil(chunk_len) - 1);
    let chunks = Mutex::new(data.chunks_mut(chunk_len).enumerate());
    let work = || loop {
        // Taken one at a time: chunks are fixed-size, so who takes which never changes a result.
        let next = chunks.lock().unwrap_or_else(|e| e.into_inner()).next();
        match next {
            Some((k, c)) => f(k * chunk_len, c),
            None => break,
        }
    };
    match pool() {
        Some(pool) if helpers > 0 => pool.in_place_scope(|s| {
            for _ in 0..helpers {
                s.spawn(|_| work());
            }
            work();
        }),
        // One core, or no pool could be started: the caller does every chunk.
        _ => work(),
    }
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
    fn thread_counts_are_capped_at_the_cores() {
        let cores = available();
        assert_eq!(resolve(-1), cores);
        assert_eq!(resolve(0), cores);
        assert_eq!(resolve(1), 1);
        assert_eq!(resolve(i64::MAX), cores);
        let mut data = vec![0u8; 4096];
        for_each_chunk(usize::MAX, &mut data, 1, |_, c| c[0] = 1);
        assert!(data.iter().all(|&v| v == 1));
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
