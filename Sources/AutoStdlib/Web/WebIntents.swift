import AutoIntents
import NIOHTTP1

// The web intents: `get "https://…"`, `post VALUE to "https://…"`, `put VALUE to "…"`, `delete "…"`. Each gives
// `{status, headers, body}` (`WebResponse`) and leaves the work to `WebExchange`. A status such as 404 or 500 is
// no error: as `run command` gives a program's exit status, these give the server's, and the script decides
// (`if r.status != 200 { … }`); an error is what leaves no answer to read.

/// What the web intents' descriptions share.
enum WebIntents {
    static let category = "Web"
    static let answer = "Gives {status, headers, body}: the body as a value when the answer is JSON, else as text; a status such as 404 is no error."
    /// 32 MB (decimal, as the language counts sizes): far more than an API answers, and a bound on what a wrong URL
    /// (a video, a disk image) can make the run hold.
    static let defaultLimit = ByteCount(bytes: 32_000_000)
    static let defaultTimeout = Duration.seconds(30)
}

/// `get "https://api.example.org/items"`.
struct WebGet: AppIntent {
    static let title = "Get"
    static let description = IntentDescription(
        "Fetches a web address (http or https). " + WebIntents.answer, category: WebIntents.category,
        searchKeywords: ["http", "https", "url", "web", "fetch", "download", "request", "api", "curl", "wget"], resultName: "response")
    static let parameterSummary: ParameterSummary? = "Get {url}"
    static let capabilities: Set<Capability> = [.net]
    @Parameter(title: "URL", question: "Which URL?") var url: String
    @Parameter(title: "Headers to send, a record of texts") var headers: Record?
    @Parameter(title: "Longest it may take", default: WebIntents.defaultTimeout) var timeout: Duration
    @Parameter(title: "Largest body to read", default: WebIntents.defaultLimit) var limit: ByteCount

    func perform(_ context: IntentContext) async throws -> IntentResult<WebResponse> {
        .result(value: try await WebExchange(method: .GET, url: url, headers: headers, body: .null, form: false, timeout: timeout, limit: limit)
            .send(context))
    }
}

/// `post {name: "Ann"} to "https://api.example.org/people"`: a record or a list as JSON, a text as text, or with
/// `form: true` a record as a form.
struct WebPost: AppIntent {
    static let title = "Post"
    static let description = IntentDescription(
        "Sends a value to a web address (http or https) with POST: a text as text, a record or a list as JSON, or a record as a form with form: true. "
            + WebIntents.answer, category: WebIntents.category,
        searchKeywords: ["http", "https", "url", "web", "send", "upload", "submit", "request", "api", "curl", "json", "form"], resultName: "response")
    static let parameterSummary: ParameterSummary? = "Post {body} to {to}"
    static let sideEffect = SideEffect.changes
    static let capabilities: Set<Capability> = [.net]
    @Parameter(title: "What to send", question: "What should be sent?") var body: AnyValue
    @Parameter(title: "URL", question: "To which URL?") var to: String
    @Parameter(title: "Headers to send, a record of texts") var headers: Record?
    @Parameter(title: "Send a record as a form", default: false) var form: Bool
    @Parameter(title: "Longest it may take", default: WebIntents.defaultTimeout) var timeout: Duration
    @Parameter(title: "Largest body to read", default: WebIntents.defaultLimit) var limit: ByteCount

    func perform(_ context: IntentContext) async throws -> IntentResult<WebResponse> {
        .result(value: try await WebExchange(method: .POST, url: to, headers: headers, body: body.value, form: form, timeout: timeout, limit: limit)
            .send(context))
    }
}

/// `put {done: true} to "https://api.example.org/tasks/7"`: as `post`, with PUT.
struct WebPut: AppIntent {
    static let title = "Put"
    static let description = IntentDescription(
        "Sends a value to a web address (http or https) with PUT, as post sends it. " + WebIntents.answer, category: WebIntents.category,
        searchKeywords: ["http", "https", "url", "web", "send", "upload", "replace", "update", "request", "api", "curl", "json"],
        resultName: "response")
    static let parameterSummary: ParameterSummary? = "Put {body} to {to}"
    static let sideEffect = SideEffect.changes
    static let capabilities: Set<Capability> = [.net]
    @Parameter(title: "What to send", question: "What should be sent?") var body: AnyValue
    @Parameter(title: "URL", question: "To which URL?") var to: String
    @Parameter(title: "Headers to send, a record of texts") var headers: Record?
    @Parameter(title: "Send a record as a form", default: false) var form: Bool
    @Parameter(title: "Longest it may take", default: WebIntents.defaultTimeout) var timeout: Duration
    @Parameter(title: "Largest body to read", default: WebIntents.defaultLimit) var limit: ByteCount

    func perform(_ context: IntentContext) async throws -> IntentResult<WebResponse> {
        .result(value: try await WebExchange(method: .PUT, url: to, headers: headers, body: body.value, form: form, timeout: timeout, limit: limit)
            .send(context))
    }
}

/// `delete "https://api.example.org/tasks/7"`. It changes things rather than being destructive (which would ask
/// for a confirmation at every call): deleting through an API is routine in the scripts that call one, and
/// `--what-if` stops before it as before any change.
struct WebDelete: AppIntent {
    static let title = "Delete"
    static let description = IntentDescription(
        "Asks a web address (http or https) to delete what it names, with DELETE. " + WebIntents.answer, category: WebIntents.category,
        searchKeywords: ["http", "https", "url", "web", "remove", "request", "api", "curl"], resultName: "response")
    static let parameterSummary: ParameterSummary? = "Delete {url}"
    static let sideEffect = SideEffect.changes
    static let capabilities: Set<Capability> = [.net]
    @Parameter(title: "URL", question: "Which URL?") var url: String
    @Parameter(title: "Headers to send, a record of texts") var headers: Record?
    @Parameter(title: "Longest it may take", default: WebIntents.defaultTimeout) var timeout: Duration
    @Parameter(title: "Largest body to read", default: WebIntents.defaultLimit) var limit: ByteCount

    func perform(_ context: IntentContext) async throws -> IntentResult<WebResponse> {
        .result(value: try await WebExchange(method: .DELETE, url: url, headers: headers, body: .null, form: false, timeout: timeout, limit: limit)
            .send(context))
    }
}
