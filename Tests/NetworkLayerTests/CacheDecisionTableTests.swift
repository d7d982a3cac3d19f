// swift-format-ignore-file
// A table reads best one row a line, whatever its length.
import Foundation
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The HTTP cache's decisions as one table, each row citing the section of RFC 9111 (or RFC 5861) it
/// follows: what a lookup decides, what a `304` confirms, what a whole answer does to the store, and what
/// an unsafe method invalidates. Pure values: no server, no store, no clock.
@Suite("HTTP cache: the decision table")
struct CacheDecisionTableTests {
    @Test(arguments: lookups + notModifieds + answers + invalidations)
    func theCacheDecidesAsTheRFCSays(_ row: DecisionRow) {
        #expect(row.outcome() == row.expected, "RFC 9111 \(row.section): \(row.says)")
    }

    @Test func theTableHasAtLeastSixtyRows() {
        #expect(Self.lookups.count + Self.notModifieds.count + Self.answers.count + Self.invalidations.count >= 60)
    }

    static let lookups: [DecisionRow] = [
        // Freshness (section 4.2)
        .lookup("4.2.1", "a max-age not yet reached is fresh", stored: ["Cache-Control": "max-age=60"], age: 30, "serve fresh"),
        .lookup("4.2.1", "past max-age, without validators, the network is asked", stored: ["Cache-Control": "max-age=60"], age: 61, "ask"),
        .lookup("4.3.1", "past max-age, the ETag is sent back", stored: ["Cache-Control": "max-age=60", "ETag": "\"a\""], age: 61, "ask If-None-Match"),
        .lookup("4.2.1", "max-age=0 is stale at once", stored: ["Cache-Control": "max-age=0"], age: 0, "ask"),
        .lookup("4.2.1", "Expires minus Date gives the lifetime", stored: ["Date": date(0), "Expires": date(120)], age: 60, "serve fresh"),
        .lookup("4.2.1", "past Expires the answer is stale", stored: ["Date": date(0), "Expires": date(120)], age: 121, "ask"),
        .lookup("5.3", "an Expires that is not a date means already expired", stored: ["Date": date(0), "Expires": "0"], age: 1, "ask"),
        .lookup("4.2.1", "max-age wins over Expires", stored: ["Date": date(0), "Cache-Control": "max-age=10", "Expires": date(1_000)], age: 20, "ask"),
        .lookup("4.2.2", "a tenth of the time since Last-Modified is a heuristic lifetime", stored: ["Date": date(0), "Last-Modified": date(-10 * 3_600)], age: 1_800, "serve fresh"),
        .lookup("4.2.2", "past the heuristic lifetime, Last-Modified is sent back", stored: ["Date": date(0), "Last-Modified": date(-10 * 3_600)], age: 4_000, "ask If-Modified-Since"),
        .lookup("4.2.2 (the one-day cap is this cache's)", "a heuristic lifetime is at most a day", stored: ["Date": date(0), "Last-Modified": date(-100 * 86_400)], age: 2 * 86_400, "ask If-Modified-Since"),
        .lookup("4.2.2", "an answer without freshness information is stale at once", stored: [:], age: 1, "ask"),
        .lookup("4.2.3", "a stored Age counts in the age", stored: ["Cache-Control": "max-age=60", "Age": "50"], age: 20, "ask"),
        .lookup("4.2.3", "a small Age leaves the answer fresh", stored: ["Cache-Control": "max-age=60", "Age": "10"], age: 20, "serve fresh"),
        .lookup("4.2.3", "a Date long before arrival counts as apparent age", stored: ["Cache-Control": "max-age=60", "Date": date(-100)], age: 0, "ask"),
        .lookup("4.2.3", "a Date in the future counts as no age", stored: ["Cache-Control": "max-age=60", "Date": date(500)], age: 30, "serve fresh"),
        .lookup("5.2.2.4", "a response's no-cache is revalidated every time", stored: ["Cache-Control": "no-cache, max-age=600", "ETag": "\"a\""], age: 1, "ask If-None-Match"),
        .lookup("5.2.2.2", "must-revalidate refuses the request's max-stale", stored: ["Cache-Control": "max-age=1, must-revalidate"], request: ["Cache-Control": "max-stale=600"], age: 10, "ask"),
        .lookup("5.2.2.8", "proxy-revalidate does not apply to a private cache", stored: ["Cache-Control": "max-age=1, proxy-revalidate"], request: ["Cache-Control": "max-stale=600"], age: 10, "serve stale"),
        // The request's directives (section 5.2.1)
        .lookup("5.2.1.2", "max-stale takes a stale answer within it", stored: ["Cache-Control": "max-age=10"], request: ["Cache-Control": "max-stale=100"], age: 60, "serve stale"),
        .lookup("5.2.1.2", "max-stale does not take one past it", stored: ["Cache-Control": "max-age=10"], request: ["Cache-Control": "max-stale=100"], age: 200, "ask"),
        .lookup("5.2.1.2", "max-stale without a value takes any staleness", stored: ["Cache-Control": "max-age=10"], request: ["Cache-Control": "max-stale"], age: 9_999_999, "serve stale"),
        .lookup("5.2.1.1", "the request's max-age refuses an older fresh answer", stored: ["Cache-Control": "max-age=60"], request: ["Cache-Control": "max-age=10"], age: 20, "ask"),
        .lookup("5.2.1.1", "the request's max-age takes a younger one", stored: ["Cache-Control": "max-age=60"], request: ["Cache-Control": "max-age=30"], age: 20, "serve fresh"),
        .lookup("5.2.1.3", "min-fresh refuses an answer fresh for less", stored: ["Cache-Control": "max-age=60"], request: ["Cache-Control": "min-fresh=50"], age: 20, "ask"),
        .lookup("5.2.1.3", "min-fresh takes an answer fresh for long enough", stored: ["Cache-Control": "max-age=60"], request: ["Cache-Control": "min-fresh=30"], age: 20, "serve fresh"),
        .lookup("5.2.1.4", "the request's no-cache revalidates a fresh answer", stored: ["Cache-Control": "max-age=600", "ETag": "\"a\""], request: ["Cache-Control": "no-cache"], age: 1, "ask If-None-Match"),
        .lookup("RFC 7234 5.4 (9111 deprecates Pragma)", "Pragma: no-cache without Cache-Control is no-cache", stored: ["Cache-Control": "max-age=600"], request: ["Pragma": "no-cache"], age: 1, "ask"),
        .lookup("RFC 7234 5.4 (9111 deprecates Pragma)", "Pragma is ignored beside a Cache-Control", stored: ["Cache-Control": "max-age=600"], request: ["Pragma": "no-cache", "Cache-Control": "max-age=100"], age: 1, "serve fresh"),
        .lookup("5.2.1.5", "the request's no-store keeps the cache out", stored: ["Cache-Control": "max-age=600"], request: ["Cache-Control": "no-store"], age: 1, "bypass"),
        .lookup("5.2", "a Cache-Control too long to read fails closed", stored: ["Cache-Control": "max-age=600"], request: ["Cache-Control": String(repeating: "x,", count: 100) + "max-age=9"], age: 1, "bypass"),
        .lookup("5.2.1.7", "only-if-cached takes a fresh answer", stored: ["Cache-Control": "max-age=60"], request: ["Cache-Control": "only-if-cached"], age: 1, "serve fresh"),
        .lookup("5.2.1.7", "only-if-cached with a stale answer fails as a 504", stored: ["Cache-Control": "max-age=60"], request: ["Cache-Control": "only-if-cached"], age: 100, "fail"),
        .lookup("5.2.1.7", "only-if-cached with nothing stored fails", stored: nil, request: ["Cache-Control": "only-if-cached"], age: 0, "fail"),
        .lookup("5.2.1.7", "only-if-cached with max-stale takes a stale answer", stored: ["Cache-Control": "max-age=60"], request: ["Cache-Control": "only-if-cached, max-stale=600"], age: 100, "serve stale"),
        .lookup("5.2.1.7", "only-if-cached never takes a stale must-revalidate answer", stored: ["Cache-Control": "max-age=60, must-revalidate"], request: ["Cache-Control": "only-if-cached, max-stale"], age: 100, "fail"),
        // What the cache does not touch (sections 3 and 4)
        .lookup("4", "a POST goes past the cache", method: "POST", stored: ["Cache-Control": "max-age=600"], age: 1, "bypass"),
        .lookup("4", "a HEAD goes past the cache", method: "HEAD", stored: ["Cache-Control": "max-age=600"], age: 1, "bypass"),
        .lookup("4.3.1", "the caller's own If-None-Match goes past the cache", stored: ["Cache-Control": "max-age=600"], request: ["If-None-Match": "\"x\""], age: 1, "bypass"),
        .lookup("4.3.1", "the caller's own Range goes past the cache", stored: ["Cache-Control": "max-age=600"], request: ["Range": "bytes=0-9"], age: 1, "bypass"),
        .lookup("4", "with nothing stored the network is asked", stored: nil, age: 0, "ask"),
        // RFC 5861
        .lookup("RFC 5861 3", "within stale-while-revalidate, serve and refresh", stored: ["Cache-Control": "max-age=10, stale-while-revalidate=100"], age: 50, "serve and refresh"),
        .lookup("RFC 5861 3", "past stale-while-revalidate, ask", stored: ["Cache-Control": "max-age=10, stale-while-revalidate=100"], age: 200, "ask"),
        .lookup("own rule", "a policy refreshing in the foreground asks within stale-while-revalidate", stored: ["Cache-Control": "max-age=10, stale-while-revalidate=100"], policy: CachePolicy.useProtocol.refreshingInForeground(), age: 50, "ask"),
        .lookup("RFC 5861 3 + 5.2.2.2", "must-revalidate overrides stale-while-revalidate", stored: ["Cache-Control": "max-age=10, stale-while-revalidate=100, must-revalidate"], age: 50, "ask"),
        .lookup("RFC 5861 3 + 5.2.1.1", "the request's max-age overrides stale-while-revalidate", stored: ["Cache-Control": "max-age=10, stale-while-revalidate=100"], request: ["Cache-Control": "max-age=20"], age: 50, "ask"),
        // Vary (section 4.1)
        .lookup("4.1", "the same value of a varied header is served", stored: ["Cache-Control": "max-age=60", "Vary": "Accept-Language"], variants: ["accept-language": "ko"], request: ["Accept-Language": "ko"], age: 1, "serve fresh"),
        .lookup("4.1", "another value of a varied header is not", stored: ["Cache-Control": "max-age=60", "Vary": "Accept-Language", "ETag": "\"a\""], variants: ["accept-language": "ko"], request: ["Accept-Language": "en"], age: 1, "ask"),
        .lookup("4.1", "a varied header absent then and now matches", stored: ["Cache-Control": "max-age=60", "Vary": "Accept-Language"], variants: ["accept-language": ""], age: 1, "serve fresh"),
        .lookup("4.1", "a varied header present then and absent now does not", stored: ["Cache-Control": "max-age=60", "Vary": "Accept-Language"], variants: ["accept-language": "en"], age: 1, "ask"),
        .lookup("4.1", "a varied cookie compares as its digest", stored: ["Cache-Control": "max-age=60", "Vary": "Cookie"], variants: ["cookie": "sha256:" + SHA256.hex("uid=alice".utf8)], request: ["Cookie": "uid=alice"], age: 1, "serve fresh"),
        // Invalidation (section 4.4)
        .lookup("4.4", "an answer older than an invalidation is not used", stored: ["Cache-Control": "max-age=600", "ETag": "\"a\""], age: 10, invalidatedAgo: 5, "ask"),
        .lookup("4.4", "an answer newer than an invalidation is used", stored: ["Cache-Control": "max-age=600"], age: 10, invalidatedAgo: 20, "serve fresh"),
        // Validators (section 4.3.1)
        .lookup("4.3.1", "both validators are sent back", stored: ["Cache-Control": "max-age=0", "ETag": "\"a\"", "Last-Modified": date(-86_400)], age: 1, "ask If-Modified-Since If-None-Match"),
        .lookup("4.3.1 (hardening: a hostile ETag is not echoed)", "an ETag over 1 KiB is not sent back", stored: ["Cache-Control": "max-age=0", "ETag": "\"" + String(repeating: "e", count: 2_000) + "\""], age: 1, "ask"),
        .lookup("4.3.1", "a Last-Modified that is not a date is not sent back", stored: ["Cache-Control": "max-age=0", "Last-Modified": "yesterday"], age: 1, "ask"),
        // The endpoint's policy, mapped to the request directives it stands for
        .lookup("5.2.1.4", "revalidate always asks, with validators", stored: ["Cache-Control": "max-age=600", "ETag": "\"a\""], policy: .revalidate, age: 1, "ask If-None-Match"),
        .lookup("5.2.1.4", "reload asks without validators", stored: ["Cache-Control": "max-age=600", "ETag": "\"a\""], policy: .reload, age: 1, "ask"),
        .lookup("4.2.4", "return-cache-else-load serves any age", stored: ["Cache-Control": "max-age=1"], policy: .returnCacheElseLoad, age: 1_000, "serve stale"),
        .lookup("4.2.4", "return-cache-else-load asks when nothing is stored", stored: nil, policy: .returnCacheElseLoad, age: 0, "ask"),
        .lookup("5.2.1.7", "only-if-cached as a policy serves any age", stored: ["Cache-Control": "max-age=1"], policy: .onlyIfCached, age: 1_000, "serve stale"),
        .lookup("5.2.1.7", "only-if-cached as a policy fails with nothing stored", stored: nil, policy: .onlyIfCached, age: 0, "fail"),
        .lookup("4.2.2", "an assumed lifetime keeps an answer without freshness fresh", stored: [:], policy: .useProtocol.assumingLifetime(.seconds(3_600)), age: 1_800, "serve fresh"),
        .lookup("4.2.2", "the Last-Modified heuristic wins over an assumed lifetime", stored: ["Date": date(0), "Last-Modified": date(-10 * 3_600)], policy: .useProtocol.assumingLifetime(.seconds(30 * 86_400)), age: 4_000, "ask If-Modified-Since"),
    ]

