// The commit a binary was built from: `make` writes build_commit.h (git-ignored) before each build;
// a plain `swift build` leaves it out and the commit reads "unknown".
#ifndef ASSEMBLYLINE_BUILD_STAMP_H
#define ASSEMBLYLINE_BUILD_STAMP_H

const char *assemblyline_build_commit(void);

#endif
