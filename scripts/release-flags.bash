# The flags of a release build, sourced by scripts/install and scripts/benchmark, so that the benchmark times what
# is installed:
# - static: the Swift runtime and Foundation, and (linker/pkgconfig/zlib.pc puts linker/ first on the library search
#   path) SQLite, zlib and the C++ runtime from their archives: the loader then maps only libc and libm at each start;
# - generic types' metadata through their accessors rather than by mangled name: a start then demangles no type names
#   and scans no conformance records (its first `Set<String>` looked up `String: Hashable` among the binary's
#   11,583), 0.1-0.25 ms of a start (docs/PERFORMANCE.md). A frontend flag, so given to the build, not to
#   Package.swift's targets, whose unsafe flags a host's package depending on ours could not build.
release_flags=(-c release --static-swift-stdlib --pkg-config-path linker/pkgconfig
               -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors)
