import Testing

@testable import WebImageServer

@Suite("Server: request IDs")
struct RequestIDGeneratorTests {
    @Test func idsAreDistinctAndUseTheURLSafeAlphabet() {
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        let ids = (0..<50_000).map { _ in RequestIDGenerator.next() }
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { $0.utf8.count == 21 && $0.utf8.allSatisfy(alphabet.contains) })
        // Every position takes many values: no character is a constant of the construction.
        for position in 0..<21 {
            let values = Set(ids.prefix(1000).map { Array($0.utf8)[position] })
            #expect(values.count > 8, "position \(position)")
        }
    }
}
