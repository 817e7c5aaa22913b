#include "memory_policy.h"

#if defined(__linux__)
#include <sys/prctl.h>
#endif

// jemalloc reads this symbol of the executable when the process starts (glibc's malloc, in the
// test executables, does not). Its memory, and its own records, on transparent huge pages where
// the kernel offers them (`madvise` mode): a rebuild that reads the last build's caches touches
// 100 MB of fresh memory, and one fault per 2 MB instead of per 4 KB spares it 15,000 faults,
// a tenth of its time. A build with no cache to reuse, or of a large folder, gives them up
// (memory_policy_give_up_huge_pages).
const char *malloc_conf = "thp:always,metadata_thp:always";

int memory_policy_give_up_huge_pages(void) {
#if defined(__linux__) && defined(PR_SET_THP_DISABLE)
    return prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0) == 0 ? 0 : -1;
#else
    return -1;
#endif
}
