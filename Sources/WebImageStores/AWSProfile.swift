/// The profile the AWS tools would use, read from the shared credentials file and the shared config file.
///
/// In the credentials file a profile is the section of its name (`[default]`, `[prod]`); in the config file it is
/// `[profile NAME]` (`[default]` or `[profile default]` for the default one). A setting in both files is taken from
/// the credentials file, as botocore merges them; credentials are looked for in each file in turn
/// (``S3Environment``).
public struct AWSProfile: Sendable, Hashable {
    /// The profile's name: `AWS_PROFILE`, else `default`.
    public let name: String
    /// Whether `AWS_PROFILE` named it (then a profile in neither file is an error).
    public let isExplicit: Bool
    /// The credentials file's path, `nil` when there is no home directory to find it in.
    public let credentialsPath: String?
    /// The config file's path, `nil` when there is no home directory to find it in.
    public let configPath: String?
    /// The profile's section of the credentials file, `nil` when it has none (or there is no file).
    public let credentialsSection: [String: AWSConfigValue]?
    /// The profile's section of the config file, `nil` when it has none (or there is no file).
    public let configSection: [String: AWSConfigValue]?
    /// The config file's sections, for the `[services NAME]` the profile may name.
    let configSections: [String: [String: AWSConfigValue]]

    /// Reads both files for `name`.
    /// - Throws: ``S3ConfigurationError`` for a file that cannot be read or parsed, and
    ///   ``S3ConfigurationError/profileNotFound(profile:files:)`` for an explicit profile in neither file.
    public init(
        name: String, isExplicit: Bool, credentialsPath: String?, configPath: String?
    ) throws(S3ConfigurationError) {
        self.name = name
        self.isExplicit = isExplicit
        self.credentialsPath = credentialsPath
        self.configPath = configPath
        let credentials = try credentialsPath.flatMap { path throws(S3ConfigurationError) in
            try AWSConfigFile.load(path: path)
        }
        let config = try configPath.flatMap { path throws(S3ConfigurationError) in try AWSConfigFile.load(path: path) }
        credentialsSection = credentials?.sections[name]
        configSections = config?.sections ?? [:]
        configSection = Self.profileSection(name, in: configSections)
        if isExplicit, credentialsSection == nil, configSection == nil {
            throw .profileNotFound(profile: name, files: [credentialsPath, configPath].compactMap { $0 })
        }
    }

    /// The profile `name` of a config file's sections: `[profile NAME]` (the name may be quoted), and for `default`
    /// also `[default]` (`[profile default]` wins when both are there).
    static func profileSection(
        _ name: String, in sections: [String: [String: AWSConfigValue]]
    ) -> [String: AWSConfigValue]? {
        for (section, values) in sections.sorted(by: { $0.key < $1.key }) {
            let header = section.trimmingCharacters(in: .whitespaces)
            guard header.hasPrefix("profile"), header.dropFirst("profile".count).first?.isWhitespace == true else {
                continue
            }
            var profile = header.dropFirst("profile".count).trimmingCharacters(in: .whitespaces)
            if profile.count >= 2, let quote = profile.first, quote == "\"" || quote == "'", profile.last == quote {
                profile = String(profile.dropFirst().dropLast())
            }
            if profile == name { return values }
        }
        return name == "default" ? sections["default"] : nil
    }

    /// The setting `key` of the profile: the credentials file's, else the config file's.
    public func value(_ key: String) -> AWSConfigValue? { credentialsSection?[key] ?? configSection?[key] }

    /// The text of the setting `key`, `nil` when it is missing, empty or a nested block.
    public func text(_ key: String) -> String? { value(key)?.text.flatMap { $0.isEmpty ? nil : $0 } }

    /// Where the setting `key` comes from, for messages: `profile 'x' in PATH`.
    func source(of key: String) -> String {
        let path = credentialsSection?[key] != nil ? credentialsPath : configPath
        return "profile '\(name)' in \(path ?? "the shared files")"
    }

    /// The `[services NAME]` section the profile's `services` setting names, `nil` when it names none.
    /// - Throws: ``S3ConfigurationError/invalidValue(source:reason:)`` when the config file has no such section.
    func servicesSection() throws(S3ConfigurationError) -> [String: AWSConfigValue]? {
        guard let services = text("services") else { return nil }
        guard let section = configSections["services \(services)"] else {
            throw .invalidValue(
                source: source(of: "services"), reason: "services = \(services) names no [services \(services)] section"
            )
        }
        return section
    }
}
