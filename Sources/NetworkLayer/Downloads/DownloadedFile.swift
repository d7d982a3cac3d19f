import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A finished download: the file, now the caller's, and how it arrived.
public struct DownloadedFile: Sendable {
    /// Where the body was written: the destination the caller gave.
    public let url: URL
    /// The last answer of the attempt that completed the file, the one whose version the file holds: a
    /// `206` after a resume, or when the file was asked for in windows
    /// (``NetworkProvider/Configuration/downloadWindow``) and its last window completed it.
    public let response: HTTPURLResponse
    /// The file's size in bytes.
    public let byteCount: Int64
    /// How many times the download resumed after a dropped connection, asking only for the missing bytes.
    public let resumeCount: Int
}
