// Times the first touch of fresh memory, which every build pays for the memory it uses (a
// one-story rebuild of 10,000 stories touches 70-80 MB): a region of anonymous memory is mapped
// and one byte of each page written, with transparent huge pages asked for (as storysite's
// allocator asks) and refused, twice in a row and again after a pause. On a virtual machine whose
// host takes back the memory its guest frees (a balloon with free page reporting), what was freed
// a few seconds before costs many times what was freed a moment before: run this before
// comparing two builds' times, which move with it.
//
//   swift run -c release memory-benchmark [MB] [PAUSE_SECONDS]
import Foundation
#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments.dropFirst()
let megabytes = arguments.first.flatMap { Int($0) } ?? 200
let pause = arguments.dropFirst().first.flatMap { UInt32($0) } ?? 5
guard megabytes > 0 else {
    FileHandle.standardError.write(Data("usage: memory-benchmark [MB] [PAUSE_SECONDS]\n".utf8))
    exit(64)
}

/// Milliseconds to map `megabytes` of fresh memory, with or without huge pages, and write one
/// byte of each 4 KB page; the memory is unmapped after.
func touch(hugePages: Bool) -> Double {
    let size = megabytes << 20
    let start = DispatchTime.now().uptimeNanoseconds
    guard let region = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), region != MAP_FAILED else {
        FileHandle.standardError.write(Data("memory-benchmark: cannot map \(megabytes) MB\n".utf8))
        exit(71)
    }
    _ = madvise(region, size, hugePages ? MADV_HUGEPAGE : MADV_NOHUGEPAGE)
    let bytes = region.assumingMemoryBound(to: UInt8.self)
    for offset in stride(from: 0, to: size, by: 4096) { bytes[offset] = 1 }
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    munmap(region, size)
    return elapsed
}

print("memory-benchmark: first touch of \(megabytes) MB of fresh memory, a pause of \(pause) s before each pair")
for hugePages in [true, false] {
    for round in 1...2 {
        sleep(pause)
        let afterPause = touch(hugePages: hugePages)
        let again = touch(hugePages: hugePages)
        print(String(
            format: "%@, round %d: after the pause %.0f ms (%.2f ms/MB), right after %.0f ms (%.2f ms/MB)",
            hugePages ? "huge pages" : "4 KB pages", round, afterPause, afterPause / Double(megabytes), again, again / Double(megabytes)))
    }
}
