import AutoIntents
import Foundation

/// `read text "notes.txt"`: a file's text.
struct ReadText: AppIntent {
    static let title = "Read text"
    static let description = IntentDescription("The text of a file, which must be UTF-8.", category: "Files",
                                               searchKeywords: ["file", "open", "contents", "cat"], resultName: "text")
    static let parameterSummary: ParameterSummary? = "Read text of {file}"
    static let capabilities: Set<Capability> = [.read]
    @Parameter(title: "File", question: "Which file?") var file: FileRef

    func perform(_ context: IntentContext) async throws -> IntentResult<String> {
        let path = try context.authorize(.read, path: file.path)
        let data = try FileInfo.contents(of: path)
        guard let text = String(validating: data, as: UTF8.self) else { throw IntentError("'\(path)' is not UTF-8 text") }
        return .result(value: text)
    }
}
