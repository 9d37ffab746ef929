extension Downloader {
    /// A GET that succeeded: a new body, or word that the caller's copy is
    /// still current.
    public struct Response: Equatable, Sendable {
        public enum Content: Equatable, Sendable {
            /// A 2xx answer's body.
            case body([UInt8])
            /// 304: the copy whose validators the request sent is current.
            case notModified
        }

        /// The final answer's HTTP status, after redirects.
        public var status: Int
        /// The address that answered, after redirects.
        public var finalURL: String
        /// The final answer's ETag as sent; on a 304 without one, the
        /// request's, so that the caller can always keep the response's.
        public var entityTag: String?
        /// The final answer's Last-Modified as sent; on a 304 without one,
        /// the request's.
        public var lastModified: String?
        /// The final answer's Content-Type as sent.
        public var contentType: String?
        public var content: Content

        public init(status: Int, finalURL: String, entityTag: String?, lastModified: String?, contentType: String?, content: Content) {
            self.status = status
            self.finalURL = finalURL
            self.entityTag = entityTag
            self.lastModified = lastModified
            self.contentType = contentType
            self.content = content
        }

        /// The body, or nil when not modified.
        public var body: [UInt8]? {
            if case .body(let bytes) = content { bytes } else { nil }
        }

        public var isNotModified: Bool { content == .notModified }
    }
}
