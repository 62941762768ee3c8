/// The standard library written in .auto: every `stdlib/*.auto` file, loaded before a script as its prelude.
/// The files are embedded in the code at build time, so an installed binary carries them.
public enum Prelude {
    /// (file name, source text) for each prelude file, in name order so diagnostics are stable.
    public static let sources: [(name: String, text: String)] = EmbeddedFiles.all
        .filter { $0.path.hasSuffix(".auto") }
        .map { ("stdlib/" + $0.path, $0.text) }
}
