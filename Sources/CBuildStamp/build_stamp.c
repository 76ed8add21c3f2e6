#include "build_stamp.h"

#if __has_include("include/build_commit.h")
#include "include/build_commit.h"
#endif
#ifndef ASSEMBLYLINE_COMMIT
#define ASSEMBLYLINE_COMMIT "unknown"
#endif

const char *assemblyline_build_commit(void) {
    return ASSEMBLYLINE_COMMIT;
}
