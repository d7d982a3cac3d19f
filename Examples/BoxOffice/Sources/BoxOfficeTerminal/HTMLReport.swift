import BoxOffice
import Foundation

/// The `report` command's page: one self-contained HTML file, the day's chart as a poster grid and a
/// details section per film.
///
/// Self-contained: each poster is embedded once, as a `data:` URL in the page's stylesheet (shown by the
/// card and the details), styles are inline, and a Content-Security-Policy forbids every script and
/// every request, so the file works when moved or mailed and cannot call out. Only images of at most
/// ``maximumEmbeddedBytes`` are embedded. Every string from the APIs is HTML-escaped and cleaned of
/// control characters; anchors are numbered by position, so no code from a server names one.
enum HTMLReport {
    /// The largest poster embedded: 2 MB (a larger one shows the placeholder, so a page stays mailable).
    static let maximumEmbeddedBytes = 2 * 1024 * 1024

    /// The page for `report`.
    /// - Parameters:
    ///   - report: The day's films.
    ///   - isDemo: Whether the data is the bundled demo data (said on the page).
    ///   - generated: When the page was made, shown in its footer.
    static func render(_ report: BoxOfficeReport, isDemo: Bool, generated: Date) -> String {
        let title = "Daily box office \(report.day.dashed)"
        var posterRules = ""
        for (index, film) in report.films.enumerated() {
            guard let poster = film.poster, let type = embeddedType(poster) else { continue }
            posterRules +=
                ".p\(index){background-image:url(\"data:\(type);base64,"
                + poster.imageData.base64EncodedString() + "\")}\n"
        }
        var html = """
            <!doctype html>
            <html lang="ko">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
            <title>\(escape(title))</title>
            <style>\(stylesheet)
            \(posterRules)</style>
            </head>
            <body>
            <header><h1>Daily box office <span class="date">\(escape(report.day.dashed))</span></h1>
            """
        if isDemo { html += "<p class=\"note\">Demo data: fictional films, bundled with the example.</p>" }
        html += "</header>\n<main>\n"
        if report.films.isEmpty {
            html += "<p class=\"empty\">No box office data for \(escape(report.day.dashed)).</p>\n"
        } else {
            html += "<ol class=\"chart\">\n"
            for (index, film) in report.films.enumerated() { html += card(film, index: index) }
            html += "</ol>\n"
            for (index, film) in report.films.enumerated() { html += details(film, index: index) }
        }
        let stamp = ISO8601DateFormatter().string(from: generated)
        html += """
            </main>
            <footer>\(isDemo ? "Box office and posters from the app's demo data." : "Box office from KOBIS; posters found by Kakao image search.") \(escape(provenance(report))) Made \(escape(stamp)) by boxoffice.</footer>
            </body>
            </html>

            """
        return html
    }

    /// Where the chart and the details came from, and when: the cache with its save time, or read when
    /// the page was made.
    static func provenance(_ report: BoxOfficeReport) -> String {
        var sentences: [String] = []
        if let savedAt = report.chartOrigin.savedAt {
            var sentence = "The chart came from the cache, saved \(ChartNotes.timestamp(savedAt))"
            if case .cacheAfterFailure(_, let failure) = report.chartOrigin {
                sentence += ", because \(failure)"
            }
            sentences.append(sentence + ".")
        }
        let details = report.films.map(\.details)
        if let (count, saved) = ChartNotes.cachedDetails(details) {
            let because = ChartNotes.failure(of: details).map { ", because \($0)" } ?? ""
            sentences.append(
                "The details of \(count) of \(ChartNotes.films(details.count)) came from the cache, saved \(saved)"
                    + because + ".")
        }
        if sentences.isEmpty { return "The chart and the details were read when the page was made." }
        return sentences.joined(separator: " ")
    }

    private static func card(_ film: ReportFilm, index: Int) -> String {
        let entry = film.entry
        let title = escape(entry.title)
        return """
            <li class="film"><a href="#film-\(index + 1)">
            \(posterImage(film.poster, title: entry.title, className: "poster", index: index))
            <span class="rank">\(entry.rank)</span> <span class="\(changeClass(entry))">\(escape(change(entry)))</span>
            <h2>\(title)</h2>
            <p class="audience">\(Renderers.grouped(entry.audienceCount)) today · \(Renderers.grouped(entry.audienceAccumulated)) in all</p>
            </a></li>

            """
    }

