//! Thread pinning: binds a worker thread to one logical CPU where the OS allows it.
use std::sync::OnceLock;

fn core_ids() -> &'static [core_affinity::CoreId] {
    static IDS: OnceLock<Vec<core_affinity::CoreId>> = OnceLock::new();
    IDS.get_or_init(|| core_affinity::get_core_ids().unwrap_or_default())
}

/// The logical CPUs this process may run on, as the OS reports them (empty if unknown).
pub fn available_cpus() -> usize {
    core_ids().len()
}

/// Pins the calling thread to logical CPU `index mod available_cpus()`. Returns whether the OS
/// accepted it; pinning is best effort and never fails the caller.
pub fn pin_current_thread(index: usize) -> bool {
    let ids = core_ids();
    if ids.is_empty() {
        return false;
    }
    core_affinity::set_for_current(ids[index % ids.len()])
}

#[cfg(test)]
mod tests {
    #[test]
    fn pinning_is_best_effort() {
        let ok = std::thread::spawn(|| super::pin_current_thread(3))
            .join()
            .unwrap();
        if super::available_cpus() > 0 {
            assert!(ok, "pinning to an allowed CPU should succeed on Linux");
        }
    }
}