    static let notModifieds: [DecisionRow] = [
        .notModified("4.3.4", "a 304 with the stored ETag confirms it", stored: ["ETag": "\"a\""], answer: ["ETag": "\"a\""], "confirmed, kept"),
        .notModified("4.3.4", "a 304 with another ETag is not trusted", stored: ["ETag": "\"a\""], answer: ["ETag": "\"b\""], "untrusted"),
        .notModified("4.3.4 (looser: one answer per key, and the request carried its validators)", "a 304 without validators confirms the answer asked about", stored: ["ETag": "\"a\""], answer: [:], "confirmed, kept"),
        .notModified("4.3.4", "a 304 without validators selects an answer without any", stored: ["Cache-Control": "max-age=0"], answer: [:], "confirmed, kept"),
        .notModified("4.3.4", "a 304 with only a Last-Modified does not select an answer that has only an ETag", stored: ["ETag": "\"a\""], answer: ["Last-Modified": date(-100)], "untrusted"),
        .notModified("4.3.4", "a 304 with another Last-Modified is not trusted", stored: ["Last-Modified": date(-100)], answer: ["Last-Modified": date(-50)], "untrusted"),
        .notModified("4.3.4", "a 304 with the same Last-Modified confirms it", stored: ["Last-Modified": date(-100)], answer: ["Last-Modified": date(-100)], "confirmed, kept"),
        .notModified("3.2 + 5.2.2.5", "a 304 adding no-store is used once", stored: ["ETag": "\"a\""], answer: ["ETag": "\"a\"", "Cache-Control": "no-store"], "confirmed, used once"),
        .notModified("3.2", "a 304's Cache-Control replaces the stored one", stored: ["ETag": "\"a\"", "Cache-Control": "max-age=0"], answer: ["ETag": "\"a\"", "Cache-Control": "max-age=100"], show: "Cache-Control", "confirmed, kept, Cache-Control: max-age=100"),
        .notModified("3.2 (a MAY: fields the stored body depends on)", "a 304 does not change the fields that describe the body", stored: ["ETag": "\"a\"", "Content-Type": "application/json"], answer: ["ETag": "\"a\"", "Content-Type": "text/html"], show: "Content-Type", "confirmed, kept, Content-Type: application/json"),
    ]

