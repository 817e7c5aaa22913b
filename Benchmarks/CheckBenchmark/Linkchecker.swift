import Foundation

/// Runs the `linkchecker` command (Debian's package) on a local site, with anchor checking on,
/// and reads the links it reports as broken from its CSV output.
struct Linkchecker {
    let executable: URL

    /// The `linkchecker` on `PATH`, if installed.
    init?() {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        guard let found = path.split(separator: ":").map({ URL(fileURLWithPath: String($0)).appendingPathComponent("linkchecker") })
            .first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
        else { return nil }
        executable = found
    }

    /// Checks the site from its `index.html`; returns the URLs it found invalid (relative to the
    /// site; linkchecker reports each URL once, from the first page linking it), how many
    /// missing anchors it warned about, and how long it took.
    func check(site: URL, scratch: URL) throws -> (invalidURLs: Set<String>, missingAnchors: Int, seconds: Double) {
        let configuration = scratch.appendingPathComponent("linkcheckerrc")
        try Data("[AnchorCheck]\n".utf8).write(to: configuration)
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--config=\(configuration.path)", "--no-status", "-o", "csv", site.appendingPathComponent("index.html").absoluteString]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let start = ContinuousClock.now
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let seconds = (ContinuousClock.now - start) / .seconds(1)

        let sitePrefix = site.absoluteString.hasSuffix("/") ? site.absoluteString : site.absoluteString + "/"
        var invalid: Set<String> = []
        var missingAnchors = 0
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").filter { !$0.hasPrefix("#") }
        guard let header = lines.first.map(Self.fields) else { return ([], 0, seconds) }
        let column = Dictionary(header.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
        for line in lines.dropFirst() {
            let fields = Self.fields(line)
            guard let url = column["url"], let valid = column["valid"], let warning = column["warningstring"],
                  fields.count == header.count
            else { continue }
            if fields[valid] == "False" {
                invalid.insert(String(fields[url].dropFirst(sitePrefix.count)))
            } else if fields[warning].contains("Anchor"), fields[warning].contains("not found") {
                missingAnchors += 1
            }
        }
        return (invalid, missingAnchors, seconds)
    }

    /// The fields of a `;`-separated CSV line, with `"` quoting.
    private static func fields(_ line: Substring) -> [String] {
        var fields: [String] = []
        var field = ""
        var quoted = false
        var characters = line.makeIterator()
        while let character = characters.next() {
            switch character {
            case "\"" where quoted:
                quoted = false
            case "\"" where field.isEmpty:
                quoted = true
            case ";" where !quoted:
                fields.append(field)
                field = ""
            default:
                field.append(character)
            }
        }
        fields.append(field)
        return fields
    }
}
