// The start row's floor (Benchmarks/Startup.swift): a Swift program that uses Foundation (its process information) and
// prints one line, built and linked as `auto` is (static Swift runtime and Foundation, Package.swift's
// `startupLinking`). What `auto -e 'show 1'` costs beyond it is the engine's own start.
import Foundation

print(ProcessInfo.processInfo.arguments.count)
