import AutoCLI

// The default host: the built-in intents and the stdlib prelude, nothing else.
await AutoCommandLine.main(AutoHost())
