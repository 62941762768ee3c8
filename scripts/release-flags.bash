# The flags of a release build, sourced by scripts/install and scripts/benchmark, so that the benchmark times what
# is installed:
# - static: the Swift runtime and Foundation, and (linker/pkgconfig/zlib.pc puts linker/ first on the library search
#   path) SQLite, zlib and the C++ runtime from their archives: the loader then maps only libc and libm at each start;
# - generic types' metadata through their accessors rather than by mangled name: a start then demangles no type names
#   and scans no conformance records (its first `Set<String>` looked up `String: Hashable` among the binary's
#   11,583), 0.1-0.25 ms of a start (docs/PERFORMANCE.md). A frontend flag, so given to the build, not to
#   Package.swift's targets, whose unsafe flags a host's package depending on ours could not build.
# - each function in a section of its own, and the sections of those a start runs first and together, in the order
#   linker/start-order.txt gives (scripts/start-order writes it): a start then maps its code in about 85 page faults
#   instead of 140 scattered over the 37 MB of code, 0.2 ms of a start (docs/PERFORMANCE.md). gold, Swift's linker
#   on Linux, reads the list; a section it doesn't name is laid out after them, as before.
# - no `$ORIGIN` run path, which SwiftPM gives every executable: a static binary loads no library from its folder, and
#   with it the loader looked for libm and libc beside the binary first (in its folder and its glibc-hwcaps, tls and
#   x86_64 subfolders), 22 failed system calls of each start.
release_flags=(-c release --static-swift-stdlib --pkg-config-path linker/pkgconfig --disable-local-rpath
               -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
               -Xswiftc -Xfrontend -Xswiftc -function-sections
               -Xlinker --section-ordering-file -Xlinker "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/linker/start-order.txt")
