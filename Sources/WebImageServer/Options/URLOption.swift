/// One `name:arg:arg` segment of a processing path.
struct URLOption: Sendable, Hashable {
    var name: String
    var args: [String]

    /// Splits leading option segments off `parts`: a segment without `separator` (imgproxy's arguments separator,
    /// `:` by default) starts the source URL, as in imgproxy.
    static func split(_ parts: [String], separator: String = ":") -> (options: [URLOption], rest: [String]) {
        var options: [URLOption] = []
        for (index, part) in parts.enumerated() {
            let args = separator.isEmpty ? [part] : part.components(separatedBy: separator)
            if args.count == 1 { return (options, Array(parts[index...])) }
            options.append(URLOption(name: args[0], args: Array(args.dropFirst())))
        }
        return (options, [])
    }

    /// Throws for an option whose name or argument holds a `:` when `separator` is another: the canonical URL, whose
    /// writers put `:` between arguments, could not read such an option back.
    static func checkCanonical(_ options: [URLOption], separator: String) throws(ImageServerError) {
        guard separator != ":" else { return }
        if let option = options.first(where: { ([$0.name] + $0.args).contains { $0.contains(":") } }) {
            throw .invalid("option \(option.name.prefix(64)) holds ':', which the arguments separator cannot write")
        }
    }
}
