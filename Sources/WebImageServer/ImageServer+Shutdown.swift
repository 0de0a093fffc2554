import Logging

extension ImageServer {
    /// Waits for pending disk writes and shuts down what the server made: the loaders, the processing queue, the
    /// peer-forwarding client and the error reporter (after it sends what it has queued, within its timeout); call
    /// once the application has stopped. The S3 clients of the configuration (shared tier, S3 sources) belong to
    /// whoever made them, who shuts them down after this. With ``ImageServerConfiguration/checksLeaks``, it ends with
    /// the leak check's line.
    public func shutdown() async {
        await responder.fetcher.shutdown()
        await responder.gate.shutdown()
        await responder.forwarder?.shutdown()
        await reporter?.shutdown()
        if configuration.checksLeaks { leakCheck().log(to: configuration.logger) }
    }

    /// What the server still holds now: requests and images in progress, processing runs, result runs in flight.
    func leakCheck() -> LeakCheck {
        let gauges = gauges?.snapshot ?? MonitoringGauges.Snapshot()
        return LeakCheck(
            requests: Int(gauges.requestsInProgress), images: Int(gauges.imagesInProgress),
            processing: responder.gate.running + responder.gate.waiting, runs: responder.store.runsInFlight,
            memory: ProcessMemory.current())
    }
}