    private static func details(_ film: ReportFilm, index: Int) -> String {
        let entry = film.entry
        var html = "<section class=\"details\" id=\"film-\(index + 1)\">\n"
        html +=
            posterImage(film.poster, title: entry.title, className: "poster-small", index: index)
            + "\n<div>\n"
        guard let movie = film.details else {
            return html + "<h2>\(escape(entry.title))</h2>\n<p>Details unavailable.</p>\n</div>\n</section>\n"
        }
        html += "<h2>\(escape(movie.title))"
        if !movie.englishTitle.isEmpty { html += " <small>\(escape(movie.englishTitle))</small>" }
        html += "</h2>\n<dl>\n"
        let list = { (names: [String]) in names.isEmpty ? "-" : names.joined(separator: ", ") }
        let rows: [(String, String)] = [
            ("Rank", "\(entry.rank) (\(change(entry)))"),
            (
                "Audience",
                "\(Renderers.grouped(entry.audienceCount)) today, \(Renderers.grouped(entry.audienceAccumulated)) in all"
            ),
            (
                "Screens",
                "\(counted(entry.screenCount, "screen")), \(counted(entry.showCount, "showing"))"
            ),
            ("Opened", movie.openDate?.dashed ?? "-"),
            ("Runtime", movie.runtimeMinutes.map { "\($0) min" } ?? "-"),
            ("Genres", list(movie.genres)),
            ("Directors", list(movie.directors)),
            ("Actors", list(Array(movie.actors.prefix(8)))),
            ("Rating", movie.watchGrade ?? "-"),
            ("Code", movie.movieCode),
        ]
        for (label, value) in rows { html += "<dt>\(label)</dt><dd>\(escape(value))</dd>\n" }
        return html + "</dl>\n</div>\n</section>\n"
    }

    private static func posterImage(_ poster: Poster?, title: String, className: String, index: Int) -> String
    {
        guard let poster, embeddedType(poster) != nil
        else {
            return
                "<div class=\"\(className) missing\" role=\"img\" aria-label=\"No poster\">\(escape(title))</div>"
        }
        return
            "<div class=\"\(className) p\(index)\" role=\"img\" aria-label=\"Poster of \(escape(title))\"></div>"
    }

    /// The media type `poster` is embedded as, or `nil` when it is not embedded (not an image, or larger
    /// than ``maximumEmbeddedBytes``).
    private static func embeddedType(_ poster: Poster) -> String? {
        poster.imageData.count <= maximumEmbeddedBytes ? poster.mediaType : nil
    }

    private static func change(_ entry: DailyBoxOfficeEntry) -> String {
        entry.isNew ? "NEW" : Renderers.changeText(entry.rankChange)
    }

    private static func changeClass(_ entry: DailyBoxOfficeEntry) -> String {
        entry.isNew
            ? "change new"
            : entry.rankChange > 0 ? "change up" : entry.rankChange < 0 ? "change down" : "change"
    }

    /// `text` safe in HTML text and in quoted attributes: `&`, `<`, `>`, `"` and `'` escaped, and every
    /// control character or bidirectional override replaced (as on the terminal).
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in TerminalText.clean(text) {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }

    /// "1 screen", "1,234 screens".
    static func counted(_ number: Int, _ noun: String) -> String {
        "\(Renderers.grouped(number)) \(noun)\(number == 1 ? "" : "s")"
    }

    /// The page's fonts: the system font, then a Hangul font of each platform (Apple SD Gothic Neo on
    /// Apple platforms, Malgun Gothic on Windows, Noto Sans CJK KR or Nanum Gothic on Linux).
    private static let stylesheet = """
        :root{color-scheme:light dark;--fg:#1d1d1f;--bg:#f5f5f7;--card:#fff;--dim:#6e6e73;--up:#c62828;--down:#1565c0;--new:#b26a00}
        @media (prefers-color-scheme:dark){:root{--fg:#f5f5f7;--bg:#111;--card:#1e1e20;--dim:#a1a1a6}}
        *{box-sizing:border-box}body{margin:0;font:16px/1.45 -apple-system,BlinkMacSystemFont,"Apple SD Gothic Neo","Segoe UI","Malgun Gothic","Noto Sans CJK KR","Noto Sans KR","NanumGothic",system-ui,sans-serif;color:var(--fg);background:var(--bg)}
        header,main,footer{max-width:1100px;margin:0 auto;padding:16px}h1{margin:8px 0;font-size:1.6rem}.date{white-space:nowrap}.note,footer,small,.audience{color:var(--dim)}
        .chart{list-style:none;padding:0;margin:0;display:grid;gap:14px;grid-template-columns:repeat(auto-fill,minmax(150px,1fr))}
        .film a{display:block;height:100%;padding:8px;border-radius:12px;background:var(--card);color:inherit;text-decoration:none;box-shadow:0 1px 3px #0002}
        .poster,.poster-small{display:block;width:100%;aspect-ratio:2/3;border-radius:8px;background:#8883 center/cover no-repeat}
        .missing{display:flex;align-items:center;justify-content:center;text-align:center;padding:8px;color:var(--dim)}
        .rank{font-weight:700;font-size:1.2rem}.change{font-size:.85rem;color:var(--dim)}.up{color:var(--up)}.down{color:var(--down)}.new{color:var(--new);font-weight:700}
        .film h2{font-size:1rem;margin:4px 0;overflow-wrap:anywhere}.audience{font-size:.85rem;margin:0}
        .details{display:flex;gap:16px;margin:20px 0;padding:16px;border-radius:12px;background:var(--card)}
        .details .poster-small{width:120px;flex:none}.details h2{margin:0 0 8px;overflow-wrap:anywhere}
        dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:0}dt{color:var(--dim)}dd{margin:0;overflow-wrap:anywhere}
        @media (max-width:520px){.details{flex-direction:column}.details .poster-small{width:45%}}
        """
}
