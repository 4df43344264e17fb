//! A team of threads for one parallel region: `team(n, pin, f)` runs `f(0)` on the calling
//! thread and `f(1..n)` on scoped threads, optionally pinned, and returns the results in
//! thread order — the `#pragma omp parallel` of the exponentiation strategies.
use super::affinity::pin_current_thread;

/// Runs `f(t)` for `t` in `0..n` concurrently (thread 0 is the caller) and returns the
/// results by thread index (none for `n = 0`). A panic in any thread is propagated.
pub fn team<T, F>(n: usize, pin: bool, f: F) -> Vec<T>
where
    T: Send,
    F: Fn(usize) -> T + Sync,
{
    if n <= 1 {
        return (0..n).map(&f).collect();
    }
    let f = &f;
    std::thread::scope(|s| {
        let handles: Vec<_> = (1..n)
            .map(|t| {
                s.spawn(move || {
                    if pin {
                        pin_current_thread(t);
                    }
                    f(t)
                })
            })
            .collect();
        let mut out = Vec::with_capacity(n);
        out.push(f(0));
        out.extend(handles.into_iter().map(|h| super::joined(h.join())));
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_thread_order() {
        assert_eq!(team(4, false, |t| t * 10), vec![0, 10, 20, 30]);
        assert!(team(0, true, |t| t).is_empty());
        assert_eq!(team(1, true, |t| t + 1), vec![1]);
        let ids = team(3, true, |_| std::thread::current().id());
        assert_ne!(ids[0], ids[1]);
        assert_ne!(ids[1], ids[2]);
    }
}
