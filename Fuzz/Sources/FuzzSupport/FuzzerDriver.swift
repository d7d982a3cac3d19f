/// libFuzzer's entry point for programs that have a `main` of their own (SwiftPM names each executable's
/// entry `<Module>_main`), declared here because the toolchain ships no Swift module for it.
@_silgen_name("LLVMFuzzerRunDriver")
private func llvmFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// Runs libFuzzer with the process's arguments, calling `test` with each input.
/// - Parameters:
///   - argc: The argument count `main` received.
///   - argv: The arguments `main` received.
///   - test: The fuzz target: one input, as bytes.
/// - Returns: libFuzzer's exit code.
public func runFuzzer(
    _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32 {
    var count = argc
    var arguments = argv
    return llvmFuzzerRunDriver(&count, &arguments, test)
}

/// The input as a buffer (empty when libFuzzer passes no pointer).
public func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: data, count: data == nil ? 0 : size)
}
