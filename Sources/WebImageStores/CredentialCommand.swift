import Dispatch
import Foundation
import WebImage

#if canImport(Glibc)
    import Glibc
#endif

/// One run of a credential helper program (the Azure CLI, the Azure Developer CLI, a Google executable-sourced
/// credential): its standard output and error read whole up to a limit, killed (`SIGKILL`, as Go's
/// `exec.CommandContext`, with its process group when it leads one) when it outlives its timeout. Its output is read
/// on dispatch threads, never on the concurrency pool; a helper whose own children keep its pipes open past the
/// timeout is waited for no longer.
struct CredentialCommand: Sendable {
    /// What a run printed and how it ended.
    struct Output: Sendable {
        let status: Int32
        let standardOutput: Data
        let standardError: Data

        /// The first line of standard error (or `fallback`), at most 200 characters: what a failure names.
        func reason(_ fallback: String) -> String {
            let text = String(decoding: standardError, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            return line.isEmpty ? fallback : String(line.prefix(200))
        }
    }

    /// The program's path.
    let executable: String
    let arguments: [String]
    /// The whole environment of the program.
    let environment: [String: String]
    /// Its working directory, when not the server's.
    let directory: String?

    /// Runs the program, which must end within `timeout`, keeping at most `maxOutput` bytes of each output.
    ///
    /// - Throws: `.connectionFailed` when it cannot be started, `.timedOut` when it outlives `timeout`.
    func run(timeout: Duration, maxOutput: Int, name: String) async throws(WebImageError) -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        let run = Run()
        process.terminationHandler = { ended in run.finish(status: ended.terminationStatus) }
        do { try process.run() } catch {
            throw WebImageError(.connectionFailed, "\(name) could not be started: \(error)", underlying: error)
        }
        let pid = process.processIdentifier
        for (pipe, isError) in [(output, false), (errors, true)] {
            let handle = pipe.fileHandleForReading
            DispatchQueue.global().async {
                var data = Data()
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    if data.count < maxOutput { data.append(chunk.prefix(maxOutput - data.count)) }
                }
                run.finish(output: data, isError: isError)
            }
        }
        let timer = Task {
            try await Task.sleep(for: timeout)
            // The helper's process group too when it leads one, so that what it started goes with it.
            if run.expire() { kill(getpgid(pid) == pid ? -pid : pid, SIGKILL) }
        }
        let ended = await run.wait()
        timer.cancel()
        guard let ended else { throw WebImageError(.timedOut, "\(name) took longer than \(timeout)") }
        return ended
    }
}

extension CredentialCommand {
    /// The state of one run: the exit status and both outputs arrive from other threads, in any order; the waiter
    /// is resumed once, when all three are in or when the run expires.
    private final class Run: Sendable {
        private struct State {
            var status: Int32?
            var standardOutput: Data?
            var standardError: Data?
            var expired = false
            var waiter: CheckedContinuation<Output?, Never>?
            var isDone: Bool { expired || (status != nil && standardOutput != nil && standardError != nil) }
        }

        private let state = Locked(State())

        func finish(status: Int32) { update { $0.status = status } }

        func finish(output: Data, isError: Bool) {
            update { if isError { $0.standardError = output } else { $0.standardOutput = output } }
        }

        /// Marks the run expired; `true` when it had not ended by then.
        func expire() -> Bool {
            var running = false
            update { state in
                running = state.status == nil
                if !state.isDone { state.expired = true }
            }
            return running
        }

        /// The output once the run ended, `nil` when it expired first.
        func wait() async -> Output? {
            await withCheckedContinuation { continuation in
                let result: Output?? = state.withLock { state in
                    guard state.isDone else {
                        state.waiter = continuation
                        return nil
                    }
                    return .some(Self.output(state))
                }
                if let result { continuation.resume(returning: result) }
            }
        }

        private func update(_ change: (inout State) -> Void) {
            let resume: (CheckedContinuation<Output?, Never>, Output?)? = state.withLock { state in
                change(&state)
                guard state.isDone, let waiter = state.waiter else { return nil }
                state.waiter = nil
                return (waiter, Self.output(state))
            }
            if let (waiter, output) = resume { waiter.resume(returning: output) }
        }

        private static func output(_ state: State) -> Output? {
            guard !state.expired, let status = state.status else { return nil }
            return Output(
                status: status, standardOutput: state.standardOutput ?? Data(),
                standardError: state.standardError ?? Data())
        }
    }
}
