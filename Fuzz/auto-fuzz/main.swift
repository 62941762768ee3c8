import AutoFuzz
import Foundation

// The harness's logic lives in the AutoFuzz library, where FuzzTests can reach it.
exit(FuzzCommandLine.main(CommandLine.arguments))
