// Modules of the tests' support that are targets of their own (see Package.swift), seen by every test that imports this
// one as before: the sample host and the concurrent-runs check (also built under Thread Sanitizer alone), and the
// PostgreSQL server (also started by the benchmarks, in release).
@_exported import AutoPostgresServer
@_exported import AutoSampleHost
