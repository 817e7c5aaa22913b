import Foundation
@testable import SiteOutput
import StoryModel

/// An output folder's manifest, which may come from a CI cache or a download, on any bytes: read
/// by its layout (``ManifestLayout``) and as JSON, it is the same manifest or refused for the same
/// reason; one read by its layout is written back as the bytes it was read from, and, with
/// entries changed, added and removed, as the same manifest made anew would be.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = inputBytes(data, size)
    let asJSON = Result { () throws(Manifest.Unreadable) in try Manifest.decoding(bytes, asJSON: true) }
    let read = Result { () throws(Manifest.Unreadable) in try Manifest.decoding(bytes) }
    switch (read, asJSON) {
    case (.success(let manifest), .success(let json)):
        require(manifest == json, "read by its layout and as JSON, two manifests: \(manifest.files) and \(json.files)")
    case (.failure(let problem), .failure(let jsonProblem)):
        require(problem.reason == jsonProblem.reason, "refused for '\(problem.reason)' by its layout, for '\(jsonProblem.reason)' as JSON")
        return 0
    default:
        require(false, "read one way, refused the other: \(read) against \(asJSON)")
    }
    // A manifest of distinct paths in the order of their bytes, as storysite writes them.
    guard let layout = ManifestLayout(bytes), case .success(let manifest) = read, manifest.files.count == layout.entries.count,
          zip(layout.entries, layout.entries.dropFirst()).allSatisfy({ $0.path.utf8Precedes($1.path) }) else { return 0 }
    require(manifest.encoded() == bytes, "a manifest read by its layout is not written back as its bytes")
    guard let first = layout.entries.first?.path, let last = layout.entries.last?.path else { return 0 }
    // One entry changed, one gone and one added, as a rebuild of a few pages changes them.
    var changes: [String: Manifest.Entry?] = [first: Manifest.Entry(size: 1, hash: "changed", modified: 1)]
    if last != first { changes[last] = .some(nil) }
    changes[last + ".added"] = Manifest.Entry(size: 2, hash: "added", modified: 2)
    var made = Manifest()
    made.generator = manifest.generator
    made.files = manifest.files
    for (path, entry) in changes { made.files[path] = entry }
    require(manifest.encoded(changing: changes) == made.encoded(), "with entries changed, the copied entries differ from a manifest made anew")
    return 0
}
