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

/// Keys visited in a scattered but repeatable order.
func scatteredKeys(count: Int, within size: Int) -> [Int] {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    return (0..<count).map { _ in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int(state >> 33) % size
    }
}
