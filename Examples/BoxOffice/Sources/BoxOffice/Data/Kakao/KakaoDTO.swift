import Foundation

/// Kakao's `/v2/search/image` response.
public struct KakaoImageSearchResponse: Decodable, Sendable {
    /// The images found, best first.
    public let documents: [Document]
    /// Counts and paging.
    public let meta: Meta

    /// One image.
    public struct Document: Decodable, Sendable {
        /// `blog`, `cafe`, `news`, `etc`.
        public let collection: String
        /// A 130×130 preview.
        public let thumbnailURL: String
        /// The image itself, often `http://` on the original site.
        public let imageURL: String
        /// Pixels.
        public let width: Int
        /// Pixels.
        public let height: Int
        /// The source site's name; can be empty.
        public let displaySitename: String
        /// The page the image is on.
        public let docURL: String
        /// ISO 8601 with fractional seconds and an offset (`2023-06-10T12:36:51.000+09:00`).
        public let datetime: String

        enum CodingKeys: String, CodingKey {
            case collection, width, height, datetime
            case thumbnailURL = "thumbnail_url"
            case imageURL = "image_url"
            case displaySitename = "display_sitename"
            case docURL = "doc_url"
        }

        /// ``datetime`` as a date, or `nil` when it is not in Kakao's form.
        public var date: Date? {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return formatter.date(from: datetime)
        }
    }

    /// Counts and paging.
    public struct Meta: Decodable, Sendable {
        /// Documents found.
        public let totalCount: Int
        /// Documents that can be shown.
        public let pageableCount: Int
        /// Whether this is the last page.
        public let isEnd: Bool

        enum CodingKeys: String, CodingKey {
            case totalCount = "total_count"
            case pageableCount = "pageable_count"
            case isEnd = "is_end"
        }
    }
}

/// Kakao's error body, sent with a non-2xx status.
public struct KakaoErrorBody: Decodable, Sendable {
    /// Such as `MissingParameter` or `AccessDeniedError`.
    public let errorType: String
    /// What Kakao says.
    public let message: String
}
