import AutoIntents

extension Registry {
    /// The standard library's native intents: files, programs and the system, YAML and CSV, the web (text, dates and
    /// JSON are the language's own functions).
    /// `auto` registers them, and so does the Library example; another host registers them if it wants them, and
    /// each asks the run's grants before it touches anything (`--sandbox`, `--allow-read`, …).
    public mutating func registerStandardLibrary() throws(RegistrationError) {
        try StandardLibrary.intents.register(into: &self)
    }
}

extension StandardLibrary {
    /// The standard library's native intents, in the order they are registered (`Registry.registerStandardLibrary`).
    public static let intents = IntentBundle([
        .init(ReadText.self),
        .init(WriteText.self),
        .init(ListFolder.self),
        .init(MakeFolder.self),
        .init(CopyFile.self),
        .init(MoveFile.self),
        .init(RenameFile.self),
        .init(DeleteFile.self),
        .init(ZipIntent.self),
        .init(UnzipIntent.self),
        .init(RunCommandIntent.self),
        .init(EnvironmentVariable.self),
        .init(Wait.self),
        .init(Notify.self),
        .init(Fail.self),
        .init(Log.self),
        .init(ParseYAML.self),
        .init(ParseCSV.self),
        .init(WriteCSV.self),
        .init(WebGet.self),
        .init(WebPost.self),
        .init(WebPut.self),
        .init(WebDelete.self),
    ])
}
