import CacheKit
import Foundation

// The CPU part of a disk hit, 4 KB (a row of the table) and 1 MB (counted for Docs/Performance.md's
// note on the 1 MB hit): DiskStorage beside a raw `Data(contentsOf:)` of the same file.
// Callgrind counts what runs in the process (opening, reading and closing the file are system calls,
// whose kernel side it does not count), so this row is what each spends around the I/O.

/// A folder of its own under the temporary directory, for one workload's files.
private func workloadFolder(_ name: String) -> URL {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("InstructionCounts-\(name)-\(ProcessInfo.processInfo.processIdentifier)")
    try? FileManager.default.removeItem(at: folder)
    do {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
        fatalError("cannot make the workload's folder \(folder.path): \(error)")
    }
    return folder
}

func diskWorkloads() -> [Workload] {
    // 4 KB for the table; 1 MB to count what a large hit adds (Docs/Performance.md, the 1 MB hit).
    [(label: "4k", size: 4_096), (label: "1m", size: 1 << 20)].flatMap {
        diskWorkloads(label: $0.label, size: $0.size)
    }
}

private func diskWorkloads(label: String, size: Int) -> [Workload] {
    // Made when a workload is prepared, not when the list is built: a process runs one workload.
    let payload = { Data((0..<size).map { UInt8(truncatingIfNeeded: $0) }) }
    let keys = (0..<64).map { "poster-\($0)" }
    return [
        diskHit(named: "disk-hit-\(label)-cachekit", shared: false, keys: keys, payload: payload),
        // The same hit in a folder declared shared across processes: one `pread` of the journal's header
        // more, whose kernel side callgrind does not count (the wall-clock row does).
        diskHit(named: "disk-hit-\(label)-shared", shared: true, keys: keys, payload: payload),
        Workload(name: "disk-hit-\(label)-raw") {
            let folder = workloadFolder("raw-hit-\(label)")
            let files = keys.map { folder.appendingPathComponent($0) }
            do {
                let bytes = payload()
                for file in files { try bytes.write(to: file) }
            } catch {
                fatalError("cannot fill the raw disk workload: \(error)")
            }
            return { count in
                for index in 0..<count { blackHole(try? Data(contentsOf: files[index & 63])) }
            }
        },
    ]
}

/// A DiskStorage hit of 64 keys in turn, read without renewal, in a folder shared across processes or
/// not; the index is built before measuring (`count` waits for it).
private func diskHit(named name: String, shared: Bool, keys: [String], payload: @escaping () -> Data)
    -> Workload
{
    Workload(name: name) {
        let folder = workloadFolder(name)
        let storage: DiskStorage<Data>
        do {
            storage = try DiskStorage<Data>(
                configuration: .init(
                    directory: folder, sizeLimit: .max, sweepInterval: nil, sharedAcrossProcesses: shared))
            let bytes = payload()
            for key in keys { try storage.store(bytes, forKey: key) }
        } catch {
            fatalError("cannot fill the disk workload \(name): \(error)")
        }
        blackHole(storage.count)
        return { count in
            for index in 0..<count {
                blackHole(storage.value(forKey: keys[index & 63], extendingExpiration: .none))
            }
        }
    }
}
