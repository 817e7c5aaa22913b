// Times the `lstat` calls no rebuild can do without, on a workspace that build-benchmark made:
// one of every story file (an edited file keeps its folder's times), and one of every folder and
// file of the output folder (a page edited by hand, or a file put into a page folder, is found
// by them alone). Prints how many there are, what one costs on one thread, and the wall time of
// all of them on every core: the part of a one-story rebuild that only fewer files could shorten.
//
//   swift run -c release stat-benchmark /dev/shm/bench10k [rounds]
import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments.dropFirst()
guard let workspace = arguments.first else {
    FileHandle.standardError.write(Data("usage: stat-benchmark WORKSPACE [ROUNDS]\n".utf8))
    exit(64)
}
let rounds = arguments.dropFirst().first.flatMap { Int($0) } ?? 5
let cores = ProcessInfo.processInfo.activeProcessorCount

/// Every entry below `folder` but those in folders whose names start with a dot, as paths
/// relative to it: the entries a listing of it stats.
func entries(below folder: String) -> [String] {
    guard let walk = FileManager.default.enumerator(atPath: folder) else { return [] }
    var found: [String] = []
    while let path = walk.nextObject() as? String {
        if path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
            walk.skipDescendants()
            continue
        }
        found.append(path)
    }
    return found
}

let content = entries(below: workspace + "/Content").filter { $0.hasSuffix(".json") }
let output = entries(below: workspace + "/Output")
guard !content.isEmpty, !output.isEmpty else {
    FileHandle.standardError.write(Data("stat-benchmark: \(workspace) has no Content/ and Output/ of a build-benchmark run\n".utf8))
    exit(66)
}
// Relative to an open descriptor of each root, as storysite's listings stat them.
let roots = [("Content", content), ("Output", output)].map { name, paths in
    (descriptor: open(workspace + "/" + name, O_RDONLY | O_DIRECTORY), paths: paths)
}
let all = roots.flatMap { root in root.paths.map { (root.descriptor, $0) } }

/// Seconds to `lstat` `all` on `threads` threads, each a share of them in turn.
func time(threads: Int) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    DispatchQueue.concurrentPerform(iterations: threads) { thread in
        var info = stat()
        for index in stride(from: thread, to: all.count, by: threads) {
            _ = fstatat(all[index].0, all[index].1, &info, AT_SYMLINK_NOFOLLOW)
        }
    }
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

_ = time(threads: cores)
let single = median((0..<rounds).map { _ in time(threads: 1) })
let parallel = median((0..<rounds).map { _ in time(threads: cores) })
print("stat-benchmark: \(content.count) story files, \(output.count) output entries: \(all.count) lstat calls, \(rounds) rounds")
print(String(format: "one thread:   %.1f ms, %.2f µs a call", single * 1000, single * 1e6 / Double(all.count)))
print(String(format: "%d threads:    %.1f ms (the floor of a rebuild that checks every file)", cores, parallel * 1000))
