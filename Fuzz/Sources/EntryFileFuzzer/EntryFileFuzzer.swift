import CacheKit
import Foundation
import FuzzSupport

/// One folder for the whole run: each input is written as the file of one key, then the index is built
/// from the folder (a new storage) and the key read back. Whatever the bytes, that must neither trap
/// nor hang, and a value read back must be one a store could have written.
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("EntryFileFuzzer-\(getpid())")

/// The program's entry: hands the arguments to libFuzzer.
@_cdecl("EntryFileFuzzer_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzz)
}

/// One input. Exported under libFuzzer's name too, which its own `main` (linked in, unused) refers to.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = Data(bytes(data, size))
    guard let storage = try? DiskStorage<Data>(configuration: .init(directory: folder, sweepInterval: nil))
    else {
        return 0
    }
    let path = storage.fileURL(forKey: "fuzzed").path
    guard FileManager.default.createFile(atPath: path, contents: bytes) else { return 0 }
    // A fresh storage lists the folder and reads every trailer: the index builder.
    guard let reopened = try? DiskStorage<Data>(configuration: .init(directory: folder, sweepInterval: nil))
    else {
        return 0
    }
    let count = reopened.count
    let value = reopened.value(forKey: "fuzzed")
    if value != nil, count != 1 {
        fatalError("a value was read back from a storage that indexed \(count) entries")
    }
    if let value, !bytes.starts(with: value) {
        fatalError("the value read back is not the start of the file")
    }
    try? reopened.removeAll()
    try? FileManager.default.removeItem(atPath: path)
    return 0
}
