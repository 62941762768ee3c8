import LibraryHost

// `library`: the Library example host's command line (LibraryCommandLine).
await LibraryCommandLine.main()
