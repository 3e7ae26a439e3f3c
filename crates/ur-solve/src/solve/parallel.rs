//! Sharing a sweep between threads.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use super::records::Entries;

/// Runs `f` over the items on scoped threads (the first on this one) and
/// returns the largest result.
pub(super) fn par_max<T: Send, F>(items: Vec<T>, f: F) -> f64
where
    F: Fn(T) -> f64 + Sync,
{
    let mut items = items.into_iter();
    let Some(first) = items.next() else {
        return 0.0;
    };
    let rest: Vec<T> = items.collect();
    if rest.is_empty() {
        return f(first);
    }
    std::thread::scope(|scope| {
        let handles: Vec<_> = rest
            .into_iter()
            .map(|item| {
                let f = &f;
                scope.spawn(move || f(item))
            })
            .collect();
        let mut m = f(first);
        for h in handles {
            // A worker that panicked contributes an infinite change, so the
            // layer never reads as converged.
            m = m.max(h.join().unwrap_or(f64::INFINITY));
        }
        m
    })
}

/// Sweeps `entries` with `sweep` (a share to each of `threads` threads)
/// until a sweep changes nothing by `target` or `budget` sweeps are made;
/// returns the sweeps made and the last largest change. The threads agree
/// on the largest change of each sweep at a barrier.
pub(super) fn sweep_together(
    entries: Entries<'_>,
    threads: usize,
    target: f64,
    budget: u32,
    sweep: impl Fn(Entries<'_>) -> f64 + Sync,
) -> (u32, f64) {
    if threads <= 1 {
        let mut last = 0.0;
        for s in 1..=budget {
            last = sweep(entries);
            if last < target {
                return (s, last);
            }
        }
        return (budget, last);
    }
    let barrier = SpinBarrier::new(threads);
    // Sweep s gathers into slot s % 3; the slot of sweep s - 1 is cleared
    // after the barrier of sweep s, when every thread has read it and
    // before anyone can reach sweep s + 2.
    let slots = [AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0)];
    #[allow(
        clippy::indexing_slicing,
        reason = "every index into `slots` is taken `% 3`, and there are three slots"
    )]
    let run = |t: usize| -> (u32, f64) {
        let share = entries.share(t, threads);
        let mut made = 0;
        let mut last = 0.0;
        for s in 0..budget {
            let change = sweep(share);
            // Changes are non-negative, so their bit patterns order as
            // the numbers do.
            slots[s as usize % 3].fetch_max(change.to_bits(), Ordering::AcqRel);
            barrier.wait();
            last = f64::from_bits(slots[s as usize % 3].load(Ordering::Acquire));
            if t == 0 {
                slots[(s as usize + 2) % 3].store(0, Ordering::Release);
            }
            made = s + 1;
            if last < target {
                break;
            }
        }
        (made, last)
    };
    std::thread::scope(|scope| {
        let handles: Vec<_> = (1..threads)
            .map(|t| {
                let run = &run;
                scope.spawn(move || run(t))
            })
            .collect();
        let mine = run(0);
        for h in handles {
            let _ = h.join();
        }
        mine
    })
}

/// A barrier for a fixed number of threads that spins briefly, then
/// yields.
struct SpinBarrier {
    threads: usize,
    count: AtomicUsize,
    generation: AtomicUsize,
}

impl SpinBarrier {
    fn new(threads: usize) -> SpinBarrier {
        SpinBarrier {
            threads,
            count: AtomicUsize::new(0),
            generation: AtomicUsize::new(0),
        }
    }

    fn wait(&self) {
        let generation = self.generation.load(Ordering::Acquire);
        if self.count.fetch_add(1, Ordering::AcqRel) + 1 == self.threads {
            self.count.store(0, Ordering::Relaxed);
            self.generation.fetch_add(1, Ordering::AcqRel);
            return;
        }
        let mut spins = 0u32;
        while self.generation.load(Ordering::Acquire) == generation {
            spins += 1;
            if spins < 200 {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
    }
}
