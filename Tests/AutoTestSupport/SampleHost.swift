// The sample host and the concurrent-runs check live in a smaller target (see Package.swift); every test that
// imports this module sees them as before.
@_exported import AutoSampleHost
