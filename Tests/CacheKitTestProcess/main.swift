// A process the CacheKit tests start beside themselves, as an app's extension opens the app's cache
// folder: a child of the test, never part of a product. It reaches the library's internals (to hold the
// folder's lock), so it is built in debug only.
import Foundation

#if DEBUG
    @testable import CacheKit

    /// A storage on `folder`, shared across processes.
    func storage(_ folder: String, sizeLimit: Int = 150 * 1024 * 1024) throws -> DiskStorage<Data> {
        try DiskStorage<Data>(
            configuration: .init(
                directory: URL(fileURLWithPath: folder), sizeLimit: sizeLimit, sweepInterval: nil,
                sharedAcrossProcesses: true))
    }

    /// The value `churn` stores for `key` in its `round`: the key, the round, then bytes that depend on
    /// both, so a value read under another key, cut short or mixed with another is seen.
    func churnValue(key: String, round: Int) -> Data {
        var bytes = Data("\(key)|\(round)|".utf8)
        var seed = UInt64(truncatingIfNeeded: round) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(key.utf8.count)
        for _ in 0..<(1_000 + round % 3_000) {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes.append(UInt8(truncatingIfNeeded: seed >> 56))
        }
        return bytes
    }

    /// Whether `value`, read for `key`, is one `churnValue(key:round:)` made.
    func isWhole(_ value: Data, for key: String) -> Bool {
        // Split as bytes: a "|" followed by a combining mark is not the character "|".
        let fields = value.prefix(64).split(separator: UInt8(ascii: "|"), maxSplits: 2)
        guard fields.count == 3, String(decoding: fields[0], as: UTF8.self) == key,
            let round = Int(String(decoding: fields[1], as: UTF8.self))
        else { return false }
        return value == churnValue(key: key, round: round)
    }

    /// Stores, removes and reads 16 shared keys until `seconds` have passed; fails on a wrong value.
    func churn(_ folder: String, seconds: Double, seed: Int) throws -> Int32 {
        let cache = try storage(folder)
        let end = Date().addingTimeInterval(seconds)
        var random = UInt64(truncatingIfNeeded: seed) | 1
        var round = seed * 1_000_000
        var reads = 0
        var hits = 0
        while Date() < end {
            random ^= random << 13
            random ^= random >> 7
            random ^= random << 17
            let key = "shared-\(random % 16)"
            round += 1
            switch random % 10 {
            case 0...2: try cache.store(churnValue(key: key, round: round), forKey: key)
            case 3: try cache.removeValue(forKey: key)
            default:
                reads += 1
                guard let value = cache.value(forKey: key) else { continue }
                hits += 1
                if !isWhole(value, for: key) {
                    FileHandle.standardError.write(Data("wrong value for \(key)\n".utf8))
                    return 1
                }
            }
        }
        print("reads \(reads) hits \(hits)")
        return 0
    }

    /// Takes the folder's lock, says `held`, and waits to be killed.
    func hold(_ folder: String) throws -> Int32 {
        let journal = try SharedJournal(directory: folder)
        journal.lock(exclusive: true)
        FileHandle.standardOutput.write(Data("held\n".utf8))
        while true { sleep(60) }
    }

    func run(_ arguments: [String]) throws -> Int32 {
        switch arguments.dropFirst().first {
        case "store" where arguments.count == 5:
            try storage(arguments[2]).store(Data(arguments[4].utf8), forKey: arguments[3])
        case "remove" where arguments.count == 4:
            try storage(arguments[2]).removeValue(forKey: arguments[3])
        case "removeAll" where arguments.count == 3:
            try storage(arguments[2]).removeAll()
        case "fill" where arguments.count == 7:
            // fill <folder> <size limit> <count> <value size> <key prefix>
            guard let limit = Int(arguments[3]), let count = Int(arguments[4]), let size = Int(arguments[5])
            else { return 64 }
            let cache = try storage(arguments[2], sizeLimit: limit)
            for index in 0..<count {
                try cache.store(
                    Data(repeating: UInt8(index % 251), count: size), forKey: "\(arguments[6])-\(index)")
            }
        case "churn" where arguments.count == 5:
            guard let seconds = Double(arguments[3]), let seed = Int(arguments[4]) else { return 64 }
            return try churn(arguments[2], seconds: seconds, seed: seed)
        case "hold" where arguments.count == 3:
            return try hold(arguments[2])
        default:
            FileHandle.standardError.write(
                Data("usage: CacheKitTestProcess store|remove|removeAll|fill|churn|hold <folder> …\n".utf8))
            return 64
        }
        return 0
    }

    do {
        exit(try run(CommandLine.arguments))
    } catch {
        FileHandle.standardError.write(Data("failed: \(error)\n".utf8))
        exit(1)
    }
#else
    FileHandle.standardError.write(Data("CacheKitTestProcess runs in debug builds only\n".utf8))
    exit(70)
#endif
