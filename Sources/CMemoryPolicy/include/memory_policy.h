#ifndef STORYSITE_MEMORY_POLICY_H
#define STORYSITE_MEMORY_POLICY_H

// How the process asks for its memory. jemalloc, where an executable links it, takes its options
// from the `malloc_conf` this target defines (see memory_policy.c).

/// Asks the kernel to back none of this process's memory with transparent huge pages from now
/// on; the memory it has keeps its pages. Returns 0 when the kernel agreed, -1 otherwise.
int memory_policy_give_up_huge_pages(void);

#endif
