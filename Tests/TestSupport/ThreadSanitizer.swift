import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Whether this test binary was built with ThreadSanitizer (`swift test --sanitize=thread`): its runtime's
/// entry point is then among the program's exported symbols.
public enum ThreadSanitizer {
    /// `true` in a ThreadSanitizer build.
    public static let isRunning: Bool = {
        guard let program = dlopen(nil, RTLD_LAZY) else { return false }
        return dlsym(program, "__tsan_init") != nil
    }()
}
