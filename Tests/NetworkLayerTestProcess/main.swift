// A process the NetworkLayer tests start and kill, to check what the next launch finds: a child of the
// test, never part of a product. It reaches the library's internals, so it is built in debug only.
import Foundation

#if DEBUG
    @testable import NetworkLayer

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// `stage <journal folder> <downloaded file> <destination>`: stages the file beside the destination
    /// as a background download whose caller still waits does, says `staged`, and waits to be killed
    /// before the caller can place it.
    func stage(journal: String, downloaded: String, destination: String) -> Int32 {
        let background = BackgroundTasks(
            identifier: "child", report: { _ in }, handlerQueue: DispatchQueue(label: "child.handlers"),
            journal: BackgroundJournal(folder: URL(fileURLWithPath: journal)))
        let file = SessionWrittenFile(
            destination: URL(fileURLWithPath: destination), stagesAtOnce: true,
            ledger: SessionWrittenFile.Ledger(background: background, endpoint: "GET movie.bin"))
        guard let url = URL(string: "https://cdn.example/movie.bin"),
            let head = HTTPURLResponse(
                url: url, statusCode: 200, httpVersion: "HTTP/1.1",
                headerFields: ["Content-Type": "application/octet-stream"])
        else { return 70 }
        do {
            try file.adopt(URL(fileURLWithPath: downloaded), head: head, journalName: "task-1-child")
        } catch {
            FileHandle.standardError.write(Data("could not stage: \(error)\n".utf8))
            return 1
        }
        FileHandle.standardOutput.write(Data("staged\n".utf8))
        // The caller's task would place the file now; the test kills this process first.
        while true { sleep(60) }
    }

    let arguments = CommandLine.arguments
    if arguments.count == 5, arguments[1] == "stage" {
        exit(stage(journal: arguments[2], downloaded: arguments[3], destination: arguments[4]))
    }
    FileHandle.standardError.write(
        Data("usage: NetworkLayerTestProcess stage <journal> <file> <destination>\n".utf8))
    exit(64)
#else
    FileHandle.standardError.write(Data("NetworkLayerTestProcess runs in debug builds only\n".utf8))
    exit(70)
#endif
