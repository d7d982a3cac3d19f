/// How far a download or an upload has come.
public struct TransferProgress: Sendable, Equatable {
    /// The bytes transferred so far; for a resumed download, counted from the start of the file.
    public var completedBytes: Int64
    /// The bytes expected in all, when the server (or the file being uploaded) says; `nil` when unknown.
    public var expectedBytes: Int64?

    /// Creates a progress report.
    /// - Parameters:
    ///   - completedBytes: The bytes transferred so far.
    ///   - expectedBytes: The bytes expected in all; `nil` when unknown.
    public init(completedBytes: Int64, expectedBytes: Int64?) {
        self.completedBytes = completedBytes
        self.expectedBytes = expectedBytes
    }

    /// `completedBytes / expectedBytes` in 0...1, or `nil` when the total is unknown.
    public var fractionCompleted: Double? {
        guard let expectedBytes, expectedBytes > 0 else { return nil }
        return min(1, max(0, Double(completedBytes) / Double(expectedBytes)))
    }
}
