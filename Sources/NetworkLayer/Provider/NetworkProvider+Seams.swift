import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension NetworkProvider {
    /// What tests change inside a provider, apart from its public ``Configuration``: given to its
    /// internal initializer, never set by an app.
    struct Seams: Sendable {
        /// Whether a download without a window is a download task that URLSession writes itself: on
        /// Apple platforms. FoundationNetworking's download tasks leave their files in the temporary
        /// folder and give no resume data (measured), so Linux downloads run on data tasks; tests turn
        /// this on to run the download-task path there.
        var downloadsWithTasks = !runsOnFoundationNetworking
        /// Where deadlines on the continuous clock are watched (tests give a provider its own, to count
        /// its fires).
        var deadlines = DeadlineTimer.shared
        /// Writes one chunk of a download to its file (tests inject a failing one); `write(2)` by default.
        var downloadWrites: (@Sendable (Data, Int32) -> NetworkError?)?
        /// Whether the process is an app extension (its bundle ends in `.appex`), where a background
        /// configuration needs a shared container. Not on watchOS, where a watch app's code may run in a
        /// WatchKit extension whose background sessions need none.
        #if os(watchOS)
            var isAppExtension = false
        #else
            var isAppExtension = Bundle.main.bundlePath.hasSuffix(".appex")
        #endif
        /// Whether a configuration names a shared container (tests set it: on Linux the property cannot
        /// be set).
        var hasSharedContainer: @Sendable (URLSessionConfiguration) -> Bool = {
            $0.sharedContainerIdentifier != nil
        }
    }
}
