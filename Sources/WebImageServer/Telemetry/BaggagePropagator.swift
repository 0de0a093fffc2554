import Tracing

/// `baggage`: W3C Baggage. A request's `baggage` header (``TraceBaggage`` says which members are kept) goes into the
/// context and out again in the requests the server makes within it.
struct BaggagePropagator: TracePropagator {
    func extract(_ header: (String) -> String?, into context: inout ServiceContext) {
        guard let text = header("baggage"), let baggage = TraceBaggage(header: text) else { return }
        context.traceBaggage = baggage
    }

    func inject(_ context: ServiceContext, _ header: (String, String) -> Void) {
        guard let baggage = context.traceBaggage else { return }
        let text = baggage.header
        if !text.isEmpty { header("baggage", text) }
    }
}