    static let answers: [DecisionRow] = [
        .answer("3", "a 200 with max-age is stored", status: 200, headers: ["Cache-Control": "max-age=60"], "store"),
        .answer("3", "a 404 may be stored", status: 404, headers: ["Cache-Control": "max-age=60"], "store"),
        .answer("3", "a 200 with no-store removes the stored answer", status: 200, headers: ["Cache-Control": "no-store"], "remove stored"),
        .answer("4.1", "a 200 with Vary: * removes the stored answer", status: 200, headers: ["Vary": "*"], "remove stored"),
        .answer("3", "a 500 leaves the stored answer", status: 500, headers: [:], "leave"),
        .answer("4.4", "an answer a redirect led to leaves it", status: 200, headers: ["Cache-Control": "max-age=60"], url: "https://api.example.com/other", "leave"),
        .answer("4.4", "an answer whose URL differs only in host case is its own", status: 200, headers: ["Cache-Control": "max-age=60"], url: "https://API.example.com/films", "store"),
        .answer("4.4", "an answer whose URL spells the default port is its own", status: 200, headers: ["Cache-Control": "max-age=60"], url: "https://api.example.com:443/films", "store"),
    ]

    static let invalidations: [DecisionRow] = [
        .invalidation("4.4", "a POST's success invalidates its URL", method: "POST", status: 201, "/films"),
        .invalidation("4.4", "a DELETE's failure invalidates nothing", method: "DELETE", status: 404, ""),
        .invalidation("4.4", "a GET invalidates nothing", method: "GET", status: 200, ""),
        .invalidation("4.4", "an OPTIONS invalidates nothing", method: "OPTIONS", status: 200, ""),
        .invalidation("4.4", "a method not known safe invalidates", method: "PURGE", status: 204, "/films"),
        .invalidation("4.4", "MOVE invalidates", method: "MOVE", status: 201, "/films"),
        .invalidation("4.4", "a same-origin Location is invalidated too", method: "PUT", status: 200, location: "/films/2", "/films /films/2"),
        .invalidation("4.4", "another origin's Location is not", method: "PUT", status: 200, location: "https://other.example.com/films/2", "/films"),
        .invalidation("4.4", "a relative Content-Location is invalidated", method: "PATCH", status: 200, contentLocation: "films/3", "/films /films/3"),
        .invalidation("4.4", "a Location spelling the default port is the same origin", method: "POST", status: 303, location: "https://api.example.com:443/films/4", "/films /films/4"),
    ]
}
