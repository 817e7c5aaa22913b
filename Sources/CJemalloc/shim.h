// jemalloc replaces the C library's malloc for the whole process when the executable links it:
// a build makes and frees millions of small objects on several threads, which it does faster.
#include <jemalloc/jemalloc.h>
