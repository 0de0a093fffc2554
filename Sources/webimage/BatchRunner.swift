import WebImage

/// Runs fetch jobs through one manager with at most `concurrency` at a time, returning results in job order.
enum BatchRunner {
    typealias Outcome = Result<FetchJob.Report, WebImageError>

    static func run(_ jobs: [FetchJob], manager: ImageManager, concurrency: Int) async -> [Outcome] {
        await withTaskGroup(of: (Int, Outcome).self) { group in
            var results = [Outcome?](repeating: nil, count: jobs.count)
            var pending = jobs.enumerated().makeIterator()
            for _ in 0..<concurrency {
                guard let (index, job) = pending.next() else { break }
                group.addTask { (index, await outcome(of: job, manager: manager)) }
            }
            while let (index, result) = await group.next() {
                results[index] = result
                if let (index, job) = pending.next() {
                    group.addTask { (index, await outcome(of: job, manager: manager)) }
                }
            }
            return results.compactMap { $0 }
        }
    }

    private static func outcome(of job: FetchJob, manager: ImageManager) async -> Outcome {
        do {
            return .success(try await job.run(with: manager))
        } catch {
            return .failure(error)
        }
    }
}
