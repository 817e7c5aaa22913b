import CMemoryPolicy

/// The process's use of transparent huge pages, which the executable's allocator asks for (see
/// `Sources/CMemoryPolicy`): they spare a rebuild that decodes the last build's caches most of
/// its page faults, but a build with nothing to reuse is slower with them (clearing 2 MB where a
/// few kilobytes are used), and one of 100,000 stories, bounded by its memory, holds a tenth more.
enum HugePages {
    /// Asks the kernel to back none of the process's memory with huge pages from now on;
    /// false where it cannot (not Linux).
    @discardableResult
    static func giveUp() -> Bool {
        memory_policy_give_up_huge_pages() == 0
    }
}
