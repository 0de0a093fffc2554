/// Runs `work`, or answers 503 once `limit` has passed (imgproxy's `IMGPROXY_TIMEOUT`, "Timeout": 503 too): the
/// request's deadline, for image and `/info` requests. Work shared with other callers goes on for them; work this
/// caller alone waited for is cancelled.
func withDeadline<T: Sendable>(
    _ limit: Duration, _ work: @escaping @Sendable () async throws(ImageServerError) -> T
) async throws(ImageServerError) -> T {
    let outcome = await withTaskGroup(of: Result<T, ImageServerError>?.self) { group in
        group.addTask {
            do throws(ImageServerError) { return .success(try await work()) } catch { return .failure(error) }
        }
        group.addTask {
            try? await Task.sleep(for: limit)
            return Task.isCancelled ? nil : .failure(ImageServerError(status: 503, "request timed out"))
        }
        var first: Result<T, ImageServerError>?
        while first == nil, let next = await group.next() { first = next }
        group.cancelAll()
        return first ?? .failure(ImageServerError(status: 503, "request timed out"))
    }
    return try outcome.get()
}
