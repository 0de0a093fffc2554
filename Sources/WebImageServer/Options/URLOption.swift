/// One `name:arg:arg` segment of a processing path.
struct URLOption: Sendable, Hashable {
    var name: String
    var args: [String]

    /// Splits leading option segments off `parts`: a segment without `:` starts the source URL, as in imgproxy.
    static func split(_ parts: [String]) -> (options: [URLOption], rest: [String]) {
        var options: [URLOption] = []
        for (index, part) in parts.enumerated() {
            let args = part.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            if args.count == 1 { return (options, Array(parts[index...])) }
            options.append(URLOption(name: args[0], args: Array(args.dropFirst())))
        }
        return (options, [])
    }
}
