/// The productions of `grammar/auto.ebnf`, one per parse function. The parser notes each one it enters when
/// asked to, so a test can prove every production is exercised by a fixture and that the grammar file and
/// the parser name the same productions.
package enum Production: String, CaseIterable, Sendable {
    case program
    case statement
    case setStatement = "set_statement"
    case ifStatement = "if_statement"
    case forStatement = "for_statement"
    case repeatStatement = "repeat_statement"
    case whileStatement = "while_statement"
    case tryStatement = "try_statement"
    case breakStatement = "break_statement"
    case continueStatement = "continue_statement"
    case stopStatement = "stop_statement"
    case returnStatement = "return_statement"
    case shortcutDeclaration = "shortcut_declaration"
    case parameterDeclaration = "parameter_declaration"
    case automationDeclaration = "automation_declaration"
    case trigger
    case fileTrigger = "file_trigger"
    case timeOfDay = "time_of_day"
    case automationOption = "automation_option"
    case type
    case block
    case expressionStatement = "expression_statement"
    case pipeline
    case stage
    case action
    case argument
    case findQuery = "find_query"
    case folderWalk = "folder_walk"
    case filterStage = "filter_stage"
    case sortStage = "sort_stage"
    case sortKey = "sort_key"
    case keyPath = "key_path"
    case limitStage = "limit_stage"
    case eachStage = "each_stage"
    case groupStage = "group_stage"
    case distinctStage = "distinct_stage"
    case expression
    case orExpression = "or_expression"
    case andExpression = "and_expression"
    case notExpression = "not_expression"
    case comparison
    case additive
    case multiplicative
    case unary
    case postfix
    case primary
    case functionCall = "function_call"
    case quantity
    case text
    case list
    case record
}
