import AutoHost

// The default host: the built-in intents, the standard library's (registered when a script may call them) and the
// stdlib prelude, nothing else.
await AutoHost.main(name: "auto") { _ in }
