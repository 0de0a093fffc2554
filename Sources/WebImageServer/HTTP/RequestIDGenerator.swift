import Synchronization

/// New request IDs without a system call: 21 characters of the URL-safe alphabet, as imgproxy's, from a counter
/// mixed with a seed drawn once per process.
///
/// A request ID names a request in the logs; it need not be secret, only distinct. `SystemRandomNumberGenerator`
/// made one `getrandom` system call per character (21 a response, the largest single cost of a cache hit, issue 29).
/// Here the IDs of one process are distinct by construction: SplitMix64's finaliser is a bijection of 64-bit words,
/// so distinct counter values give distinct first words; the seed makes the sequences of two processes unrelated.
enum RequestIDGenerator {
    private static let seed = UInt64.random(in: .min ... .max)
    private static let counter = Atomic<UInt64>(0)

    /// The next ID.
    static func next() -> String {
        let count = counter.wrappingAdd(1, ordering: .relaxed).oldValue
        var words = (mix(seed &+ count), mix(seed ^ (count &* 0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03))
        let digits = Base64URL.digits
        return String(unsafeUninitializedCapacity: 21) { buffer in
            for index in 0..<21 {
                if index == 10 { words.0 = words.1 }
                buffer[index] = digits[Int(words.0 & 63)]
                words.0 >>= 6
            }
            return 21
        }
    }

    /// SplitMix64's output function: a bijection that spreads every input bit over the whole word.
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
