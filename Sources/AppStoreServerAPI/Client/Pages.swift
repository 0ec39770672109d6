/// Pages of an App Store Server API listing, each fetched when asked for with the token the
/// page before gave (a transaction history's `revision`, a notification history's
/// `paginationToken`), until one says there are no more.
public struct Pages<Page: Sendable>: AsyncSequence, Sendable {
    /// Fetches the page at a token (nil: the first), and the token of the next, nil at the end.
    public typealias Fetch = @Sendable (String?) async throws(AppStoreServerAPIError) -> (page: Page, next: String?)

    private let start: String?
    private let fetch: Fetch

    /// Pages from `start`.
    public init(start: String?, fetch: @escaping Fetch) {
        self.start = start
        self.fetch = fetch
    }

    /// An iterator from the first page.
    public func makeAsyncIterator() -> Iterator {
        Iterator(token: start, fetch: fetch)
    }

    /// Every page's elements, in order.
    public func collect<Element>(_ elements: (Page) -> [Element]) async throws(AppStoreServerAPIError) -> [Element] {
        var iterator = makeAsyncIterator()
        var all: [Element] = []
        while let page = try await iterator.next() { all += elements(page) }
        return all
    }

    /// Fetches one page at a time.
    public struct Iterator: AsyncIteratorProtocol {
        var token: String?
        var finished = false
        let fetch: Fetch

        /// The next page, or nil after the last.
        public mutating func next() async throws(AppStoreServerAPIError) -> Page? {
            guard !finished else { return nil }
            let (page, next) = try await fetch(token)
            token = next
            finished = next == nil
            return page
        }
    }
}
