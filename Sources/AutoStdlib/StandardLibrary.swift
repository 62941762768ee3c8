import AutoIntents

extension Registry {
    /// The standard library's native intents: files, programs and the system, YAML and CSV, the web (text, dates and
    /// JSON are the language's own functions).
    /// `auto` registers them, and so does the Library example; another host registers them if it wants them, and
    /// each asks the run's grants before it touches anything (`--sandbox`, `--allow-read`, …).
    package mutating func registerStandardLibrary() throws(RegistrationError) {
        try StandardLibrary.intents.register(into: &self)
    }
}

extension StandardLibrary {
    /// The standard library's native intents, in the order they are registered (`Registry.registerStandardLibrary`).
    package static let intents = IntentBundle(
        ReadText.self,
        WriteText.self,
        ListFolder.self,
        MakeFolder.self,
        CopyFile.self,
        MoveFile.self,
        RenameFile.self,
        DeleteFile.self,
        ZipIntent.self,
        UnzipIntent.self,
        RunCommandIntent.self,
        EnvironmentVariable.self,
        Wait.self,
        Notify.self,
        Fail.self,
        Log.self,
        ParseYAML.self,
        ParseCSV.self,
        WriteCSV.self,
        WebGet.self,
        WebPost.self,
        WebPut.self,
        WebDelete.self,
    )
}
