import WebImage

/// Runs fetch jobs with at most `concurrency` at a time, returning their results in job order.
enum BatchRunner {
    static func run(_ jobs: [FetchJob], concurrency: Int) async -> [Result<FetchJob.Report, WebImageError>] {
        await withTaskGroup(of: (Int, Result<FetchJob.Report, WebImageError>).self) { group in
            var results = [Result<FetchJob.Report, WebImageError>?](repeating: nil, count: jobs.count)
            var next = 0
            func startNext() {
                guard next < jobs.count else { return }
                let (index, job) = (next, jobs[next])
                group.addTask {
                    do throws(WebImageError) { return (index, .success(try await job.run())) } catch { return (index, .failure(error)) }
                }
                next += 1
            }
            for _ in 0..<min(concurrency, jobs.count) { startNext() }
            for await (index, result) in group {
                results[index] = result
                startNext()
            }
            return results.map { $0! }
        }
    }
}
