import Testing
import WebImage

@testable import WebImageServer

/// ``OptionTable``: each processing option is one entry, and the parser, the canonical URL and the cache identity
/// all follow from it. Every entry is checked through the server's URL parser with its sample arguments.
@Suite("Server: the option table")
struct OptionTableTests {
    /// The parser, taking the security options too so that their entries are checked like the others.
    static let parser: ImageURLParser = {
        var rules = OptionRules()
        rules.allowsSecurityOptions = true
        return ImageURLParser(signer: nil, rules: rules)
    }()
    static let source = "http://e.example/a.jpg"

    /// The options of a URL with these option segments.
    static func options(_ segments: String) throws -> ProcessingOptions {
        try parser.parse("/x/\(segments)/plain/\(source)", now: 1_000).options
    }

    /// The options of the entry named `name` applied with its sample, spelled `spelling`.
    static func sample(_ name: String, spelled spelling: String? = nil) throws -> ProcessingOptions {
        let entry = try #require(OptionTable.byName[name])
        return try options(([spelling ?? entry.name] + entry.sample).joined(separator: ":"))
    }

    @Test func namesAreUnique() {
        let names = OptionTable.entries.flatMap(\.names) + ["preset", "pr"]
        #expect(Set(names).count == names.count, "an option name or alias is used twice, or shadows `preset`")
    }

    @Test(arguments: OptionTable.entries.map(\.name))
    func theLongNameAndEveryAliasParseTheSampleAlike(name: String) throws {
        let options = try Self.sample(name)
        #expect(options != ProcessingOptions(), "the sample sets a value other than the default")
        for alias in try #require(OptionTable.byName[name]).names.dropFirst() {
            #expect(try Self.sample(name, spelled: alias) == options, "\(alias)")
        }
    }

    @Test(arguments: OptionTable.entries.map(\.name))
    func theCacheIdentityChangesExactlyWhenTheResultDoes(name: String) throws {
        let entry = try #require(OptionTable.byName[name])
        let identity = try Self.sample(name).cacheIdentity
        if entry.changesResult {
            #expect(identity != ProcessingOptions().cacheIdentity)
        } else {
            #expect(identity == ProcessingOptions().cacheIdentity, "\(name) only changes the response headers")
        }
    }

    @Test(arguments: OptionTable.entries.map(\.name))
    func theCanonicalPathReadsBackAsTheSameOptions(name: String) throws {
        let options = try Self.sample(name)
        let path = options.canonicalPath(source: Self.source)
        let request = try Self.parser.parse("/insecure" + path, now: 1_000)
        #expect(request.source == Self.source)
        #expect(request.options == options, "\(path)")
        #expect(request.options.canonicalPath(source: request.source) == path)
    }

    @Test func everyFieldIsSetBySomeEntry() throws {
        let defaults = Array(Mirror(reflecting: ProcessingOptions()).children)
        var unset = Set(defaults.compactMap(\.label)).subtracting(["usedPresets"])
        for entry in OptionTable.entries {
            let fields = Mirror(reflecting: try Self.sample(entry.name)).children
            for (field, standard) in zip(fields, defaults) where "\(field.value)" != "\(standard.value)" {
                unset.remove(field.label ?? "")
            }
        }
        #expect(unset.isEmpty, "no entry sets \(unset.sorted()): the canonical URL and the cache identity miss them")
    }

    @Test func theCacheIdentityDistinguishesValuesButNotSpellings() throws {
        let identity = try Self.options("fq:webp:70:jpg:60").cacheIdentity
        #expect(try Self.options("format_quality:jpeg:60/fq:webp:70").cacheIdentity == identity)
        #expect(try Self.options("fq:webp:70:jpg:61").cacheIdentity != identity)
        #expect(try Self.options("g:no/c:10:10").cacheIdentity != Self.options("g:so/c:10:10").cacheIdentity)
        #expect(try Self.options("f:png").cacheIdentity != Self.options("f:webp").cacheIdentity)
        #expect(try Self.options("sm:0/ar:0").cacheIdentity != Self.options("sm:0").cacheIdentity)
    }
}
