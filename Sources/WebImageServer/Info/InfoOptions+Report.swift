import Foundation

extension InfoOptions {
    /// The options of an `/info` URL's options part (`avg:1/dc:1:1/bh:4:3`), as the server reads them (without
    /// presets; security options allowed).
    ///
    /// - Throws: ``ImageServerError`` naming the first unknown option or bad argument.
    public init(parsing options: String, now: Int = Int(Date().timeIntervalSince1970)) throws(ImageServerError) {
        self.init()
        let (parsed, rest) = URLOption.split(options.split(separator: "/").map(String.init))
        guard rest.isEmpty else { throw .invalid("'\(rest[0].prefix(64))' is not an option (NAME:ARGS)") }
        let context = InfoParsingContext(now: now, allowsSecurityOptions: true)
        for option in parsed {
            guard let apply = InfoOptionTable.byName[option.name] else {
                throw .invalid("unknown info option \(option.name.prefix(64))")
            }
            try apply(option.args, &self, context)
        }
    }

    /// The `/info` JSON for the image `data`, as the server answers it (`webimage info --json` prints it).
    ///
    /// - Throws: ``ImageServerError``: 422 for data that is not a readable image or has more than `maxResolution`
    ///   pixels.
    public func report(
        for data: Data, maxResolution: Int = ServerLimits().maxSourceResolution
    ) throws(ImageServerError)
        -> String
    {
        try InfoReport.make(data, options: self, maxResolution: maxResolution).text
    }
}
