/// One measured operation: `prepare` sets up (outside what is divided), and returns the body that runs
/// the operation the given number of times.
struct Workload {
    let name: String
    let prepare: () -> (Int) -> Void
}

/// Keeps `value` alive and unknown to the optimizer, so the work that made it is not removed.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

