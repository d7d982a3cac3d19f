/// Keys visited in a scattered but repeatable order: `count` keys, each in `0..<size`.
public func scatteredKeys(count: Int, within size: Int) -> [Int] {
    var random = RepeatableRandom()
    return (0..<count).map { _ in Int(random.next() >> 33) % size }
}

/// `count` keys drawn from `0..<size` with Zipf's law of exponent 1: key `k` comes with a probability
/// proportional to `1 / (k + 1)`, as the popularity of images or records does in an app. Repeatable.
public func zipfKeys(count: Int, within size: Int) -> [Int] {
    var cumulative: [Double] = []
    cumulative.reserveCapacity(size)
    var total = 0.0
    for rank in 1...size {
        total += 1 / Double(rank)
        cumulative.append(total)
    }
    var random = RepeatableRandom()
    return (0..<count).map { _ in
        let target = Double(random.next() >> 11) / Double(1 << 53) * total
        var low = 0
        var high = size - 1
        while low < high {
            let middle = (low + high) / 2
            if cumulative[middle] < target { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

/// A linear congruential generator with a fixed seed: the same numbers on every run and machine.
struct RepeatableRandom {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15

    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state
    }
}
