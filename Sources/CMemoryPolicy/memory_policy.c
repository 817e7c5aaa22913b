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
//
// One arena for every thread (jemalloc makes four per core): what one thread frees, the next
// allocates, where each arena took fresh pages of its own. A one-story rebuild then clears a
// fifth fewer pages (3,500 faults instead of 5,000, 20 MB less). Each thread caches more small
// regions (`lg_tcache_nslots_mul`, `tcache_nslots_small_max`) and returns them to the arena less
// often (`tcache_gc_incr_bytes`), so that threads rendering pages together seldom wait for the
// arena's lock: with one arena alone, a template-edited rebuild took 3% longer.
const char *malloc_conf = "thp:always,metadata_thp:always,narenas:1,lg_tcache_nslots_mul:2,tcache_nslots_small_max:1024,"
                          "tcache_gc_incr_bytes:1048576";

int memory_policy_give_up_huge_pages(void) {
#if defined(__linux__) && defined(PR_SET_THP_DISABLE)
    return prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0) == 0 ? 0 : -1;
#else
    return -1;
#endif
}
