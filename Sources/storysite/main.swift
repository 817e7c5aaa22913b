// Importing CJemalloc links jemalloc, which then serves every malloc of the process: a build
// makes and frees millions of small objects on all cores, 10-15% faster than with glibc's. A
// sanitizer's build goes without (see Package.swift).
#if canImport(CJemalloc)
import CJemalloc
#endif
import Foundation
import StorySiteCLI

exit(await StorySite.run(arguments: Array(CommandLine.arguments.dropFirst())))
