import LibraryExample

// `library`: the Library example host (examples/library) built in this package, for the README's first command and
// the tests; examples/library is also a package of its own, which builds the same host against the public API alone.
await LibraryCommandLine.main()
