import AutoIntents

extension Registry {
    /// The standard library's native intents: files, programs and the system, YAML and CSV, the web (text, dates and
    /// JSON are the language's own functions).
    /// `auto` registers them, and so does the Library example; another host registers them if it wants them, and
    /// each asks the run's grants before it touches anything (`--sandbox`, `--allow-read`, …).
    public mutating func registerStandardLibrary() throws(RegistrationError) {
        try register(ReadText.self)
        try register(WriteText.self)
        try register(ListFolder.self)
        try register(MakeFolder.self)
        try register(CopyFile.self)
        try register(MoveFile.self)
        try register(RenameFile.self)
        try register(DeleteFile.self)
        try register(ZipIntent.self)
        try register(UnzipIntent.self)
        try register(RunCommandIntent.self)
        try register(EnvironmentVariable.self)
        try register(Wait.self)
        try register(Notify.self)
        try register(Fail.self)
        try register(Log.self)
        try register(ParseYAML.self)
        try register(ParseCSV.self)
        try register(WriteCSV.self)
        try register(WebGet.self)
        try register(WebPost.self)
        try register(WebPut.self)
        try register(WebDelete.self)
    }
}
