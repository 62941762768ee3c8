import AutoTerminal
import ArgumentParser

/// How a run from the command line gives its result and talks to people: `--json`, `--no-input`, `--yes`. Shared by
/// `run` and `say`, which runs the intent a sentence names as a run of one call.
struct RunInteractionOptions: ParsableArguments {
    @Flag(name: .long, help: "Print the result as JSON on standard output; everything else goes to standard error.")
    var json = false

    @Flag(name: .long, help: "Never ask: a question or a choice is an error that names the intent and the line.")
    var noInput = false

    @Flag(name: .long, help: "Approve confirmations without asking (questions still need answers).")
    var yes = false

    func apply(to options: inout RunOptions) {
        options.json = json
        options.noInput = noInput
        options.approveConfirmations = yes
    }
}
